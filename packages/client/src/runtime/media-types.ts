/**
 * Content-type handling shared by request building and response decoding. Specs write
 * content types with parameters (`application/json; charset=utf-8`), servers answer with
 * their own spelling: matching ignores case, spaces and, failing an exact match, parameters.
 */

/** `Application/JSON ; charset=UTF-8` → `application/json;charset=utf-8`. */
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

export function isJsonType(value: string): boolean {
  const type = mediaTypeOf(value);
  return type === 'application/json' || type.endsWith('+json');
}

export function isJwtType(value: string): boolean {
  return mediaTypeOf(value) === 'application/jwt';
}

export function isFormType(value: string): boolean {
  return mediaTypeOf(value) === 'application/x-www-form-urlencoded';
}

export function isMultipartType(value: string): boolean {
  return mediaTypeOf(value) === 'multipart/form-data';
}

export function isTextType(value: string): boolean {
  return mediaTypeOf(value).startsWith('text/');
}

function wildcardMatches(pattern: string, type: string): boolean {
  if (pattern === '*/*') return true;
  if (pattern.endsWith('/*')) return type.startsWith(pattern.slice(0, -1));
  return false;
}

/**
 * The declared content type a response's `Content-Type` corresponds to: exact (normalized)
 * match first, then same media type, then a wildcard entry (`application/*`, `*\/*`).
 */
export function matchContentType(declared: readonly string[], received: string): string | undefined {
  const normalized = normalizeContentType(received);
  const exact = declared.find((d) => normalizeContentType(d) === normalized);
  if (exact !== undefined) return exact;
  const type = mediaTypeOf(received);
  const sameType = declared.find((d) => mediaTypeOf(d) === type);
  if (sameType !== undefined) return sameType;
  return declared.find((d) => wildcardMatches(mediaTypeOf(d), type));
}

/** Picks the declared content type to send when the caller did not name one. */
export function defaultRequestContentType(declared: readonly string[], body: unknown): string | undefined {
  // A string body for an operation that accepts a JWS is the signed form.
  if (typeof body === 'string') {
    const jwt = declared.find(isJwtType);
    if (jwt !== undefined) return jwt;
  }
  return declared.find((d) => mediaTypeOf(d) === 'application/json') ?? declared.find(isJsonType) ?? declared.find((d) => !isJwtType(d)) ?? declared[0];
}

/**
 * The `Accept` header for an operation: its success content types, the JSON forms only
 * unless the caller asks for the signed form (then only the signed form, when declared).
 */
export function acceptHeader(successTypes: readonly string[], prefer: 'json' | 'signed'): string | undefined {
  const unique = [...new Set(successTypes.map(mediaTypeOf))];
  if (unique.length === 0) return undefined;
  if (prefer === 'signed' && unique.includes('application/jwt')) return 'application/jwt';
  const nonSigned = unique.filter((t) => t !== 'application/jwt');
  return (nonSigned.length > 0 ? nonSigned : unique).join(', ');
}
