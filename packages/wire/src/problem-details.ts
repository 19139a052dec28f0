/**
 * RFC 9457 problem details: the error body a publisher sends where the spec declares problem
 * details, and where it declares nothing at all for a status; and the rule both ends use to
 * tell a problem-details contract (problem-read.ts reads one on the receiving end).
 */
import type { ErrorItem } from './error-item.js';
import { clampText, MAX_ITEMS, MAX_TEXT } from './error-envelope.js';
import { memberNames } from './object-members.js';
import { statusTitle } from './status-titles.js';

/** The media type of RFC 9457 problem details. */
export const PROBLEM_JSON = 'application/problem+json';

/** The members RFC 9457 §3.1 defines. */
export const PROBLEM_MEMBERS: readonly string[] = ['type', 'title', 'status', 'detail', 'instance'];

/** One field-level problem, in the `errors` extension member. */
export interface ProblemItem {
  readonly detail: string;
  /** JSON Pointer (RFC 6901) into the request body. */
  readonly pointer?: string;
  /** Name of the faulty path, query, header or cookie parameter. */
  readonly parameter?: string;
}

/** Problem details as a publisher builds them (`problemDetails`): every standard member but `instance`. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly instance?: string;
  readonly errors?: readonly ProblemItem[];
}

/** True for `application/problem+json` (any parameters, any case); false for no content type. */
export function isProblemMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';', 1)[0]!.trim().toLowerCase() === PROBLEM_JSON;
}

/**
 * True when an object schema declares at least two problem-details members, one of them
 * `title` or `detail`: such a schema is RFC 9457 whatever its media type says. The publisher
 * answers problem details under such a declared type and the receiver reads them from it, by
 * this one rule.
 */
export function isProblemSchema(schema: unknown): boolean {
  const known = memberNames(schema).filter((name) => PROBLEM_MEMBERS.includes(name));
  return known.length >= 2 && (known.includes('title') || known.includes('detail'));
}

/**
 * The text of a `["..."]` step. Handlers write `ApiError` paths by hand, so one that is not
 * JSON text (`["a\q"]`) is kept as written: an error answer must never fail on its own path.
 */
function quotedStep(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

/** `$.Data.Items[2]` or `$["odd key"]` (how the router names body fields) → `/Data/Items/2` (RFC 6901). */
export function jsonPointer(path: string): string {
  const steps: string[] = [];
  for (const [, dotted, index, quoted] of path.matchAll(/\.([^.[]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g)) {
    steps.push(dotted ?? index ?? quotedStep(quoted!));
  }
  return steps.map((step) => `/${step.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * True for a body path (`$`, `$.Data`, `$[0]`), false for a parameter name, which may start
 * with `$` too (OData's `$top`, `$filter`).
 */
function isBodyPath(path: string): boolean {
  return /^\$(?:$|[.[])/.test(path);
}

/** Text cut to `MAX_TEXT` characters; unlike `clampText`, `''` (the whole body's pointer) stays `''`. */
function cut(text: string): string {
  return text.length <= MAX_TEXT ? text : clampText(text);
}

function problemItem(item: ErrorItem): ProblemItem {
  if (item.path === undefined || item.path === '') return { detail: item.message };
  // Cut as the envelope cuts `Path`: a long member name must not swell the answer.
  return isBodyPath(item.path) ? { detail: item.message, pointer: cut(jsonPointer(item.path)) } : { detail: item.message, parameter: cut(item.path) };
}

/**
 * The problem details of an error: `about:blank` (the status says it all, RFC 9457 §4.2.1),
 * the status phrase as title, the messages as detail and, when `withItems`, each field's
 * problem in `errors`.
 *
 * @example
 * problemDetails(404, [{ code: 'Resource.NotFound', message: 'No resource at this path' }], true)
 * // → { type: 'about:blank', title: 'Not Found', status: 404, detail: 'No resource at this path' }
 */
export function problemDetails(status: number, all: readonly ErrorItem[], withItems: boolean): ProblemDetails {
  // As in the envelope: at most 20 problems, each message and path cut to 500 characters.
  const items = all.slice(0, MAX_ITEMS).map((i) => ({ ...i, message: clampText(i.message) }));
  // A message that already names its field (`query parameter limit: ...`) is not prefixed again.
  const detail = items.map((i) => (i.path && !i.message.includes(i.path) ? `${clampText(i.path)}: ${i.message}` : i.message)).join('; ') || statusTitle(status);
  const fields = items.filter((i) => i.path !== undefined && i.path !== '');
  return {
    type: 'about:blank',
    title: statusTitle(status),
    status,
    detail,
    ...(withItems && fields.length > 0 ? { errors: items.map(problemItem) } : {}),
  };
}
