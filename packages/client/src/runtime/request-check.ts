/**
 * A request body checked against its declared schema before it is sent: what does not fit is a
 * `RequestValidationError` naming each member and rule, and nothing reaches the server.
 */
import { formatIssues } from './decode.js';
import { RequestValidationError } from './errors.js';
import type { SchemaLike } from './types.js';
import { checkValue } from './validation.js';

/** Throws `RequestValidationError` unless `value` fits `schema`; `place` prefixes each issue (`item 3: `). */
export function assertRequestValue(schema: SchemaLike, value: unknown, operationId: string, place = ''): void {
  const checked = checkValue(schema, value);
  if (!checked.ok) throw new RequestValidationError(operationId, 'the request body', formatIssues(checked.issues).map((issue) => `${place}${issue}`));
}

/**
 * `assertRequestValue` for a value written as JSON `text` (undefined: not JSON text). The server
 * checks what the text parses to, which can differ from the value (a `Date` or another `toJSON`
 * becomes a string, an `undefined` member is left out), so a value that does not fit is judged
 * by its text.
 */
export function assertRequestJson(schema: SchemaLike, value: unknown, text: string | undefined, operationId: string, place = ''): void {
  if (checkValue(schema, value).ok) return;
  assertRequestValue(schema, text === undefined ? value : (JSON.parse(text) as unknown), operationId, place);
}
