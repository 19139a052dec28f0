import { ApiError } from '../api-error.js';
import type { OrderViolation } from './order.js';

/**
 * The TPP asked for a page that does not exist or cannot exist (`page=abc`, `page=0`, a page
 * beyond the last). A client error: 400 `Resource.InvalidFormat` naming the page parameter.
 */
export class InvalidPageError extends ApiError {
  constructor(message: string, parameter: string) {
    super(400, 'Resource.InvalidFormat', message, { path: parameter });
    this.name = 'ApiError';
  }
}

/**
 * The LFI answer breaks the hub-to-LFI contract (section 4.7): missing `meta`, `totalPages`
 * inconsistent with `totalRecords`, a page of the wrong size, records out of order. The hub
 * cannot build a correct page from it, so it answers 500 `GenericError` rather than a wrong
 * page; `problems` lists every breach for the hub's logs.
 */
export class LfiContractError extends ApiError {
  readonly problems: readonly string[];
  readonly violations: readonly OrderViolation[];

  constructor(problems: readonly string[], violations: readonly OrderViolation[] = []) {
    super(500, 'GenericError', `The institution's answer breaks the paging contract: ${problems.join('; ')}`);
    this.name = 'ApiError';
    this.problems = problems;
    this.violations = violations;
  }
}

/** What the hub answers the TPP for an LFI error status: the TPP must not see a 500 for its own mistake. */
function hubAnswerFor(lfiStatus: number): { status: number; code: string; message: string } {
  if (lfiStatus === 400) return { status: 400, code: 'Resource.InvalidFormat', message: 'The institution refused the request as invalid' };
  if (lfiStatus === 403) return { status: 403, code: 'Consent.PermanentAccountAccessFailure', message: 'The institution refused access to the account' };
  if (lfiStatus === 404) return { status: 404, code: 'Resource.NotFound', message: 'The institution does not know this resource' };
  if (lfiStatus === 429) return { status: 429, code: 'Request.TooManyRequests', message: 'The institution is limiting requests' };
  if (lfiStatus === 502 || lfiStatus === 503 || lfiStatus === 504) {
    return { status: 500, code: 'GenericRecoverableError', message: `The institution is unavailable (status ${lfiStatus}); try again later` };
  }
  return { status: 500, code: 'GenericError', message: `The institution answered with status ${lfiStatus}` };
}

/**
 * The LFI answered with an error status; `lfiStatus` and `lfiBody` say what it sent. The TPP
 * gets the matching answer: 400, 403, 404 and 429 carry over (429 with the LFI's
 * `Retry-After`), a gateway failure (502, 503, 504) is a recoverable 500 (with the LFI's
 * `Retry-After` when it sent one), anything else a 500 `GenericError`.
 */
export class LfiResponseError extends ApiError {
  constructor(
    readonly lfiStatus: number,
    readonly lfiBody: unknown,
    retryAfterSeconds?: number,
  ) {
    const answer = hubAnswerFor(lfiStatus);
    // A throttled or unavailable LFI that says when to come back: the TPP is told the same.
    const retryAfter = answer.status === 429 ? (retryAfterSeconds ?? 1) : answer.code === 'GenericRecoverableError' ? retryAfterSeconds : undefined;
    super(answer.status, answer.code, answer.message, retryAfter !== undefined ? { retryAfter } : {});
    this.name = 'ApiError';
  }
}
