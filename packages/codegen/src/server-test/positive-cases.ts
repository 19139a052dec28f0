/**
 * Valid requests: made by the mocks' generator of valid values, each with its own seed; the
 * spec's examples in the first, optional parameters in every other one, the request media
 * types in turn, values the API handed out for path parameters in every other one. Each
 * answer is judged by the declared responses.
 */
import { BODY_KINDS, sampleRequestParts, type RequestParts } from '../mock/sample-request.js';
import { isTransportFailure, type Exchange } from './http.js';
import type { Accepted, OperationRun } from './operation-run.js';
import { checkAnswer } from './response-checks.js';
import { refusalIsFailure } from './reach.js';
import type { SentRequest } from './types.js';

export interface PositiveResult {
  /** The first request made (the base of the negative cases when none was accepted). */
  readonly first: RequestParts | undefined;
  /** The first request answered 2xx. */
  readonly accepted: Accepted | undefined;
  /** The first few requests answered 2xx (sources of links). */
  readonly successes: readonly Accepted[];
}

/** How many accepted requests are kept as sources of links. */
const LINK_SOURCES = 3;

export async function positiveCases(run: OperationRun, count: number): Promise<PositiveResult> {
  const { session, op, schemas } = run;
  const { loaded } = session;
  // Every request media type the operation takes and a request can be written in, in turn.
  const mediaTypes = (op.requestBody?.content ?? [])
    .filter((m) => m.schema !== undefined && (BODY_KINDS as readonly string[]).includes(loaded.runtime.bodyKind(m.contentType)))
    .map((m) => m.contentType);
  const seen = new Set<string>();
  const successes: Accepted[] = [];
  let first: RequestParts | undefined;
  let unwritable = 0;
  let lastRefused: { parts: RequestParts; request: SentRequest; answer: Exchange } | undefined;
  for (let i = 0; i < count; i++) {
    if (session.outOfTime()) break;
    let parts: RequestParts;
    try {
      parts = sampleRequestParts(loaded, op.name, {
        seed: session.seed * 1_000_003 + i,
        now: session.now,
        optional: i % 2 === 1,
        examples: i === 0,
        // Values handed out by earlier answers first, then every other request: the rest are generated.
        known: (param) => session.given(param) ?? (i % 2 === 0 && (param.in === 'path' || (param.in === 'query' && param.required)) ? session.harvest.pick(param.name, i / 2) : undefined),
        credentials: run.credentials,
        ...(mediaTypes.length > 0 ? { contentType: mediaTypes[i % mediaTypes.length]! } : {}),
      });
    } catch (error) {
      run.notes.push(`no valid request could be made: ${error instanceof Error ? error.message : String(error)}`);
      break;
    }
    parts = { ...parts, extraHeaders: run.extraHeaders };
    const request = session.writable(parts);
    if (!request) {
      // A generated value its style or media type cannot carry (a delimiter inside a delimited item).
      unwritable++;
      continue;
    }
    first ??= parts;
    const key = JSON.stringify(request);
    if (seen.has(key)) continue;
    seen.add(key);
    run.counts.positive++;
    const answer = await run.send(request, { parts, valid: true });
    if (isTransportFailure(answer)) {
      await run.report('positive', { check: 'transport-error', message: answer.error }, undefined, request, undefined);
      break;
    }
    for (const finding of checkAnswer(schemas, answer)) await run.report('positive', finding, parts, request, answer);
    if (answer.status >= 200 && answer.status < 300 && successes.length < LINK_SOURCES) successes.push({ parts, exchange: answer });
    lastRefused = answer.status === 400 ? { parts, request, answer } : undefined;
  }
  if (unwritable > 0) run.notes.push(`${unwritable} generated request(s) held a value their parameter style or media type cannot carry, and were not sent`);
  await refusedEveryTime(run, lastRefused);
  return { first, accepted: successes[0], successes };
}

/**
 * Every valid request answered 400: the server refuses what the file accepts, a failure of its
 * own (not an operation merely out of reach). Reported when the oracle, the generated router,
 * accepts the last such request, and nothing went that the server may rightly refuse (an id no
 * answer handed out, a body signed with the mock's secret).
 */
async function refusedEveryTime(run: OperationRun, last: { parts: RequestParts; request: SentRequest; answer: Exchange } | undefined): Promise<void> {
  const statuses = Object.keys(run.validStatuses);
  if (!last || statuses.length !== 1 || statuses[0] !== '400' || !refusalIsFailure(run.reachContext())) return;
  if (await run.session.oracleRefuses(last.parts)) return;
  const count = run.validStatuses['400']!;
  await run.report('positive', { check: 'valid-request-refused', message: `all ${count} valid request(s) were answered 400; the file accepts them (the generated router does not refuse this one)` }, undefined, last.request, last.answer);
}
