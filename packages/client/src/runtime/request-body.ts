/**
 * Encodes a request body in the media type chosen (by the caller, or from the declared ones by
 * what the body holds): JSON, a signed JWT, form fields and multipart parts (form-encode.ts),
 * text, or bytes. Nothing here talks to the network.
 */
import {
  describeValue,
  isFile,
  isFormType,
  isJsonType,
  isJwtType,
  isMultipartType,
  isTextType,
  mediaTypeOf,
  sequenceEncodingOf,
  sequenceFormat,
  sequenceItemOf,
  writeJson,
  type FileInput,
  type FormLayout,
} from '@bank-data-sharing/wire';
import { RequestError } from './errors.js';
import { encodeMultipart, encodeUrlEncoded } from './form-encode.js';
import { defaultRequestContentType } from './media-types.js';
import type { RequestParams } from './request.js';
import { StreamedRequestBody } from './request-stream.js';
import { assertRequestJson } from './request-check.js';
import type { SchemaLike } from './types.js';

/** Signs the claims of a signed request body (`application/jwt`) and returns a compact JWS. */
export type RequestSigner = (claims: Readonly<Record<string, unknown>>, context: { operationId: string }) => Promise<string>;

export interface EncodedBody {
  contentType: string;
  body: string | Uint8Array | Blob | FormData | StreamedRequestBody;
}

/** The items of a sequence as a caller may give them: any iterable but text and bytes, which are sent as they are. */
function isItems(value: unknown): value is Iterable<unknown> | AsyncIterable<unknown> {
  if (value === null || typeof value !== 'object' || isBytes(value)) return false;
  // Iterable too, but a form: sent as `fetch` encodes it (its own multipart boundary).
  if (typeof FormData !== 'undefined' && value instanceof FormData) return false;
  const members = value as { [Symbol.iterator]?: unknown; [Symbol.asyncIterator]?: unknown };
  return typeof members[Symbol.asyncIterator] === 'function' || typeof members[Symbol.iterator] === 'function';
}

/** Bytes a body or member may be: what form-encode sends as a file, or an ArrayBuffer. */
function isBytes(value: unknown): value is FileInput | ArrayBuffer {
  return isFile(value) || value instanceof ArrayBuffer;
}

/**
 * Compiled writers are faster than JSON.stringify on V8 before 12 (Node 20) only, as measured
 * (BENCHMARKS.md, "JSON writers"); from Node 22 JSON.stringify is as fast or faster.
 */
const JSON_WRITERS_PAY_OFF = Number.parseInt(process.versions.v8, 10) < 12;

/** The declared schema of a media type: by its exact key, else by its essence. */
function schemaFor(schemas: Readonly<Record<string, unknown>> | undefined, contentType: string): unknown {
  if (schemas === undefined) return undefined;
  if (contentType in schemas) return schemas[contentType];
  const wanted = mediaTypeOf(contentType);
  const declared = Object.keys(schemas).find((type) => mediaTypeOf(type) === wanted);
  return declared === undefined ? undefined : schemas[declared];
}

function isSchema(value: unknown): value is SchemaLike {
  return value !== null && typeof value === 'object' && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/** The members of a body object that are files or bytes (directly, or as items of a list). */
function binaryMembers(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || isBytes(body)) return [];
  return Object.entries(body)
    .filter(([, member]) => isBytes(member) || (Array.isArray(member) && member.some(isBytes)))
    .map(([name]) => name);
}

/**
 * The declared content type to send a body in when the caller names none: one that can carry
 * its bytes or files (a binary type, multipart) before the JSON the default prefers, where
 * a Blob would become `{}`.
 */
function contentTypeFor(declared: readonly string[], body: unknown): string | undefined {
  if (isBytes(body)) {
    const binary = declared.find((type) => !isJsonType(type) && !isJwtType(type) && !isFormType(type) && !isMultipartType(type) && !isTextType(type));
    if (binary !== undefined) return binary;
  } else if (binaryMembers(body).length > 0) {
    const multipart = declared.find(isMultipartType);
    if (multipart !== undefined) return multipart;
  }
  return defaultRequestContentType(declared, body);
}

