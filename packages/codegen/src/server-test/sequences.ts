/**
 * Sequences of requests: from an accepted answer along its OpenAPI links to their targets, and
 * through the pages of a paged list (paging.ts says what must hold). Every answer on the way
 * is judged by the declared responses too.
 */
import type { PageAnswer, PageReader, PageSizeParameter } from './paging.js';
import { checkLinkPaging, checkPageNumbers, pagingShape } from './paging.js';
import { sampleRequestParts } from '../mock/sample-request.js';
import { isTransportFailure } from './http.js';
import { evaluate, linkTarget, linkedOperation } from './links.js';
import type { Accepted, OperationRun } from './operation-run.js';
import { checkAnswer, type Finding } from './response-checks.js';
import { parseJson } from './session.js';
import type { SentRequest } from './types.js';

/** Follows each link the accepted answers' responses declare, once per answer. */
export async function linkSequences(run: OperationRun, sources: readonly Accepted[]): Promise<void> {
  const { session, op } = run;
  const { loaded } = session;
  for (const source of sources) {
    if (session.outOfTime()) break;
    const statusKey = String(source.exchange.status);
    const response = op.responses.find((r) => r.status === statusKey) ?? op.responses.find((r) => r.status.toUpperCase() === `${statusKey[0]}XX`);
    for (const link of response?.links ?? []) {
      const target = linkedOperation(loaded.api.operations, link);
      if (!target) {
        run.notes.push(`link ${link.name}: no operation ${link.operationId ?? link.operationRef} in the file`);
        continue;
      }
      const context = {
        url: session.sentRequest(source.parts).url,
        method: op.method.toUpperCase(),
        request: source.parts,
        requestBody: source.parts.body && 'value' in source.parts.body ? source.parts.body.value : undefined,
        status: source.exchange.status,
        responseHeaders: source.exchange.headers,
        responseBody: parseJson(source.exchange),
      };
      const values = new Map<string, unknown>();
      for (const [name, expression] of Object.entries(link.parameters)) {
        const param = linkTarget(target, name);
        const value = evaluate(expression, context);
        if (param && value !== undefined) values.set(`${param.in}:${param.name}`, value);
      }
      const parts = {
        ...sampleRequestParts(loaded, target.name, { seed: session.seed, now: session.now, known: (p) => values.get(`${p.in}:${p.name}`) ?? session.given(p), credentials: run.credentials }),
        extraHeaders: session.extraHeaders(target),
      };
      const request = session.writable(parts);
      if (!request) continue;
      run.counts.sequences++;
      const answer = await run.send(request, { op: target, parts });
      if (isTransportFailure(answer)) continue;
      const findings: Finding[] = checkAnswer(loaded.validators.operations[target.name]!, answer).map((f) => ({ ...f, message: `${target.name} (link ${link.name}): ${f.message}` }));
      if (answer.status === 404 || answer.status === 410) {
        findings.unshift({
          check: 'link-target-unavailable',
          message: `link ${link.name} to ${target.name} with ${JSON.stringify(Object.fromEntries(values))}: HTTP ${answer.status} after HTTP ${source.exchange.status} from ${op.name}`,
        });
      }
      for (const finding of findings) await run.report('sequence', finding, undefined, request, answer);
    }
  }
}

/** A paged list (recognised by the shape of its answer) read through, as paging.ts checks it. */
export async function pagingSequence(run: OperationRun, accepted: Accepted): Promise<void> {
  const { session, op, schemas } = run;
  if (op.method !== 'get') return;
  const body = parseJson(accepted.exchange);
  const pageParam = op.parameters.find((p) => p.in === 'query' && p.name.toLowerCase() === 'page');
  const shape = pagingShape(body, pageParam !== undefined);
  if (!shape) return;
  const firstRequest = session.sentRequest(accepted.parts);
  const toAnswer = async (request: SentRequest): Promise<PageAnswer | undefined> => {
    run.counts.sequences++;
    const answer = await run.send(request);
    if (isTransportFailure(answer)) return undefined;
    for (const finding of checkAnswer(schemas, answer)) await run.report('sequence', { ...finding, message: `page ${request.url}: ${finding.message}` }, undefined, request, answer);
    return { status: answer.status, body: parseJson(answer), url: request.url };
  };
  const sizeParam = op.parameters.find((p) => p.in === 'query' && /^(page[-_]?size|per[-_]?page|limit)$/i.test(p.name));
  const reader: PageReader = {
    getUrl: (url) => toAnswer({ ...firstRequest, url }),
    getPage: (page, size) => {
      const query = { ...accepted.parts.query, ...(pageParam ? { [pageParam.name]: { value: page } } : {}) };
      if (sizeParam) {
        if (size !== undefined) query[sizeParam.name] = { value: size };
        else delete query[sizeParam.name];
      }
      return toAnswer(session.sentRequest({ ...accepted.parts, query }));
    },
  };
  const first = { status: accepted.exchange.status, body, url: firstRequest.url };
  let result;
  if (shape === 'links') {
    result = await checkLinkPaging(first, reader, new URL(session.baseUrl).origin);
  } else {
    const numberOf = (name: string | undefined) => {
      const part = name === undefined ? undefined : accepted.parts.query[name];
      return part && 'value' in part && typeof part.value === 'number' ? part.value : undefined;
    };
    let sizeSchema = sizeParam?.schema;
    for (let hops = 0; sizeSchema?.kind === 'ref' && hops < 32; hops++) sizeSchema = session.components.get(sizeSchema.name);
    const bounds: PageSizeParameter | undefined =
      sizeParam && sizeSchema?.kind === 'number' ? { name: sizeParam.name, minimum: sizeSchema.minimum ?? 1, maximum: sizeSchema.maximum ?? 1000 } : undefined;
    result = await checkPageNumbers(first, numberOf(pageParam?.name) ?? 1, numberOf(sizeParam?.name), bounds, reader);
  }
  for (const note of result.notes) if (!run.notes.includes(note)) run.notes.push(note);
  if (result.problems.length > 0) await run.report('sequence', { check: 'paging', message: result.problems.join('; ') }, undefined, firstRequest, accepted.exchange);
}
