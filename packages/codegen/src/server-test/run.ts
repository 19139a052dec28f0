/**
 * `testServer`: checks a running server against its OpenAPI file. The file is generated
 * (validators, router, mocks) into a temporary folder; valid requests come from the mocks'
 * generator of valid values, requests wrong in one place are confirmed wrong by the
 * generated router (served on loopback as an oracle), and every answer is judged by the
 * generated validators in the response direction. operation-run.ts tests one operation.
 */
import type { OperationIR } from '../ir/types.js';
import { loadMockApi, type LoadedApi } from '../mock/load-api.js';
import { serveMockApi, type MockServer } from '../mock/server.js';
import { testOperation } from './operation-run.js';
import { coverageOf } from './reach.js';
import { runOrder } from './run-order.js';
import { Session } from './session.js';
import type { OperationSummary, ServerTestOptions, ServerTestReport } from './types.js';

/** Wrong usage: an operation named that the file does not have, a base URL that is not one. */
export class ServerTestUsageError extends Error {
  override name = 'ServerTestUsageError';
}

/** The summary of an operation tried twice: both tries counted, the second's verdict. */
function tryAgain(first: OperationSummary, second: OperationSummary): OperationSummary {
  const statuses = { ...first.statuses };
  for (const [status, count] of Object.entries(second.statuses)) statuses[status] = (statuses[status] ?? 0) + count;
  const note = `not reached at first (${first.why ?? 'no success answer'}); tried again after the other operations${second.reached ? ', and reached' : ''}`;
  return {
    ...second,
    requests: first.requests + second.requests,
    positive: first.positive + second.positive,
    negative: first.negative + second.negative,
    sequences: first.sequences + second.sequences,
    failures: first.failures + second.failures,
    statuses,
    notes: [...new Set([...first.notes, ...second.notes, note])],
    durationMs: first.durationMs + second.durationMs,
  };
}

function selectOperations(loaded: LoadedApi, names: readonly string[] | undefined): OperationIR[] {
  const all = loaded.api.operations;
  if (!names || names.length === 0) return [...all];
  const unknown = names.filter((n) => !all.some((op) => op.name === n || op.operationId === n));
  if (unknown.length > 0) throw new ServerTestUsageError(`no operation named ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the file has ${all.map((op) => op.name).join(', ')}`);
  return all.filter((op) => names.includes(op.name) || names.includes(op.operationId));
}

function checkBaseUrl(baseUrl: string): void {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new ServerTestUsageError(`--base-url ${JSON.stringify(baseUrl)} is not a URL (for example http://127.0.0.1:8080/api/v1)`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new ServerTestUsageError(`--base-url must be http or https, got ${base.protocol}`);
}

/**
 * Checks the server at `options.baseUrl` against `options.spec`; resolves with the report.
 *
 * @example
 * const report = await testServer({ spec: 'openapi.yaml', baseUrl: 'http://127.0.0.1:8080/v1', auth: { '*': token } });
 * expect(report.failures).toEqual([]);
 */
export async function testServer(options: ServerTestOptions): Promise<ServerTestReport> {
  const started = performance.now();
  checkBaseUrl(options.baseUrl);
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const { baseUrl: _b, operations: _o, maxExamples: _m, seed: _s, headers: _h, auth: _a, values: _v, signRequest: _sr, requestTimeout: _t, maxTime: _mt, cases: _c, onProgress: _p, ...load } = options;
  const loaded = await loadMockApi(load);
  let oracle: MockServer | undefined;
  let session: Session | undefined;
  try {
    // The oracle signs its answers: an operation that answers only application/jwt is still judged.
    oracle = await serveMockApi(loaded, { port: 0, host: '127.0.0.1', seed: options.seed ?? 1, onError: () => {}, signAnswers: true });
    session = new Session(loaded, oracle, baseUrl, options, started);
    const given = session.given.bind(session);
    const ordered = runOrder(selectOperations(loaded, options.operations), session.components, (param) => given(param) !== undefined);
    const summaries: OperationSummary[] = [];
    // An operation not reached is tried once more after the reads and changes, before the
    // deletes: other answers may have handed out its values since, or changed the state it
    // needs (an attestation of a consent that a PATCH has just revoked).
    const retryAt = ordered.findIndex((op) => op.method === 'delete');
    // Only where something changed since its first try (a value kept, a change accepted), and
    // valid requests were sent at all.
    const marks: number[] = [];
    const retry = async () => {
      for (const [index, summary] of summaries.entries()) {
        if (summary.reached || summary.positive === 0 || !session!.changedSince(marks[index]!) || session!.outOfTime()) continue;
        const again = await testOperation(session!, ordered[index]!);
        // Reached now: the refusals of the first try came from a state since changed, not a fault.
        const dropped = again.reached ? session!.forget(summary.operation, 'valid-request-refused') : 0;
        summaries[index] = tryAgain({ ...summary, failures: summary.failures - dropped }, again);
        options.onProgress?.({ index, total: ordered.length, summary: summaries[index]! });
      }
    };
    for (const [index, op] of ordered.entries()) {
      if (session.outOfTime()) break;
      if (index === retryAt) await retry();
      const summary = await testOperation(session, op);
      summaries.push(summary);
      marks.push(session.mark());
      options.onProgress?.({ index, total: ordered.length, summary });
    }
    if (retryAt === -1 && !session.outOfTime()) await retry();
    return {
      spec: options.spec,
      baseUrl,
      seed: options.seed ?? 1,
      failures: session.failures,
      // Coverage counts every answer of the run: a link's target may have been tested before its source.
      operations: summaries.map((summary, i) => ({ ...summary, coverage: coverageOf(ordered[i]!, session!.seen.get(summary.operation) ?? {}) })),
      requests: session.requests,
      durationMs: performance.now() - started,
      timedOut: summaries.length < ordered.length,
    };
  } finally {
    session?.connections.close();
    await oracle?.close();
    await loaded.remove();
  }
}
