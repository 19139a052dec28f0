/**
 * `testServer`: checks a running server against its OpenAPI file. The file is generated
 * (validators, router, mocks) into a temporary folder; valid requests come from the mocks'
 * generator of valid values, requests wrong in one place are confirmed wrong by the
 * generated router (served on loopback as an oracle), and every answer is judged by the
 * generated validators in the response direction.
 */
import type { OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
import { loadMockApi, type LoadedApi } from '../mock/load-api.js';
import { serveMockApi, type MockServer } from '../mock/server.js';
import { curlLine } from '../mock/curl.js';
import { credentialsFor } from '../mock/credentials.js';
import { BODY_KINDS, sampleRequestParts, serializeRequest, typedObject, type RequestParts } from '../mock/sample-request.js';
import { checkAnswer, checkRefusal, type Finding } from './response-checks.js';
import { credentialPlaces, credentialsFromAuth, securityOptional } from './credentials.js';
import { answerOf, isTransportFailure, openConnections, send, type Connections, type Exchange } from './http.js';
import { KnownValues, evaluate, linkTarget, linkedOperation } from './links.js';
import { mutations, type Mutation } from './negative.js';
import { checkLinkPaging, checkPageNumbers, pagingShape, type PageAnswer, type PageReader, type PageSizeParameter } from './paging.js';
import { shrinkRequest } from './shrink.js';
import type { CaseKind, Failure, OperationSummary, SentRequest, ServerTestOptions, ServerTestReport } from './types.js';

/** Wrong usage: an operation named that the file does not have, a base URL that is not one. */
export class ServerTestUsageError extends Error {
  override name = 'ServerTestUsageError';
}

const SAFE = new Set(['get', 'head', 'options']);

/** Safe operations first, then by how many path parameters they need: values flow from lists to items. */
function runOrder(operations: readonly OperationIR[]): OperationIR[] {
  const rank = (op: OperationIR) => (SAFE.has(op.method) ? 0 : 1000) + op.parameters.filter((p) => p.in === 'path').length;
  return operations.map((op, index) => ({ op, index })).sort((a, b) => rank(a.op) - rank(b.op) || a.index - b.index).map(({ op }) => op);
}

function selectOperations(loaded: LoadedApi, names: readonly string[] | undefined): OperationIR[] {
  const all = loaded.api.operations;
  if (!names || names.length === 0) return [...all];
  const unknown = names.filter((n) => !all.some((op) => op.name === n || op.operationId === n));
  if (unknown.length > 0) throw new ServerTestUsageError(`no operation named ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the file has ${all.map((op) => op.name).join(', ')}`);
  return all.filter((op) => names.includes(op.name) || names.includes(op.operationId));
}

function parseJson(exchange: Exchange): unknown {
  try {
    return JSON.parse(exchange.text);
  } catch {
    return undefined;
  }
}

/** Checks the server at `options.baseUrl` against `options.spec`; resolves with the report. */
export async function testServer(options: ServerTestOptions): Promise<ServerTestReport> {
  const started = performance.now();
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new ServerTestUsageError(`--base-url ${JSON.stringify(options.baseUrl)} is not a URL (for example http://127.0.0.1:8080/api/v1)`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new ServerTestUsageError(`--base-url must be http or https, got ${base.protocol}`);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { baseUrl: _b, operations: _o, maxExamples: _m, seed: _s, headers: _h, auth: _a, values: _v, requestTimeout: _t, maxTime: _mt, cases: _c, onProgress: _p, ...load } = options;
  const loaded = await loadMockApi(load);
  let oracle: MockServer | undefined;
  let run: Run | undefined;
  try {
    const selected = selectOperations(loaded, options.operations);
    oracle = await serveMockApi(loaded, { port: 0, host: '127.0.0.1', seed: options.seed ?? 1, onError: () => {} });
    run = new Run(loaded, oracle, baseUrl, options, started);
    const ordered = runOrder(selected);
    const summaries: OperationSummary[] = [];
    for (const [index, op] of ordered.entries()) {
      if (run.outOfTime()) break;
      const summary = await run.operation(op);
      summaries.push(summary);
      options.onProgress?.({ index, total: ordered.length, summary });
    }
    return {
      spec: options.spec,
      baseUrl,
      seed: options.seed ?? 1,
      failures: run.failures,
      operations: summaries,
      requests: run.requests,
      durationMs: performance.now() - started,
      timedOut: summaries.length < ordered.length,
    };
  } finally {
    run?.connections.close();
    await oracle?.close();
    await loaded.remove();
  }
}

/** The state of one run: counters, values learnt from answers, failures so far. */
class Run {
  readonly failures: Failure[] = [];
  requests = 0;
  private readonly known: KnownValues;
  private readonly timeout: number;
  readonly connections: Connections = openConnections();
  private readonly seed: number;
  private readonly now = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  private readonly components: Map<string, SchemaNode>;

  constructor(
    private readonly loaded: LoadedApi,
    private readonly oracle: MockServer,
    private readonly baseUrl: string,
    private readonly options: ServerTestOptions,
    private readonly started: number,
  ) {
    this.known = new KnownValues(new Set(loaded.api.operations.flatMap((op) => op.parameters.filter((p) => p.in === 'path').map((p) => p.name))));
    this.timeout = options.requestTimeout ?? 10_000;
    this.seed = options.seed ?? 1;
    this.components = new Map(loaded.api.schemas.map((s) => [s.name, s.schema]));
  }

  /** The value `--set` gives a parameter, typed by its schema. */
  private given(param: ParameterIR): unknown {
    const text = this.options.values?.[`${param.in}.${param.name}`] ?? this.options.values?.[param.name];
    if (text === undefined) return undefined;
    let node: SchemaNode | undefined = param.schema;
    for (let hops = 0; node?.kind === 'ref' && hops < 32; hops++) node = this.components.get(node.name);
    if (node?.kind === 'string') return text;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  outOfTime(): boolean {
    return this.options.maxTime !== undefined && performance.now() - this.started > this.options.maxTime;
  }

  private sentRequest(parts: RequestParts, toOracle = false): SentRequest {
    const wire = serializeRequest(this.loaded, parts);
    return { method: wire.method, url: `${toOracle ? this.oracle.url : this.baseUrl}${wire.target}`, headers: wire.headers, ...(wire.body !== undefined ? { body: wire.body } : {}) };
  }

  private async exchange(request: SentRequest) {
    this.requests++;
    return send(request, { timeout: this.timeout, connections: this.connections });
  }

  /** The request on the wire, or undefined where a value cannot be written in its style or media type. */
  private writable(parts: RequestParts, toOracle = false): SentRequest | undefined {
    let request: SentRequest;
    try {
      request = this.sentRequest(parts, toOracle);
    } catch {
      return undefined;
    }
    // A `.` or `..` segment (an empty label-style array) is removed by URL normalisation on the way.
    const path = request.url.replace(/^[a-z]+:\/\/[^/]+/i, '').split('?')[0]!;
    return path.split('/').some((segment) => segment === '.' || segment === '..') ? undefined : request;
  }

  /** Whether the generated router refuses the request (it is wrong by the file). */
  private async oracleRefuses(parts: RequestParts): Promise<boolean> {
    const request = this.writable(parts, true);
    if (!request) return false;
    const answer = await send(request, { timeout: this.timeout, connections: this.connections });
    return !isTransportFailure(answer) && answer.status >= 400 && answer.status < 500;
  }

  /** Whether the request is valid by the generated validators (parameters and body). */
  private valid(op: OperationIR, parts: RequestParts): boolean {
    const schemas = this.loaded.validators.operations[op.name]!.request;
    if (!schemas.path.safeParse(typedObject('path', parts.path)).success) return false;
    if (!schemas.query.safeParse(typedObject('query', parts.query)).success) return false;
    if (!schemas.headers.safeParse(typedObject('header', parts.header)).success) return false;
    if (!schemas.cookies.safeParse(typedObject('cookie', parts.cookie)).success) return false;
    const body = parts.body;
    if (!body) return !schemas.body?.required;
    if (!('value' in body)) return false;
    const check = schemas.body?.content[body.contentType];
    return check ? check.safeParse(body.value).success : false;
  }

  private extraHeaders(op: OperationIR): Record<string, string> {
    const headers: Record<string, string> = {};
    // Ask for JSON where a success answer offers it: the checks read JSON best.
    const json = [...new Set(op.responses.filter((r) => r.status.startsWith('2')).flatMap((r) => r.content.map((m) => m.contentType)).filter((t) => this.loaded.runtime.bodyKind(t) === 'json'))];
    if (json.length > 0) headers.accept = json.join(', ');
    for (const [name, value] of Object.entries(this.options.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  private record(op: OperationIR, kind: CaseKind, finding: Finding, request: SentRequest, exchange: Exchange | undefined, shrinkSteps: number, mutation?: string): void {
    this.failures.push({
      operation: op.name,
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      check: finding.check,
      case: kind,
      message: finding.message,
      ...(finding.pointer !== undefined ? { pointer: finding.pointer } : {}),
      ...(finding.rule !== undefined ? { rule: finding.rule } : {}),
      ...(mutation !== undefined ? { mutation } : {}),
      request,
      curl: curlLine('', { method: request.method, target: request.url, headers: request.headers, ...(request.body !== undefined ? { body: request.body } : {}) }),
      ...(exchange ? { response: answerOf(exchange) } : {}),
      shrinkSteps,
      seed: this.seed,
    });
  }

  async operation(op: OperationIR): Promise<OperationSummary> {
    const started = performance.now();
    if (op.responses.length > 0 && op.responses.every((r) => r.status.startsWith('1'))) {
      // HTTP has no final 1xx answer: a server cannot keep such a contract, nor a test check it.
      return this.summary(op, started, { requests: 0, positive: 0, negative: 0, sequences: 0 }, {}, ['declares only informational (1xx) answers, which HTTP cannot give as final answers: not tested'], 0);
    }
    const schemas = this.loaded.validators.operations[op.name]!;
    const cases = { positive: true, negative: true, sequences: true, ...this.options.cases };
    const maxExamples = Math.max(1, this.options.maxExamples ?? 20);
    const counts = { requests: 0, positive: 0, negative: 0, sequences: 0 };
    const statuses: Record<string, number> = {};
    const notes: string[] = [];
    const reported = new Set<string>();
    const failuresBefore = this.failures.length;

    const auth = this.options.auth;
    let credentials = credentialsFor(op.security, this.loaded.api.securitySchemes);
    if (auth && Object.keys(auth).length > 0) {
      const chosen = credentialsFromAuth(op.security, this.loaded.api.securitySchemes, auth);
      if (chosen.missing.length > 0) notes.push(`no --auth for ${chosen.missing.join(', ')}: the mock's placeholder credentials were sent`);
      else credentials = chosen.credentials;
    }
    const extraHeaders = this.extraHeaders(op);
    // Every request media type the operation takes and a request can be written in, in turn.
    const mediaTypes = (op.requestBody?.content ?? []).filter((m) => m.schema !== undefined && (BODY_KINDS as readonly string[]).includes(this.loaded.runtime.bodyKind(m.contentType))).map((m) => m.contentType);
    const exchangeCounted = async (request: SentRequest) => {
      counts.requests++;
      const answer = await this.exchange(request);
      if (!isTransportFailure(answer)) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      return answer;
    };

    /** Reports a finding once per operation and check, after shrinking its request. */
    const report = async (kind: CaseKind, finding: Finding, parts: RequestParts | undefined, request: SentRequest, exchange: Exchange | undefined, mutation?: Mutation) => {
      const key = `${finding.check}`;
      if (reported.has(key)) return;
      reported.add(key);
      let shrunk = { parts, steps: 0 };
      if (parts && kind !== 'sequence') {
        const still = async (candidate: RequestParts) => {
          if (mutation ? mutation.kind === 'invalid' && !(await this.oracleRefuses(candidate)) : !this.valid(op, candidate)) return false;
          const request = this.writable(candidate);
          if (!request) return false;
          const answer = await this.exchange(request);
          if (isTransportFailure(answer)) return false;
          const findings = mutation ? checkRefusal(schemas, answer, mutation.kind === 'credentials' ? 'security-not-enforced' : 'invalid-request-accepted') : checkAnswer(schemas, answer);
          if (!findings.some((f) => f.check === finding.check)) return false;
          exchange = answer;
          finding = findings.find((f) => f.check === finding.check)!;
          return true;
        };
        shrunk = await shrinkRequest(op, parts, still);
      }
      const finalRequest = shrunk.parts ? this.sentRequest(shrunk.parts) : request;
      this.record(op, kind, finding, finalRequest, exchange, shrunk.steps, mutation?.description);
    };

    // Positive cases.
    const seen = new Set<string>();
    let accepted: { parts: RequestParts; exchange: Exchange } | undefined;
    const successes: Array<{ parts: RequestParts; exchange: Exchange }> = [];
    let first: RequestParts | undefined;
    let unwritable = 0;
    if (cases.positive || cases.negative || cases.sequences) {
      for (let i = 0; i < (cases.positive ? maxExamples : 1); i++) {
        if (this.outOfTime()) break;
        let parts: RequestParts;
        try {
          parts = sampleRequestParts(this.loaded, op.name, {
            seed: this.seed * 1_000_003 + i,
            now: this.now,
            optional: i % 2 === 1,
            examples: i === 0,
            known: (param) => this.given(param) ?? (param.in === 'path' && i % 2 === 0 ? this.known.pick(param.name, i / 2) : undefined),
            credentials,
            ...(mediaTypes.length > 0 ? { contentType: mediaTypes[i % mediaTypes.length]! } : {}),
          });
        } catch (error) {
          notes.push(`no valid request could be made: ${error instanceof Error ? error.message : String(error)}`);
          break;
        }
        parts = { ...parts, extraHeaders };
        const request = this.writable(parts);
        if (!request) {
          // A generated value its style or media type cannot carry (a delimiter inside a delimited item).
          unwritable++;
          continue;
        }
        first ??= parts;
        const key = JSON.stringify(request);
        if (seen.has(key)) continue;
        seen.add(key);
        counts.positive++;
        const answer = await exchangeCounted(request);
        if (isTransportFailure(answer)) {
          await report('positive', { check: 'transport-error', message: answer.error }, undefined, request, undefined);
          break;
        }
        for (const finding of checkAnswer(schemas, answer)) await report('positive', finding, parts, request, answer);
        if (answer.status >= 200 && answer.status < 300) {
          const body = parseJson(answer);
          if (body !== undefined) this.known.collect(body);
          accepted ??= { parts, exchange: answer };
          if (successes.length < 3) successes.push({ parts, exchange: answer });
        }
      }
      if (unwritable > 0) notes.push(`${unwritable} generated request(s) held a value their parameter style or media type cannot carry, and were not sent`);
      const refused = Object.entries(statuses).filter(([s]) => s === '401' || s === '403').reduce((n, [, c]) => n + c, 0);
      if (counts.positive > 0 && refused === counts.positive) notes.push(`every valid request was refused ${Object.keys(statuses).join('/')}: give credentials with --auth or --header`);
    }

    // Negative cases: wrong in one place, from a request the server accepted where there is one.
    const negativeBase = accepted?.parts ?? first;
    if (cases.negative && negativeBase && !this.outOfTime()) {
      const baseAnswer = await send(this.sentRequest(negativeBase, true), { timeout: this.timeout, connections: this.connections });
      const baseRefused = isTransportFailure(baseAnswer) || baseAnswer.status >= 400;
      if (baseRefused) {
        const why = isTransportFailure(baseAnswer) ? baseAnswer.error : baseAnswer.status === 406 ? 'HTTP 406: it answers only media types a mock cannot write, such as application/jwt' : `HTTP ${baseAnswer.status}`;
        notes.push(`the generated router refuses the valid request itself (${why}); invalid-data cases skipped`);
      }
      const accepts = (contentType: string) => op.requestBody?.content.some((m) => m.contentType.split(';')[0]!.trim().toLowerCase() === contentType || m.contentType.includes('*')) ?? false;
      // Leaving credentials out is a case only where some credential travels in the request
      // (a TLS client certificate does not, on a plain HTTP test).
      const schemeType = new Map(this.loaded.api.securitySchemes.map((scheme) => [scheme.name, scheme.type]));
      const tlsOnly = op.security.some((r) => Object.keys(r).length > 0 && Object.keys(r).every((name) => schemeType.get(name) === 'mutualTLS'));
      const securityRequired = !securityOptional(op.security) && !tlsOnly;
      // Only credentials the user gave can be told from invalid ones (a mock takes any well-formed one).
      const hasCredentials = Object.keys(this.options.auth ?? {}).length > 0;
      const places = credentialPlaces(op.security, this.loaded.api.securitySchemes);
      let made = 0;
      for (const mutation of mutations(op, negativeBase, this.components, { securityRequired, hasCredentials, accepts })) {
        if (made >= maxExamples || this.outOfTime()) break;
        let parts = mutation.parts;
        if (mutation.kind === 'credentials') {
          // Credentials given with --header go too.
          const dropped = Object.fromEntries(Object.entries(parts.extraHeaders ?? {}).filter(([name]) => !places.some((p) => p.in === 'header' && p.name === name)));
          parts = { ...parts, extraHeaders: dropped };
        } else if (baseRefused || !(await this.oracleRefuses(parts))) {
          continue;
        }
        const request = this.writable(parts);
        if (!request) continue;
        made++;
        counts.negative++;
        const answer = await exchangeCounted(request);
        if (isTransportFailure(answer)) {
          await report('negative', { check: 'transport-error', message: answer.error }, undefined, request, undefined, mutation);
          continue;
        }
        for (const finding of checkRefusal(schemas, answer, mutation.kind === 'credentials' ? 'security-not-enforced' : 'invalid-request-accepted')) {
          await report('negative', finding, parts, request, answer, { ...mutation, parts });
        }
      }
    }

    // Sequences: links from the answers, then paging.
    if (cases.sequences) {
      for (const success of successes) {
        if (this.outOfTime()) break;
        const statusKey = String(success.exchange.status);
        const response = op.responses.find((r) => r.status === statusKey) ?? op.responses.find((r) => r.status.toUpperCase() === `${statusKey[0]}XX`);
        for (const link of response?.links ?? []) {
          const target = linkedOperation(this.loaded.api.operations, link);
          if (!target) {
            notes.push(`link ${link.name}: no operation ${link.operationId ?? link.operationRef} in the file`);
            continue;
          }
          const sourceBody = parseJson(success.exchange);
          const requestBody = success.parts.body && 'value' in success.parts.body ? success.parts.body.value : undefined;
          const context = { url: this.sentRequest(success.parts).url, method: op.method.toUpperCase(), request: success.parts, requestBody, status: success.exchange.status, responseHeaders: success.exchange.headers, responseBody: sourceBody };
          const values = new Map<string, unknown>();
          for (const [name, expression] of Object.entries(link.parameters)) {
            const param = linkTarget(target, name);
            const value = evaluate(expression, context);
            if (param && value !== undefined) values.set(`${param.in}:${param.name}`, value);
          }
          const targetParts = {
            ...sampleRequestParts(this.loaded, target.name, { seed: this.seed, now: this.now, known: (p) => values.get(`${p.in}:${p.name}`) ?? this.given(p), credentials }),
            extraHeaders: this.extraHeaders(target),
          };
          const request = this.sentRequest(targetParts);
          counts.sequences++;
          const answer = await exchangeCounted(request);
          if (isTransportFailure(answer)) continue;
          const targetSchemas = this.loaded.validators.operations[target.name]!;
          const findings: Finding[] = checkAnswer(targetSchemas, answer).map((f) => ({ ...f, message: `${target.name} (link ${link.name}): ${f.message}` }));
          if (answer.status === 404 || answer.status === 410) {
            findings.unshift({ check: 'link-target-unavailable', message: `link ${link.name} to ${target.name} with ${JSON.stringify(Object.fromEntries(values))}: HTTP ${answer.status} after HTTP ${success.exchange.status} from ${op.name}` });
          }
          for (const finding of findings) await report('sequence', finding, undefined, request, answer);
        }
      }
      if (accepted && !this.outOfTime()) await this.paging(op, accepted, counts, report);
    }

    return this.summary(op, started, counts, statuses, notes, this.failures.length - failuresBefore);
  }

  private summary(
    op: OperationIR,
    started: number,
    counts: { requests: number; positive: number; negative: number; sequences: number },
    statuses: Record<string, number>,
    notes: string[],
    failures: number,
  ): OperationSummary {
    return { operation: op.name, operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, ...counts, failures, statuses, notes, durationMs: performance.now() - started };
  }

  private async paging(
    op: OperationIR,
    accepted: { parts: RequestParts; exchange: Exchange },
    counts: { requests: number; sequences: number },
    report: (kind: CaseKind, finding: Finding, parts: RequestParts | undefined, request: SentRequest, exchange: Exchange | undefined) => Promise<void>,
  ): Promise<void> {
    if (op.method !== 'get') return;
    const body = parseJson(accepted.exchange);
    const pageParam = op.parameters.find((p) => p.in === 'query' && p.name.toLowerCase() === 'page');
    const shape = pagingShape(body, pageParam !== undefined);
    if (!shape) return;
    const schemas = this.loaded.validators.operations[op.name]!;
    const firstRequest = this.sentRequest(accepted.parts);
    const toAnswer = async (request: SentRequest): Promise<PageAnswer | undefined> => {
      counts.requests++;
      counts.sequences++;
      const answer = await this.exchange(request);
      if (isTransportFailure(answer)) return undefined;
      for (const finding of checkAnswer(schemas, answer)) await report('sequence', { ...finding, message: `page ${request.url}: ${finding.message}` }, undefined, request, answer);
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
        return toAnswer(this.sentRequest({ ...accepted.parts, query }));
      },
    };
    let result;
    if (shape === 'links') {
      result = await checkLinkPaging({ status: accepted.exchange.status, body, url: firstRequest.url }, reader, new URL(this.baseUrl).origin);
    } else {
      const pagePart = pageParam ? accepted.parts.query[pageParam.name] : undefined;
      const firstPage = pagePart && 'value' in pagePart && typeof pagePart.value === 'number' ? pagePart.value : 1;
      const sizePart = sizeParam ? accepted.parts.query[sizeParam.name] : undefined;
      const pageSize = sizePart && 'value' in sizePart && typeof sizePart.value === 'number' ? sizePart.value : undefined;
      const sizeSchema = sizeParam ? this.components.get((sizeParam.schema as { name?: string }).name ?? '') ?? sizeParam.schema : undefined;
      const bounds: PageSizeParameter | undefined =
        sizeParam && sizeSchema?.kind === 'number' ? { name: sizeParam.name, minimum: sizeSchema.minimum ?? 1, maximum: sizeSchema.maximum ?? 1000 } : undefined;
      result = await checkPageNumbers({ status: accepted.exchange.status, body, url: firstRequest.url }, firstPage, pageSize, bounds, reader);
    }
    if (result.problems.length > 0) {
      await report('sequence', { check: 'paging', message: result.problems.join('; ') }, undefined, firstRequest, accepted.exchange);
    }
  }
}
