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

/** The LFI answered with an error status; `lfiStatus` and `lfiBody` say what it sent. */
export class LfiResponseError extends ApiError {
  constructor(
    readonly lfiStatus: number,
    readonly lfiBody: unknown,
  ) {
    super(500, 'GenericError', `The institution answered with status ${lfiStatus}`);
    this.name = 'ApiError';
  }
}
