/**
 * The request's query, headers and cookies as plain objects of text, the input the
 * validators decode (numbers, booleans, arrays) and check: how every parameter the operation
 * does not list as styled (parameter-parse.ts) is read.
 */

/**
 * Request headers by lower-case name, a repeated one as a list: the shape of Node's
 * `IncomingHttpHeaders`, written structurally so that nothing here needs Node's types.
 */
export type HeaderMap = { readonly [name: string]: string | readonly string[] | undefined };

/** A name that could replace a prototype if some later code copied the object naively. */
export class ForbiddenNameError extends Error {
  constructor(
    readonly location: 'query' | 'cookie',
    readonly field: string,
  ) {
    super(`${location} name "${field}" is not allowed`);
    this.name = 'ForbiddenNameError';
  }
}

/** At most this many query parameters or cookies are looked at; more is not a real client. */
const MAX_FIELDS = 256;

function addValue(target: Record<string, string | string[]>, name: string, value: string): void {
  const existing = target[name];
  target[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
}

/**
 * Query parameters; a repeated name becomes an array (`a=1&a=2` → `{ a: ['1', '2'] }`).
 *
 * @example
 * queryObject(new URLSearchParams('page=2&x=1&x=2')) // → { page: '2', x: ['1', '2'] }
 */
export function queryObject(params: URLSearchParams): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  let count = 0;
  for (const [name, value] of params) {
    if (name === '__proto__') throw new ForbiddenNameError('query', name);
    if (++count > MAX_FIELDS) break;
    addValue(out, name, value);
  }
  return { ...out };
}

/** Headers with lower-case names; repeated headers arrive joined by Node, except `set-cookie`. */
export function headerObject(headers: HeaderMap): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value as string | string[];
  return out;
}

/**
 * The `name=value` pairs of a `Cookie` header as sent, in order: names and values trimmed,
 * a value's surrounding quotes removed, nothing percent-decoded; a part without a name is
 * skipped.
 *
 * @example
 * cookieParts('a=1; b="x%20y"') // → [['a', '1'], ['b', 'x%20y']]
 */
export function cookieParts(header: string): Array<[name: string, rawValue: string]> {
  const out: Array<[name: string, rawValue: string]> = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    out.push([part.slice(0, eq).trim(), value]);
  }
  return out;
}

/**
 * Cookies of the `Cookie` header, values percent-decoded when they decode.
 *
 * @example
 * cookieObject('a=1; b=x%20y') // → { a: '1', b: 'x y' }
 */
export function cookieObject(header: string | undefined): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (!header) return {};
  let count = 0;
  for (const [name, raw] of cookieParts(header)) {
    if (name === '__proto__') throw new ForbiddenNameError('cookie', name);
    if (++count > MAX_FIELDS) break;
    let value = raw;
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not percent-encoding: keep the text as sent.
    }
    if (!(name in out)) out[name] = value;
  }
  return { ...out };
}
