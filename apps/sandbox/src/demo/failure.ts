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
    return oneLine(`demo: ${error.message}${after}${interaction}`);
  }
  if (error instanceof ClientError) return oneLine(`demo: ${error.message}`);
  return undefined;
}

/** Line breaks and other control characters (C0, DEL, C1, the Unicode line and paragraph separators). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * The text with its control characters written as escapes: the message comes from the hub,
 * and a line break or terminal escape in it would split the line or colour the terminal.
 */
function oneLine(text: string): string {
  return text.replace(CONTROL, (char) => SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
