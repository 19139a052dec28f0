/**
 * Why the router refused its own handler's answer, told to the client in development only.
 * With response checks on (the default), a handler result that breaks the contract is answered
 * 500 `The server failed to produce a valid response`; the member or status and the rule go to
 * `onError`. With `explainResponseErrors` they also go in the `X-Contract-Violation` header of
 * that 500, as JSON (`{"message": ..., "issues": ["Data.Account.0.Nickname: ...", ...]}`), so
 * that a contract test (`codegen test`) can name the cause. The body stays the declared error.
 *
 * What it reveals: the rule the handler's result broke and where (a member path, a status, a
 * content type), never the result's values. Off unless asked for or NODE_ENV is `development`
 * or `test`: a production server without NODE_ENV tells nothing.
 */
import type { RouterOptions } from './options.js';

export const CONTRACT_VIOLATION_HEADER = 'x-contract-violation';

/** Issues put in the header at most, and characters of each. */
const MAX_ISSUES = 5;
const MAX_CHARS = 300;

export function explainsResponseErrors(options: Pick<RouterOptions<unknown>, 'explainResponseErrors'>): boolean {
  if (options.explainResponseErrors !== undefined) return options.explainResponseErrors;
  const mode = typeof process === 'undefined' ? undefined : process.env['NODE_ENV'];
  return mode === 'development' || mode === 'test';
}

const cut = (text: string) => (text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text);

/** The header's value: JSON in ASCII (other characters escaped), one line. */
export function violationHeader(message: string, issues: readonly string[]): string {
  const json = JSON.stringify({ message: cut(message), issues: issues.slice(0, MAX_ISSUES).map(cut) });
  return json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