/** JSON has no bytes: a Blob would be sent as `{}` and a Uint8Array as an object of indexes. */
function refuseBinaryAsJson(value: unknown, contentType: string, operationId: string): void {
  if (isBytes(value)) throw new RequestError(`${operationId}: the body cannot be sent as ${contentType}: bytes have no JSON form (send them as a binary or multipart type)`);
  const [member] = binaryMembers(value);
  if (member !== undefined) throw new RequestError(`${operationId}: body member "${member}" cannot be sent as ${contentType}: a file or bytes have no JSON form (send it as multipart/form-data)`);
}

/** The form layout of `contentType`, matched as a media type (a caller may add `; charset=utf-8` or write other case). */
function layoutFor(encoding: Readonly<Record<string, FormLayout>> | undefined, contentType: string): FormLayout | undefined {
  if (encoding === undefined) return undefined;
  const wanted = mediaTypeOf(contentType);
  const declared = Object.keys(encoding).find((type) => mediaTypeOf(type) === wanted);
  return declared === undefined ? undefined : encoding[declared];
}

/**
 * Encodes the body in the content type chosen (by the caller or from the declared ones):
 * JSON, a signed JWT, form fields and multipart parts (by `encoding`, the body's form layouts
 * by media type), text, or bytes; the items of a sequential media type (OpenAPI 3.2
 * `itemSchema`) are encoded as they are sent. With `validate`, a JSON body, and each item of a
 * sequence, is checked against its declared schema first (`RequestValidationError`). A value
 * the media type cannot carry is a `RequestError`.
 */
export async function encodeBody(
  declared: readonly string[],
  params: RequestParams,
  operationId: string,
  signer: RequestSigner | undefined,
  encoding?: Readonly<Record<string, FormLayout>>,
  schemas?: Readonly<Record<string, unknown>>,
  validate = true,
): Promise<EncodedBody | undefined> {
  if (params.body === undefined) return undefined;
  const contentType = params.contentType ?? contentTypeFor(declared, params.body);
  if (contentType === undefined) throw new RequestError(`${operationId}: the operation takes no request body`);
  const value = params.body;
  const format = sequenceFormat(contentType);
  if (format !== undefined && isItems(value)) {
    const schema = schemaFor(schemas, contentType);
    const itemSchema = sequenceItemOf<SchemaLike>(schema);
    const partEncoding = sequenceEncodingOf(schema);
    const streamed = new StreamedRequestBody({ operationId, format, mediaType: contentType, itemSchema, items: value, validate, ...(partEncoding ? { encoding: partEncoding } : {}) });
    // The body's own Content-Type: a multipart/mixed one carries the boundary chosen for it.
    return { contentType: streamed.contentType, body: streamed };
  }
  if (isJwtType(contentType)) {
    if (typeof value === 'string') return { contentType, body: value };
    if (!signer) throw new RequestError(`${operationId}: a signed body needs \`signRequest\` in the client options (or a compact JWS string)`);
    return { contentType, body: await signer(value as Record<string, unknown>, { operationId }) };
  }
  if (isJsonType(contentType)) {
    refuseBinaryAsJson(value, contentType, operationId);
    const schema = schemaFor(schemas, contentType);
    // The schema's compiled writer, where the validators have one and it pays off; JSON.stringify otherwise.
    const text = writeJson(schema, value, JSON_WRITERS_PAY_OFF) as string;
    // The schema the server checks the body with: a body it would refuse is not sent.
    if (validate && isSchema(schema)) assertRequestJson(schema, value, text, operationId);
    return { contentType, body: text };
  }
  const context = { operationId, mediaType: contentType };
  if (isFormType(contentType)) {
    if (value instanceof URLSearchParams) return { contentType, body: value.toString() };
    return { contentType, body: encodeUrlEncoded(value, layoutFor(encoding, contentType), context) };
  }
  if (isMultipartType(contentType)) {
    if (value instanceof FormData) return { contentType, body: value };
    return { contentType, body: encodeMultipart(value, layoutFor(encoding, contentType), context) };
  }
  if (value instanceof FormData) return { contentType, body: value };
  if (isBytes(value)) return { contentType, body: value instanceof ArrayBuffer ? new Uint8Array(value) : value };
  if (typeof value === 'string') return { contentType, body: value };
  if (isTextType(contentType) && (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')) return { contentType, body: String(value) };
  const expected = isTextType(contentType) ? 'text (a string)' : 'bytes (Uint8Array, ArrayBuffer or Blob) or a string';
  throw new RequestError(`${operationId}: the body cannot be sent as ${contentType}: expected ${expected}, got ${describeValue(value)}`);
}
