/**
 * Media type essences: what kind of body a content type names, and which declared content
 * type a received one corresponds to. Specs write content types with parameters
 * (`application/json; charset=utf-8`), servers answer with their own spelling: matching
 * ignores case, spaces and, failing an exact match, parameters. This is the lenient reading a
 * receiver of responses (the client) does; content-negotiation.ts has the strict one a
 * receiver of requests does.
 */

/** The content type in one spelling, to compare two: `Application/JSON ; charset=UTF-8` → `application/json;charset=utf-8`. */
export function normalizeContentType(value: string): string {
  return value
    .split(';')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '')
    .join(';');
}

/** The media type without parameters: `application/json; charset=utf-8` → `application/json`. */
export function mediaTypeOf(value: string): string {
  return (value.split(';')[0] ?? '').trim().toLowerCase();
}

/**
 * JSON by its essence: the subtype `json` (`application/json`, `text/json`) or a `+json`
 * suffix (`application/problem+json`), the rule `bodyKind` reads and writes bodies by.
 */
export function isJsonType(value: string): boolean {
  const type = mediaTypeOf(value);
  const subtype = type.slice(type.indexOf('/') + 1);
  return type.includes('/') && (subtype === 'json' || subtype.endsWith('+json'));
}

/** The signed (compact JWS) form: `application/jwt`. */
export function isJwtType(value: string): boolean {
  return mediaTypeOf(value) === 'application/jwt';
}

/** `application/x-www-form-urlencoded`. */
export function isFormType(value: string): boolean {
  return mediaTypeOf(value) === 'application/x-www-form-urlencoded';
}

/** `multipart/form-data`. */
export function isMultipartType(value: string): boolean {
  return mediaTypeOf(value) === 'multipart/form-data';
}

/** Any `text/*` type that is not JSON (`text/json` is JSON, as `bodyKind` reads it). */
export function isTextType(value: string): boolean {
  return mediaTypeOf(value).startsWith('text/') && !isJsonType(value);
}

/** Whether the media `type` (an essence) is in `range` (`text/plain`, `text/*`, `*\/*`; parameters ignored). */
export function inMediaRange(range: string, type: string): boolean {
  const wanted = mediaTypeOf(range);
  return wanted === type || wildcardMatches(wanted, type);
}

function wildcardMatches(pattern: string, type: string): boolean {
  if (pattern === '*/*') return true;
  if (pattern.endsWith('/*')) return type.startsWith(pattern.slice(0, -1));
  return false;
}

/**
 * The declared content type a response's `Content-Type` corresponds to: exact (normalized)
 * match first, then same media type, then a wildcard entry (`application/*`, `*\/*`). (The
 * client runtime exports it as `matchContentType`.)
 *
 * @example
 * declaredContentType(['application/json; charset=utf-8', 'application/jwt'], 'APPLICATION/JSON') // → 'application/json; charset=utf-8'
 */
export function declaredContentType(declared: readonly string[], received: string): string | undefined {
  const normalized = normalizeContentType(received);
  const exact = declared.find((d) => normalizeContentType(d) === normalized);
  if (exact !== undefined) return exact;
  const type = mediaTypeOf(received);
  const sameType = declared.find((d) => mediaTypeOf(d) === type);
  if (sameType !== undefined) return sameType;
  return declared.find((d) => wildcardMatches(mediaTypeOf(d), type));
}
