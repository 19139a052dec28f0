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
  // An own member only: `toString` is a name like any other.
  const existing = Object.hasOwn(target, name) ? target[name] : undefined;
  target[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
}

/**
 * Query parameters; a repeated name becomes an array (`a=1&a=2` → `{ a: ['1', '2'] }`). The
 * query is given parsed, or as its text without `?`, which is read as `URLSearchParams` reads it.
 *
 * @example
 * queryObject(new URLSearchParams('page=2&x=1&x=2')) // → { page: '2', x: ['1', '2'] }
 * queryObject('page=2&x=1&x=2') // → the same
 */
export function queryObject(params: URLSearchParams | string): Record<string, string | string[]> {
  if (typeof params === 'string') return plainQueryObject(params) ?? queryObject(new URLSearchParams(params));
  const out: Record<string, string | string[]> = {};
  let count = 0;
  for (const [name, value] of params) {
    if (name === '__proto__') throw new ForbiddenNameError('query', name);
    if (++count > MAX_FIELDS) break;
    addValue(out, name, value);
  }
  return out;
}

/** A character URLSearchParams would not keep as it is (it encodes the text as UTF-8 first). */
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * `queryObject` of a query's text, for the usual one: ASCII, with every `%` starting an escape
 * of valid UTF-8. There, `+` then `decodeURIComponent` gives what URLSearchParams gives, without
 * building it and iterating it (about 2 µs a request). Undefined for any other text, which
 * URLSearchParams reads: its leniency (a stray `%` kept, bad UTF-8 replaced) is its own.
 */
function plainQueryObject(text: string): Record<string, string | string[]> | undefined {
  // URLSearchParams drops one leading `?`.
  if (text.charCodeAt(0) === 63 || NOT_ASCII.test(text)) return undefined;
  const out: Record<string, string | string[]> = {};
  let count = 0;
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('&', start);
    if (end < 0) end = text.length;
    if (end > start) {
      // Searched within the pair: a search of the whole text for each pair would be quadratic.
      const pair = text.slice(start, end);
      const equals = pair.indexOf('=');
      const name = decodeFormText(equals < 0 ? pair : pair.slice(0, equals));
      const value = equals < 0 ? '' : decodeFormText(pair.slice(equals + 1));
      if (name === undefined || value === undefined) return undefined;
      if (name === '__proto__') throw new ForbiddenNameError('query', name);
      if (++count > MAX_FIELDS) break;
      addValue(out, name, value);
    }
    start = end + 1;
  }
  return out;
}

/** Query text as form encoding reads it: `+` is a space, then percent-decoded; undefined when not valid percent-encoding. */
export function decodeFormText(text: string): string | undefined {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return undefined;
  }
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
