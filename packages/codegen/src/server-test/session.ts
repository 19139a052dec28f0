/**
 * What one run of `testServer` shares across its operations: the loaded API and the oracle,
 * the connections, the values learnt from answers, the failures so far, and the helpers that
 * write requests, send them and ask the oracle about them.
 */
import type { OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
import type { LoadedApi } from '../mock/load-api.js';
import type { MockServer } from '../mock/server.js';
import { curlLine } from '../mock/curl.js';
import { serializeRequest, typedObject, typedQuery, type RequestParts } from '../mock/sample-request.js';
import { answerOf, isTransportFailure, openConnections, send, type Connections, type Exchange, type TransportFailure } from './http.js';
import { Harvest } from './harvest.js';
import type { Finding } from './response-checks.js';
import type { CaseKind, CheckName, Failure, SentRequest, ServerTestOptions } from './types.js';

export class Session {
  readonly failures: Failure[] = [];
  requests = 0;
  readonly connections: Connections = openConnections();
  /** Values of path and query parameters handed out by answers. */
  readonly harvest: Harvest;
  /** Statuses answered, by operation name: what coverage is made of. */
  readonly seen = new Map<string, Record<string, number>>();
  /** Counts what may let an operation not reached be reached now: a new value kept, a change accepted. */
  private changes = 0;
  readonly seed: number;
  /** Dates in requests are made near the start of today (UTC). */
  readonly now = Math.floor(Date.now() / 86_400_000) * 86_400_000;
  readonly components: ReadonlyMap<string, SchemaNode>;
  private readonly timeout: number;

  constructor(
    readonly loaded: LoadedApi,
    private readonly oracle: MockServer,
    readonly baseUrl: string,
    readonly options: ServerTestOptions,
    private readonly started: number,
  ) {
    this.harvest = new Harvest(loaded.api.operations);
    this.timeout = options.requestTimeout ?? 10_000;
    this.seed = options.seed ?? 1;
    this.components = new Map(loaded.api.schemas.map((s) => [s.name, s.schema]));
  }

  outOfTime(): boolean {
    return this.options.maxTime !== undefined && performance.now() - this.started > this.options.maxTime;
  }

  /** The value `--set` gives a parameter, typed by its schema. */
  given(param: ParameterIR): unknown {
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

  /** The request on the wire, to the server under test or to the oracle. */
  sentRequest(parts: RequestParts, toOracle = false): SentRequest {
    // The oracle verifies signed bodies with the mock's secret; the server with the caller's key.
    const sign = toOracle ? undefined : this.options.signRequest;
    const wire = serializeRequest(this.loaded, parts, sign ? { sign } : {});
    return { method: wire.method, url: `${toOracle ? this.oracle.url : this.baseUrl}${wire.target}`, headers: wire.headers, ...(wire.body !== undefined ? { body: wire.body } : {}) };
  }

  /** The request on the wire, or undefined where a value cannot be written in its style or media type. */
  writable(parts: RequestParts, toOracle = false): SentRequest | undefined {
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

  /** Sends a request to the server under test (counted). */
  exchange(request: SentRequest): Promise<Exchange | TransportFailure> {
    this.requests++;
    return send(request, { timeout: this.timeout, connections: this.connections });
  }

  /**
   * Takes note of an answer of `op`: its status for coverage and, from a 2xx, the values it
   * hands out.
   */
  answered(op: OperationIR, answer: Exchange, parts?: RequestParts): void {
    const tally = this.seen.get(op.name) ?? {};
    tally[answer.status] = (tally[answer.status] ?? 0) + 1;
    this.seen.set(op.name, tally);
    if (answer.status >= 200 && answer.status < 300) {
      if (!['get', 'head', 'options', 'query'].includes(op.method)) this.changes++;
      this.harvest.collect(op, { url: answer.request.url, status: answer.status, headers: answer.headers, body: parseJson(answer) }, parts);
    }
  }

  /**
   * The request as the server will read it. The caller's signer sets claims of its own (`iss`,
   * `iat`, `nbf`, `exp`) over the generated ones, so a signed body is judged by the claims it
   * will carry, not by those it was made with.
   */
  private asSigned(parts: RequestParts): RequestParts {
    const sign = this.options.signRequest;
    const body = parts.body;
    if (!sign || !body || !('value' in body) || this.loaded.runtime.bodyKind(body.contentType) !== 'jwt') return parts;
    const claims = body.value !== null && typeof body.value === 'object' ? (body.value as Record<string, unknown>) : {};
    const payload = sign(claims).split('.')[1] ?? '';
    return { ...parts, body: { contentType: body.contentType, value: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown } };
  }

  /** What the oracle (the generated router) answers to a request, undefined when it cannot be written. */
  async oracleAnswer(parts: RequestParts): Promise<Exchange | TransportFailure | undefined> {
    const request = this.writable(this.asSigned(parts), true);
    return request ? send(request, { timeout: this.timeout, connections: this.connections }) : undefined;
  }

  /** Whether the oracle refuses the request: it is wrong by the file. */
  async oracleRefuses(parts: RequestParts): Promise<boolean> {
    const answer = await this.oracleAnswer(parts);
    return answer !== undefined && !isTransportFailure(answer) && answer.status >= 400 && answer.status < 500;
  }

  /** Whether the request is valid by the generated validators (parameters and body). */
  valid(op: OperationIR, parts: RequestParts): boolean {
    const schemas = this.loaded.validators.operations[op.name]!.request;
    if (!schemas.path.safeParse(typedObject('path', parts.path)).success) return false;
    if (!schemas.query.safeParse(typedQuery(op, parts.query)).success) return false;
    if (!schemas.headers.safeParse(typedObject('header', parts.header)).success) return false;
    if (!schemas.cookies.safeParse(typedObject('cookie', parts.cookie)).success) return false;
    const body = parts.body;
    if (!body) return !schemas.body?.required;
    if (!('value' in body)) return false;
    const check = schemas.body?.content[body.contentType];
    return check ? check.safeParse(body.value).success : false;
  }

  /** `Accept` (the JSON types a success answer offers: the checks read JSON best) and the user's headers. */
  extraHeaders(op: OperationIR): Record<string, string> {
    const headers: Record<string, string> = {};
    const json = [...new Set(op.responses.filter((r) => r.status.startsWith('2')).flatMap((r) => r.content.map((m) => m.contentType)).filter((t) => this.loaded.runtime.bodyKind(t) === 'json'))];
    if (json.length > 0) headers.accept = json.join(', ');
    for (const [name, value] of Object.entries(this.options.headers ?? {})) headers[name.toLowerCase()] = value;
    return headers;
  }

  /** A mark to tell later whether anything changed since (`changedSince`). */
  mark(): number {
    return this.changes + this.harvest.kept;
  }

  changedSince(mark: number): boolean {
    return this.mark() !== mark;
  }

  /** Removes the failures of an operation by a check; how many there were. */
  forget(operation: string, check: CheckName): number {
    const before = this.failures.length;
    const kept = this.failures.filter((f) => f.operation !== operation || f.check !== check);
    this.failures.splice(0, this.failures.length, ...kept);
    return before - kept.length;
  }

  record(op: OperationIR, kind: CaseKind, finding: Finding, request: SentRequest, exchange: Exchange | undefined, shrinkSteps: number, mutation?: string): void {
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
}

export function parseJson(exchange: Exchange): unknown {
  try {
    return JSON.parse(exchange.text);
  } catch {
    return undefined;
  }
}
