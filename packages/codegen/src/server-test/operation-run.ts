/**
 * One operation under test: its counters, credentials and headers, and how a finding becomes
 * a failure (once per check, after shrinking its request). `testOperation` runs its cases in
 * order: valid requests, requests wrong in one place, then links and paging.
 */
import type { OperationIR } from '../ir/types.js';
import { credentialsFor, type RequestCredentials } from '../mock/credentials.js';
import type { OperationSchemas } from '../mock/loaded-modules.js';
import type { RequestParts } from '../mock/sample-request.js';
import { credentialsFromAuth } from './credentials.js';
import { isTransportFailure, type Exchange, type TransportFailure } from './http.js';
import type { Mutation } from './negative.js';
import { negativeCases } from './negative-cases.js';
import { positiveCases } from './positive-cases.js';
import { coverageOf, reachOf, type ReachContext } from './reach.js';
import { checkAnswer, checkRefusal, type Finding } from './response-checks.js';
import { linkSequences, pagingSequence } from './sequences.js';
import type { Session } from './session.js';
import { shrinkRequest } from './shrink.js';
import type { CaseKind, OperationSummary, SentRequest } from './types.js';

/** A request the server answered 2xx, with that answer. */
export interface Accepted {
  readonly parts: RequestParts;
  readonly exchange: Exchange;
}

export class OperationRun {
  readonly schemas: OperationSchemas;
  readonly counts = { requests: 0, positive: 0, negative: 0, sequences: 0 };
  readonly statuses: Record<string, number> = {};
  /** Statuses of the valid requests alone: whether the operation was reached. */
  readonly validStatuses: Record<string, number> = {};
  readonly notes: string[] = [];
  readonly credentials: RequestCredentials;
  readonly extraHeaders: Record<string, string>;
  readonly maxExamples: number;
  private readonly reported = new Set<string>();
  private readonly failuresBefore: number;
  private readonly started = performance.now();

  constructor(
    readonly session: Session,
    readonly op: OperationIR,
  ) {
    const { loaded, options } = session;
    this.schemas = loaded.validators.operations[op.name]!;
    this.maxExamples = Math.max(1, options.maxExamples ?? 20);
    this.failuresBefore = session.failures.length;
    this.extraHeaders = session.extraHeaders(op);
    let credentials = credentialsFor(op.security, loaded.api.securitySchemes);
    if (options.auth && Object.keys(options.auth).length > 0) {
      const chosen = credentialsFromAuth(op.security, loaded.api.securitySchemes, options.auth);
      if (chosen.missing.length > 0) this.notes.push(`no --auth for ${chosen.missing.join(', ')}: the mock's placeholder credentials were sent`);
      else credentials = chosen.credentials;
    }
    this.credentials = credentials;
  }

  /**
   * Sends a request of this operation's cases, counting it and its status. `from` names the
   * operation the request is of when it is another's (a link's target) and the parts it was
   * made from, for the values its answer hands out.
   */
  async send(request: SentRequest, from: { op?: OperationIR; parts?: RequestParts; valid?: boolean } = {}): Promise<Exchange | TransportFailure> {
    this.counts.requests++;
    const answer = await this.session.exchange(request);
    if (isTransportFailure(answer)) return answer;
    this.statuses[answer.status] = (this.statuses[answer.status] ?? 0) + 1;
    if (from.valid) this.validStatuses[answer.status] = (this.validStatuses[answer.status] ?? 0) + 1;
    this.session.answered(from.op ?? this.op, answer, from.parts);
    return answer;
  }

  /**
   * Records a finding once per operation and check. A positive or negative case is shrunk
   * first: the smallest request of its kind (valid, or wrong in its one place) that still
   * fails the same check is the one reported.
   */
  async report(kind: CaseKind, finding: Finding, parts: RequestParts | undefined, request: SentRequest, exchange: Exchange | undefined, mutation?: Mutation): Promise<void> {
    if (this.reported.has(finding.check)) return;
    this.reported.add(finding.check);
    const { session, op, schemas } = this;
    // Tried a second time: a check already reported in the first is not reported again.
    if (session.failures.some((f) => f.operation === op.name && f.check === finding.check)) return;
    let shrunk = { parts, steps: 0 };
    if (parts && kind !== 'sequence') {
      const still = async (candidate: RequestParts) => {
        if (mutation ? mutation.kind === 'invalid' && !(await session.oracleRefuses(candidate)) : !session.valid(op, candidate)) return false;
        const smaller = session.writable(candidate);
        if (!smaller) return false;
        const answer = await session.exchange(smaller);
        if (isTransportFailure(answer)) return false;
        const findings = mutation ? checkRefusal(schemas, answer, mutation.kind === 'credentials' ? 'security-not-enforced' : 'invalid-request-accepted') : checkAnswer(schemas, answer);
        const same = findings.find((f) => f.check === finding.check);
        if (!same) return false;
        exchange = answer;
        finding = same;
        return true;
      };
      shrunk = await shrinkRequest(op, parts, still);
    }
    session.record(op, kind, finding, shrunk.parts ? session.sentRequest(shrunk.parts) : request, exchange, shrunk.steps, mutation?.description);
  }

  /** What `why` can tell of this operation's valid requests. */
  reachContext(): ReachContext {
    const { op, session } = this;
    const needed = op.parameters.filter((p) => p.in === 'path' || (p.in === 'query' && p.required));
    const idParameters = needed.filter((p) => session.given(p) === undefined).map((p) => p.name);
    const signed = op.requestBody?.content.some((m) => session.loaded.runtime.bodyKind(m.contentType) === 'jwt') ?? false;
    return {
      idParameters,
      givenParameters: needed.filter((p) => session.given(p) !== undefined).map((p) => p.name),
      unknownIds: idParameters.filter((name) => !session.harvest.has(name)),
      mockSigned: signed && !session.options.signRequest,
      credentialsGiven: Object.keys(session.options.auth ?? {}).length > 0,
    };
  }

  summary(): OperationSummary {
    const { op } = this;
    const informational = op.responses.length > 0 && op.responses.every((r) => r.status.startsWith('1'));
    const reach = informational ? { reached: false, why: 'declares only informational (1xx) answers: not tested' } : reachOf(op, this.validStatuses, this.counts.positive, this.reachContext());
    return {
      operation: op.name,
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      ...this.counts,
      failures: this.session.failures.length - this.failuresBefore,
      statuses: this.statuses,
      notes: this.notes,
      durationMs: performance.now() - this.started,
      ...reach,
      coverage: coverageOf(op, this.session.seen.get(op.name) ?? {}),
    };
  }
}

/** Tests one operation: valid requests, requests wrong in one place, links and paging. */
export async function testOperation(session: Session, op: OperationIR): Promise<OperationSummary> {
  const run = new OperationRun(session, op);
  if (op.responses.length > 0 && op.responses.every((r) => r.status.startsWith('1'))) {
    // HTTP has no final 1xx answer: a server cannot keep such a contract, nor a test check it.
    run.notes.push('declares only informational (1xx) answers, which HTTP cannot give as final answers: not tested');
    return run.summary();
  }
  const cases = { positive: true, negative: true, sequences: true, ...session.options.cases };
  // Without positive cases, one valid request still gives the others their base.
  const positive = await positiveCases(run, cases.positive ? run.maxExamples : 1);
  const base = positive.accepted?.parts ?? positive.first;
  if (cases.negative && base && !session.outOfTime()) await negativeCases(run, base);
  if (cases.sequences) {
    await linkSequences(run, positive.successes);
    if (positive.accepted && !session.outOfTime()) await pagingSequence(run, positive.accepted);
  }
  return run.summary();
}
