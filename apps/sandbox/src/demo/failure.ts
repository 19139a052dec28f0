/**
 * How `pnpm demo` reports a read that failed: one line naming the operation, the status and
 * what the hub said, not a stack trace. Anything that is not the client's error (a bug of the
 * demo itself) keeps its stack.
 */
import { ApiError, ClientError } from '@bank-data-sharing/client/runtime';

/** The line for a failure of the client, or undefined for any other error. */
export function demoFailureLine(error: unknown): string | undefined {
  if (error instanceof ApiError) {
    const after = error.retryAfter === undefined ? '' : `; try again in ${error.retryAfter} s`;
    const interaction = error.interactionId === undefined ? '' : ` (x-fapi-interaction-id ${error.interactionId})`;
    // The message is "<operation> failed with HTTP <status>: <code> <message>".
    return `demo: ${error.message}${after}${interaction}`;
  }
  if (error instanceof ClientError) return `demo: ${error.message}`;
  return undefined;
}
