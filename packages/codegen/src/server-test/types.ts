/**
 * What `codegen test` takes and what it reports: the options of a run, each failure with
 * what a person needs to act on it, and the summary.
 */
import type { LoadOptions } from '../mock/load-api.js';

/** The checks a run makes; a failure names one. */
export const CHECKS = {
  'server-error': 'the server answered 5xx',
  'undeclared-status': 'the status is not declared for the operation (nor a range or default covering it)',
  'undeclared-content-type': 'the Content-Type is not declared for the status',
  'response-body': 'the body does not validate against the declared schema (response direction)',
  'response-headers': 'a declared response header is missing or invalid',
  'invalid-request-accepted': 'a request wrong in exactly one place was answered 2xx/3xx',
  'error-contract': 'a refusal is not in the declared error contract (status, content type or body)',
  'security-not-enforced': 'a request without valid credentials was not refused with 4xx',
  'link-target-unavailable': "an OpenAPI link's target answered 404/410 for values its source gave",
  'valid-request-refused': 'every valid request was refused with 400, though the file (and the generated router) accepts them',
  paging: 'following the pages broke the paging contract',
  'transport-error': 'the request got no HTTP answer (refused, reset, timed out)',
} as const;

export type CheckName = keyof typeof CHECKS;

/** Which kind of request found the failure. */
export type CaseKind = 'positive' | 'negative' | 'sequence';

/** A request as sent. */
export interface SentRequest {
  readonly method: string;
  readonly url: string;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** What came back, as far as a report shows it. */
export interface ReceivedAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The first characters of the body (at most 1,000). */
  readonly bodyExcerpt: string;
}

export interface Failure {
  /** The operation's name in generated code (its operationId when that is an identifier). */
  readonly operation: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly check: CheckName;
  readonly case: CaseKind;
  /** What was wrong, in a sentence. */
  readonly message: string;
  /** Where in the answer (a JSON pointer into the body, `/headers/<name>`), when known. */
  readonly pointer?: string;
  /** The rule broken at `pointer`, as the validator states it. */
  readonly rule?: string;
  /** For a negative case: the one place the request was made wrong, and how. */
  readonly mutation?: string;
  /** The smallest request found that still fails the same check. */
  readonly request: SentRequest;
  /** A POSIX shell line that sends `request`. */
  readonly curl: string;
  readonly response?: ReceivedAnswer;
  /** Requests tried while shrinking. */
  readonly shrinkSteps: number;
  /** The run's seed: with the same server and options, the same requests. */
  readonly seed: number;
}

export interface OperationSummary {
  readonly operation: string;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly requests: number;
  readonly positive: number;
  readonly negative: number;
  readonly sequences: number;
  readonly failures: number;
  /** Statuses seen, with counts. */
  readonly statuses: Readonly<Record<string, number>>;
  /** Why some checks could not run (no credentials, a cap reached...). */
  readonly notes: readonly string[];
  readonly durationMs: number;
  /**
   * Whether a valid request got the success answer the operation declares (a 2xx; below 400
   * where it declares no 2xx): only then were its success answers checked.
   */
  readonly reached: boolean;
  /** When not reached: the statuses every valid request got, and what to do about it. */
  readonly why?: string;
  /**
   * The declared statuses (`200`, `4XX`, `default`) answers of this operation had, and those
   * none had, over every request of the run (a link's target included).
   */
  readonly coverage: { readonly seen: readonly string[]; readonly never: readonly string[] };
}

export interface ServerTestReport {
  readonly spec: string;
  readonly baseUrl: string;
  readonly seed: number;
  readonly failures: readonly Failure[];
  readonly operations: readonly OperationSummary[];
  readonly requests: number;
  readonly durationMs: number;
  /** The time budget ran out before every operation was tested. */
  readonly timedOut: boolean;
}

/** A line of progress: after each operation. */
export interface ProgressEvent {
  readonly index: number;
  readonly total: number;
  readonly summary: OperationSummary;
}

export interface ServerTestOptions extends LoadOptions {
  /** The URL the file's paths are appended to (include the server path the file declares). */
  baseUrl: string;
  /** Operation names or operationIds to test (default: all). */
  operations?: readonly string[];
  /** Valid requests per operation (default 20). Each one-place mutation is sent once, at most 100 per operation. */
  maxExamples?: number;
  /** Decides every generated value (default 1). */
  seed?: number;
  /** Sent with every request (over generated headers and credentials). */
  headers?: Readonly<Record<string, string>>;
  /**
   * Credentials by security scheme name (`*` for every scheme): a token for oauth2,
   * openIdConnect and http bearer (or another http scheme), `user:password` for http basic,
   * the key for apiKey.
   */
  auth?: Readonly<Record<string, string>>;
  /**
   * Parameter values to send in every request instead of generated ones, by name or
   * `location.name` (`path.ConsentId`): an id the server knows, a tenant header. Text is
   * read as JSON for parameters whose schema is not a string.
   */
  values?: Readonly<Record<string, string>>;
  /**
   * Signs the claims of `application/jwt` request bodies (see `requestSigner`); by default they
   * are signed with the mock's published HS256 secret, which a server that verifies signatures
   * refuses.
   */
  signRequest?: (claims: Record<string, unknown>) => string;
  /** Milliseconds before a request is abandoned (default 10,000). */
  requestTimeout?: number;
  /** Milliseconds for the whole run; operations not reached are reported as not tested. */
  maxTime?: number;
  /** Which kinds of cases to run (default: all three). */
  cases?: { positive?: boolean; negative?: boolean; sequences?: boolean };
  /** Told after each operation. */
  onProgress?: (event: ProgressEvent) => void;
}
