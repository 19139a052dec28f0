/**
 * Media types: parsing, `Accept` negotiation (RFC 9110 §12.5.1) and matching a request's
 * `Content-Type` against the media types an operation accepts. This is the strict reading a
 * receiver of requests does (the router, mock handlers); media-types.ts has the lenient
 * essence matching a receiver of responses (the client) does.
 */

export interface MediaType {
  /** Lower-case. */
  readonly type: string;
  /** Lower-case. */
  readonly subtype: string;
  /** Parameter names lower-case; `charset` values lower-case too. */
  readonly params: ReadonlyMap<string, string>;
}

interface MediaRange extends MediaType {
  readonly q: number;
}

/** An HTTP token (RFC 9110 section 5.6.2): a media type's type and subtype, a header field's name. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses `type/subtype; name=value` (quoted values allowed). Undefined when malformed.
 *
 * @example
 * parseMediaType('application/json; charset=UTF-8')
 * // → { type: 'application', subtype: 'json', params: Map { 'charset' => 'utf-8' } }
 */
export function parseMediaType(text: string): MediaType | undefined {
  const [essence = '', ...rawParams] = text.split(';');
  const slash = essence.indexOf('/');
  if (slash < 0) return undefined;
  const type = essence.slice(0, slash).trim().toLowerCase();
  const subtype = essence.slice(slash + 1).trim().toLowerCase();
  if (!HTTP_TOKEN.test(type) || !HTTP_TOKEN.test(subtype)) return undefined;
  const params = new Map<string, string>();
  for (const raw of rawParams) {
    const eq = raw.indexOf('=');
    if (eq < 0) continue;
    const name = raw.slice(0, eq).trim().toLowerCase();
    let value = raw.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    params.set(name, name === 'charset' ? value.toLowerCase() : value);
  }
  return { type, subtype, params };
}

/**
 * A small bounded memo of pure functions of a header or media-type text. The same few
 * values come with nearly every request (`application/json`, the spec's media types), so
 * parsing them once saves work per request; a client sending ever new values only refills
 * the table, which is emptied whenever it holds `MEMO_LIMIT` entries.
 */
const MEMO_LIMIT = 256;

function memo<T>(compute: (text: string) => T): (text: string) => T {
  const table = new Map<string, T>();
  return (text) => {
    const known = table.get(text);
    if (known !== undefined || table.has(text)) return known as T;
    const value = compute(text);
    if (table.size >= MEMO_LIMIT) table.clear();
    // Only short texts are kept: a long header is not one of the common few.
    if (text.length <= 512) table.set(text, value);
    return value;
  };
}

/** `parseMediaType`, memoised: the objects are shared, never to be changed. */
export const parsedMediaType = memo(parseMediaType);

/** Splits a header list on commas that are not inside quotes. */
function splitList(header: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of header) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out.map((s) => s.trim()).filter((s) => s !== '');
}

/** The ranges of an `Accept` header, memoised (shared, never to be changed). */
const acceptRanges = memo(parseAccept);

function parseAccept(header: string): readonly MediaRange[] {
  const ranges: MediaRange[] = [];
  // A header with thousands of ranges is not a real client: look at the first 64.
  for (const part of splitList(header).slice(0, 64)) {
    const media = parseMediaType(part);
    if (!media) continue;
    const params = new Map(media.params);
    const qText = params.get('q');
    params.delete('q');
    const q = qText === undefined ? 1 : Number(qText);
    ranges.push({ ...media, params, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 });
  }
  return ranges;
}

/** How well `range` matches `offer`: -1 for no match, higher is more specific. */
function specificity(range: MediaRange, offer: MediaType): number {
  if (range.type === '*' && range.subtype === '*') return 1;
  if (range.type !== offer.type) return -1;
  if (range.subtype === '*') return 2;
  if (range.subtype !== offer.subtype) return -1;
  for (const [name, value] of range.params) if (offer.params.get(name) !== value) return -1;
  // `application/json` prefers the offer written exactly so over `...; charset=utf-8`.
  return range.params.size === offer.params.size ? 4 : 3;
}

/**
 * The offered media type the client prefers, or undefined when `Accept` allows none.
 * No `Accept` (or an unparsable one) accepts anything: the first offer wins. Ties keep the
 * spec's order.
 *
 * @example
 * negotiate('application/jwt', ['application/json', 'application/jwt']) // → 'application/jwt'
 * negotiate('text/html', ['application/json']) // → undefined
 */
export function negotiate(accept: string | undefined, offers: readonly string[]): string | undefined {
  if (offers.length === 0) return undefined;
  const ranges = accept === undefined || accept.trim() === '' ? [] : acceptRanges(accept);
  if (ranges.length === 0) return offers[0];
  let best: { offer: string; q: number; specificity: number } | undefined;
  for (const offer of offers) {
    const media = parsedMediaType(offer);
    if (!media) continue;
    let match: { q: number; specificity: number } | undefined;
    for (const range of ranges) {
      const s = specificity(range, media);
      if (s > (match?.specificity ?? -1)) match = { q: range.q, specificity: s };
    }
    if (!match || match.q <= 0) continue;
    if (!best || match.q > best.q || (match.q === best.q && match.specificity > best.specificity)) best = { offer, ...match };
  }
  return best?.offer;
}

/**
 * The spec media type a request `Content-Type` matches: same type and subtype (or a
 * wildcard in the spec), and every parameter the spec writes (e.g. `charset=utf-8`).
 * A spec entry with parameters is preferred over a bare one. (The server runtime exports it
 * as `matchContentType`.)
 *
 * @example
 * acceptedContentType('application/json;charset=UTF-8', ['application/json; charset=utf-8', 'application/json'])
 * // → 'application/json; charset=utf-8'
 */
export function acceptedContentType(contentType: string, accepted: readonly string[]): string | undefined {
  const request = parsedMediaType(contentType);
  if (!request) return undefined;
  let best: { entry: string; score: number } | undefined;
  for (const entry of accepted) {
    const media = parsedMediaType(entry);
    if (!media) continue;
    let score: number;
    if (media.type === '*' && media.subtype === '*') score = 1;
    else if (media.type !== request.type) continue;
    else if (media.subtype === '*') score = 2;
    else if (media.subtype !== request.subtype) continue;
    else score = 3;
    let paramsMatch = true;
    for (const [name, value] of media.params) if (request.params.get(name) !== value) paramsMatch = false;
    if (!paramsMatch) continue;
    score += media.params.size > 0 ? 1 : 0;
    if (!best || score > best.score) best = { entry, score };
  }
  return best?.entry;
}

/** How the runtime reads and writes a body of this media type. */
export type BodyKind = 'json' | 'jwt' | 'form' | 'multipart' | 'text' | 'binary';

/** How a body of this (parsed) media type is read and written; `binary` when it did not parse. */
export function kindOfMedia(media: MediaType | undefined): BodyKind {
  if (!media) return 'binary';
  if (media.type === 'application' && media.subtype === 'jwt') return 'jwt';
  if (media.subtype === 'json' || media.subtype.endsWith('+json')) return 'json';
  if (media.type === 'application' && media.subtype === 'x-www-form-urlencoded') return 'form';
  if (media.type === 'multipart' && media.subtype === 'form-data') return 'multipart';
  if (media.type === 'text') return 'text';
  return 'binary';
}

/**
 * How a body of this media type is read and written, memoised by its text.
 *
 * @example
 * bodyKind('application/problem+json') // → 'json'
 */
export const bodyKind: (contentType: string) => BodyKind = memo((contentType) => kindOfMedia(parsedMediaType(contentType)));
