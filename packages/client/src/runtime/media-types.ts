/**
 * Which media types the client sends and asks for: the content type of a request body the
 * caller named none for, and the `Accept` header of an operation. Reading media types is
 * `@bank-data-sharing/wire`'s (media-types.ts there).
 */
import { isJsonType, isJwtType, mediaTypeOf } from '@bank-data-sharing/wire';

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
