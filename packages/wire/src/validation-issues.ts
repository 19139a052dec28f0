/**
 * Turns zod issues into error items: a prescribed code per location and a `Path` naming
 * the field. Body fields are JSON paths (`$.Data.Permissions[0]`); parameters are named as
 * the spec names them (`AccountId`, `fromBookingDateTime`, `x-fapi-interaction-id`).
 */
import type { ErrorItem } from './error-item.js';
import { FAILURES } from './error-codes.js';

/** Where a value came from. */
export type Location = 'path' | 'query' | 'header' | 'cookie' | 'body';

/** The part of a zod issue this module reads (zod 4 `$ZodIssue`). */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

const LOCATION_LABEL: Record<Location, string> = {
  path: 'path parameter',
  query: 'query parameter',
  header: 'header',
  cookie: 'cookie',
  body: 'body',
};

/**
 * `$.a.b[0]["odd key"]`: the JSON path of a body member.
 *
 * @example
 * jsonPath(['Data', 'Permissions', 0]) // → '$.Data.Permissions[0]'
 */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (typeof segment === 'string' && /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(segment)) out += `.${segment}`;
    else out += `[${JSON.stringify(String(segment))}]`;
  }
  return out;
}

/** `name`, `name[1]`, `name.member` for a parameter and what is inside it. */
function parameterPath(path: readonly PropertyKey[]): string {
  const [name, ...rest] = path;
  if (name === undefined) return '';
  return String(name) + jsonPath(rest).slice(1);
}

/**
 * The error items of a failed validation at one location.
 *
 * @example
 * issuesToErrors('path', [{ path: ['AccountId'], message: 'Too big' }])
 * // → [{ code: 'Resource.InvalidFormat', message: 'path parameter AccountId: Too big', path: 'AccountId' }]
 */
export function issuesToErrors(location: Location, issues: readonly IssueLike[]): ErrorItem[] {
  const code = location === 'body' ? FAILURES.invalidBody.code : FAILURES.invalidParameter.code;
  return issues.map((issue) => {
    const path = location === 'body' ? jsonPath(issue.path) : parameterPath(issue.path);
    const where = location === 'body' ? (path === '$' ? 'body' : `body ${path}`) : `${LOCATION_LABEL[location]} ${path}`.trim();
    return { code, message: `${where}: ${issue.message}`, ...(path ? { path } : {}) };
  });
}

/**
 * The first 20 issues as `path: message` lines (`(root)` for the value itself): how a body
 * the server built that breaks its contract is explained to `onError`.
 *
 * @example
 * issueLines([{ path: ['Data', 0], message: 'Required' }]) // → ['Data.0: Required']
 */
export function issueLines(issues: readonly IssueLike[]): string[] {
  return issues.slice(0, 20).map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`);
}
