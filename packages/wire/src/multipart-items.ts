/**
 * The items of a positional multipart sequence (OpenAPI 3.2 `multipart/mixed` with
 * `itemSchema`): each item is the content of one part, written and read in the media type its
 * Encoding Object gives (`prefixEncoding[i]` for the i-th part, `itemEncoding` for the rest).
 * JSON types carry any JSON value, `text/*` a string, other types bytes.
 */
import { parseMediaType } from './content-negotiation.js';
import { describeValue } from './form-encode.js';
import { inMediaRange, isJsonType, isTextType, mediaTypeOf } from './media-types.js';
import { MultipartMixedError, type MultipartPart } from './multipart-mixed-read.js';
import { DEFAULT_MAX_DEPTH, parseJsonSafely } from './safe-json.js';
import { SequenceItemError } from './sequence-item-error.js';
import { jsonTextOf } from './text-chunks.js';

/** A part header an Encoding Object declares: a required one must come; a default is written. */
export interface PartHeader {
  readonly required?: boolean;
  readonly default?: unknown;
}

/** One Encoding Object of `prefixEncoding` or `itemEncoding`, as the validators keep it. */
export interface PartEncoding {
  /** As written: one media type, a list (`image/png, image/jpeg`), or ranges (`image/*`). */
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, PartHeader>>;
}

/** How the parts of a positional multipart sequence are encoded (OpenAPI 3.2). */
export interface SequenceEncoding {
  readonly prefixEncoding?: readonly PartEncoding[];
  readonly itemEncoding?: PartEncoding;
}

/** The encoding of the part at `index` (0-based): its `prefixEncoding` entry, else `itemEncoding`. */
export function partEncodingAt(encoding: SequenceEncoding | undefined, index: number): PartEncoding | undefined {
  return encoding?.prefixEncoding?.[index] ?? encoding?.itemEncoding;
}

function isBytes(value: unknown): value is Uint8Array | ArrayBuffer {
  return value instanceof Uint8Array || value instanceof ArrayBuffer;
}

/** The media types (or ranges) an encoding's `contentType` lists. */
function listed(contentType: string | undefined): string[] {
  return (contentType ?? '').split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
}

/** Whether a part of `type` can carry `value`. */
function carries(type: string, value: unknown): boolean {
  if (isJsonType(type)) return !isBytes(value);
  if (isTextType(type)) return typeof value === 'string';
  return isBytes(value);
}

/**
 * The media type to write `value` in: the first type the encoding lists that can carry it, or
 * (no type listed, or only ranges) the one the value calls for, as OpenAPI's defaults do.
 */
function typeToWrite(encoding: PartEncoding | undefined, value: unknown): string {
  const byValue = isBytes(value) ? 'application/octet-stream' : typeof value === 'string' ? 'text/plain' : 'application/json';
  const ranges = listed(encoding?.contentType);
  if (ranges.length === 0) return byValue;
  const exact = ranges.filter((range) => !mediaTypeOf(range).includes('*'));
  const fitting = exact.find((type) => carries(type, value));
  if (fitting !== undefined) return fitting;
  if (ranges.some((range) => inMediaRange(range, byValue))) return byValue;
  // Written as declared, so that the refusal names what the part must carry.
  if (exact[0] !== undefined) return exact[0];
  throw new SequenceItemError(`no media type in "${encoding!.contentType}" can carry ${describeValue(value)}`);
}

const UTF8 = new TextEncoder();

function bodyOf(type: string, value: unknown, json: (value: unknown) => string | undefined): Uint8Array {
  if (isJsonType(type)) {
    if (isBytes(value)) throw new SequenceItemError(`a ${mediaTypeOf(type)} part cannot carry bytes (JSON has none)`);
    return UTF8.encode(jsonTextOf(value, (message) => new SequenceItemError(message), json));
  }
  if (isTextType(type)) {
    if (typeof value !== 'string') throw new SequenceItemError(`a ${mediaTypeOf(type)} part carries a string, not ${describeValue(value)}`);
    return UTF8.encode(value);
  }
  if (!isBytes(value)) throw new SequenceItemError(`a ${mediaTypeOf(type)} part carries bytes (Uint8Array or ArrayBuffer), not ${describeValue(value)}`);
  return value instanceof Uint8Array ? value : new Uint8Array(value);
}

/**
 * The headers and body of the part that carries `value`: its Content-Type (text in UTF-8, said
 * so), then the declared headers that have a default. Throws `SequenceItemError` for a value
 * the part's media type cannot carry, or a required header with no default to write.
 */
export function partOfItem(value: unknown, encoding: PartEncoding | undefined, json: (value: unknown) => string | undefined = JSON.stringify): { headers: Record<string, string>; body: Uint8Array } {
  const type = typeToWrite(encoding, value);
  const body = bodyOf(type, value, json);
  const headers: Record<string, string> = { 'Content-Type': isTextType(type) && !parseMediaType(type)?.params.has('charset') ? `${type}; charset=utf-8` : type };
  for (const [name, header] of Object.entries(encoding?.headers ?? {})) {
    // OpenAPI: Content-Type is the encoding's `contentType`, never one of its `headers`.
    if (name.toLowerCase() === 'content-type') continue;
    if (header.default !== undefined) headers[name] = typeof header.default === 'string' ? header.default : JSON.stringify(header.default);
    else if (header.required) throw new SequenceItemError(`the part's header ${name} is required, and has no default to write`);
  }
  return { headers, body };
}

/**
 * The item a part carries, by its Content-Type (`text/plain` when it has none, as RFC 2046
 * says): a JSON value (parsed as untrusted JSON), a string (`text/*`, in its charset), or its
 * bytes. Throws `MultipartMixedError` naming the part (1-based `part`) when its type is not
 * the one its encoding declares, a required header is missing, or the body cannot be read.
 */
export function itemOfPart(part: MultipartPart, index: number, encoding: PartEncoding | undefined, maxDepth = DEFAULT_MAX_DEPTH): unknown {
  const received = part.headers['content-type'] ?? 'text/plain';
  const type = mediaTypeOf(received);
  const declared = listed(encoding?.contentType);
  if (declared.length > 0 && !declared.some((range) => inMediaRange(range, type))) {
    throw new MultipartMixedError(`part ${index}: Content-Type ${received} is not the ${encoding!.contentType} its encoding declares`, index);
  }
  for (const [name, header] of Object.entries(encoding?.headers ?? {})) {
    if (header.required && name.toLowerCase() !== 'content-type' && part.headers[name.toLowerCase()] === undefined) {
      throw new MultipartMixedError(`part ${index}: header ${name} is required`, index);
    }
  }
  try {
    if (isJsonType(type)) return parseJsonSafely(new TextDecoder('utf-8', { fatal: true }).decode(part.body), maxDepth);
    if (isTextType(type)) return new TextDecoder(parseMediaType(received)?.params.get('charset') ?? 'utf-8', { fatal: true }).decode(part.body);
  } catch (error) {
    throw new MultipartMixedError(`part ${index}: its ${type} body cannot be read: ${(error as Error).message}`, index);
  }
  return part.body;
}
