/**
 * Decodes a request body's bytes by its media type, as a receiver of requests does (the
 * router, mock handlers): JSON (depth-limited, no `__proto__`), form fields by the body's form
 * layout, text, the compact JWT text, or the bytes themselves.
 */
import { kindOfMedia, parsedMediaType } from './content-negotiation.js';
import { decodeForm } from './form-decode.js';
import type { FormLayout } from './form-layout.js';
import { assertNoProtoKeys, parseJsonSafely, UnsafeInputError } from './safe-json.js';

/** A body that does not decode as its media type says. */
export class BodyFormatError extends Error {
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
    this.name = 'BodyFormatError';
  }
}

const TEXT_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/**
 * Decodes body bytes by the request's media type: JSON (depth-limited, no `__proto__`),
 * form fields (decoded by `layout`, the body's form layout: see form-decode.ts), text, the
 * compact JWT text, or the bytes themselves. Multipart bodies are read as they stream (the
 * server runtime's multipart.ts), not here. Throws `BodyFormatError`, or `FormFieldError`
 * naming a form field (as the fields of a multipart body do).
 *
 * @example
 * decodeBody(new TextEncoder().encode('{"a":1}'), 'application/json', 64) // → { a: 1 }
 */
export function decodeBody(bytes: Uint8Array, contentType: string, maxDepth: number, layout?: FormLayout): unknown {
  const media = parsedMediaType(contentType);
  const kind = kindOfMedia(media);
  const charset = media?.params.get('charset');
  if (kind !== 'binary' && charset !== undefined && !TEXT_CHARSETS.has(charset)) {
    throw new BodyFormatError(`charset ${charset} is not supported; send UTF-8`);
  }
  const text = kind === 'binary' ? '' : new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  switch (kind) {
    case 'json':
      try {
        return parseJsonSafely(text, maxDepth);
      } catch (error) {
        if (error instanceof UnsafeInputError) throw new BodyFormatError(error.message, error.path);
        throw error;
      }
    case 'form':
      return decodeForm([...new URLSearchParams(text)], layout, { multipart: false, maxDepth });
    case 'jwt':
      return text.trim();
    case 'text':
      return text;
    default:
      return bytes;
  }
}

/** For a body another middleware parsed already: the same safety checks as our own parsing. */
export function checkPreParsed(value: unknown, maxDepth: number): unknown {
  try {
    assertNoProtoKeys(value, maxDepth + 1);
  } catch (error) {
    if (error instanceof UnsafeInputError) throw new BodyFormatError(error.message, error.path);
    throw error;
  }
  return value;
}
