/**
 * Reading `multipart/mixed` (RFC 2046 §5.1) incrementally: bytes go in chunk by chunk, each
 * part (its headers and body bytes) comes out as soon as the delimiter after it arrives. The
 * preamble before the first delimiter and the epilogue after the close delimiter are skipped.
 * Lines end with CRLF, as RFC 2046 requires; a body is kept whole, so its size is bounded.
 */
import { parsedMediaType } from './content-negotiation.js';
import { concatBytes, indexOfBytes, joinBytes, latin1 } from './bytes.js';
import { HeaderLineError, partHeaders } from './multipart-headers.js';
import { settledItems } from './text-chunks.js';

/** One part: its headers (names lower-case, a repeated header's values joined by `, `) and body. */
export interface MultipartPart {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
}

export interface MultipartMixedDecoderOptions {
  /** Bytes in one part's body (and in the preamble); default 16 MiB. */
  maxPartSize?: number;
  /** Bytes in one part's header block; default 64 KiB. */
  maxHeaderSize?: number;
}

/** A body that is not `multipart/mixed` as RFC 2046 writes it, or a part that cannot be read. */
export class MultipartMixedError extends Error {
  /** Parts completed in the same chunk before the failure, so none is lost (see `push`). */
  decoded: readonly MultipartPart[] = [];

  constructor(
    message: string,
    /** The failing part, 1-based; absent when the failure is not in a part. */
    readonly part?: number,
  ) {
    super(message);
    this.name = 'MultipartMixedError';
  }
}

/** A part (or preamble, or header block) larger than the decoder's limit. */
export class MultipartPartTooLargeError extends MultipartMixedError {
  constructor(
    message: string,
    part: number | undefined,
    /** The limit passed, in bytes. */
    readonly limit: number,
  ) {
    super(message, part);
    this.name = 'MultipartPartTooLargeError';
  }
}

const DEFAULT_MAX_PART_SIZE = 16 * 1024 * 1024;
const DEFAULT_MAX_HEADER_SIZE = 64 * 1024;
const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;
const CRLF = Uint8Array.of(CR, LF);
const HEADER_END = Uint8Array.of(CR, LF, CR, LF);
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** Whether `boundary` is one RFC 2046 allows: 1 to 70 of its characters, not ending in a space. */
export function isMultipartBoundary(boundary: string): boolean {
  return BOUNDARY.test(boundary);
}

/** The `boundary` parameter of a multipart Content-Type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  return contentType === undefined ? undefined : parsedMediaType(contentType)?.params.get('boundary');
}

type State = 'preamble' | 'delimiter' | 'headers' | 'body' | 'epilogue';

/**
 * Reads the parts of a `multipart/mixed` body incrementally. Errors (`MultipartMixedError`): a
 * line that opens with the boundary but is not a delimiter, a malformed header line, a stream
 * that ends before its close delimiter; `MultipartPartTooLargeError` for a part, preamble or
 * header block over its limit. A body of the close delimiter alone holds no part.
 *
 * @example
 * const decoder = new MultipartMixedDecoder('b1');
 * decoder.push(bytes('--b1\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b1')) // → [{ headers: { 'content-type': 'text/plain' }, body: bytes('hi') }]
 * decoder.push(bytes('--\r\n')) // → []
 */
export class MultipartMixedDecoder {
  readonly #delimiter: Uint8Array;
  readonly #maxPartSize: number;
  readonly #maxHeaderSize: number;
  #state: State = 'preamble';
  // A CR LF before the stream, so that a delimiter opening it is found like any other.
  #pending: Uint8Array = CRLF;
  // Where new bytes are appended: `#pending` ends at `#filled` in `#store` when it is a view
  // of it, and the capacity after that takes the next chunk without copying what is pending.
  #store = new Uint8Array(0);
  #filled = 0;
  // How many pending bytes a search of the current state already looked at, so that a block
  // arriving a few bytes at a time is scanned once, not once per chunk.
  #scanned = 0;
  #skipped = -CRLF.length;
  #parts = 0;
  #body: Uint8Array[] = [];
  #bodySize = 0;
  #headers: Record<string, string> = {};
  #failure: MultipartMixedError | undefined;

  constructor(boundary: string, options: MultipartMixedDecoderOptions = {}) {
    if (!isMultipartBoundary(boundary)) throw new MultipartMixedError(`"${boundary}" is not a multipart boundary (1 to 70 characters of those RFC 2046 allows)`);
    this.#delimiter = concatBytes(CRLF, new TextEncoder().encode(`--${boundary}`));
    this.#maxPartSize = positive(options.maxPartSize ?? DEFAULT_MAX_PART_SIZE, 'maxPartSize');
    this.#maxHeaderSize = positive(options.maxHeaderSize ?? DEFAULT_MAX_HEADER_SIZE, 'maxHeaderSize');
  }

  /**
   * The parts `chunk` completes. Throws `MultipartMixedError`; its `decoded` holds the parts
   * before the failure in this chunk. After an error the decoder stays failed.
   */
  push(chunk: Uint8Array): MultipartPart[] {
    return this.#run((out) => {
      // Always a copy: the caller may reuse the chunk's memory once push returns, and the
      // bytes kept (a body's pieces among them) are views of it.
      this.#append(chunk);
      this.#read(out);
    });
  }

  /** Checks that the close delimiter came; the decoder is then ready for a new stream. */
  end(): MultipartPart[] {
    return this.#run(() => {
      const state = this.#state;
      const parts = this.#parts;
      this.#reset();
      if (state === 'preamble') throw new MultipartMixedError('no boundary delimiter was found');
      if (state !== 'epilogue') throw new MultipartMixedError(`part ${parts}: the body ended before its close delimiter`, parts);
    });
  }

  #run(step: (out: MultipartPart[]) => void): MultipartPart[] {
    if (this.#failure !== undefined) {
      const { message, part } = this.#failure;
      throw this.#failure instanceof MultipartPartTooLargeError ? new MultipartPartTooLargeError(message, part, this.#failure.limit) : new MultipartMixedError(message, part);
    }
    const out: MultipartPart[] = [];
    try {
      step(out);
    } catch (error) {
      if (!(error instanceof MultipartMixedError)) throw error;
      this.#failure = error;
      error.decoded = out;
      throw error;
    }
    return out;
  }

  /**
   * Adds `chunk` after the pending bytes. Bytes already handed out (views of a body's pieces)
   * are never written over: only the capacity after `#filled` is, and a larger store is a new
   * array. Growing by doubling (at most 1 MiB of room at a time, so one large chunk does not
   * cost twice its memory) keeps a header block that comes a byte at a time linear.
   */
  #append(chunk: Uint8Array): void {
    const pending = this.#pending;
    const inStore = pending.buffer === this.#store.buffer && pending.byteOffset + pending.length === this.#store.byteOffset + this.#filled;
    if (inStore && this.#filled + chunk.length <= this.#store.length) {
      this.#store.set(chunk, this.#filled);
      this.#filled += chunk.length;
      this.#pending = this.#store.subarray(this.#filled - pending.length - chunk.length, this.#filled);
      return;
    }
    const size = pending.length + chunk.length;
    this.#store = new Uint8Array(size + Math.min(Math.max(size, 256), 1024 * 1024));
    this.#store.set(pending, 0);
    this.#store.set(chunk, pending.length);
    this.#filled = size;
    this.#pending = this.#store.subarray(0, size);
  }

  /** The pending bytes from `at` on; the next state's search starts afresh. */
  #consume(at: number): void {
    this.#pending = this.#pending.subarray(at);
    this.#scanned = 0;
  }

  #reset(): void {
    this.#state = 'preamble';
    this.#pending = CRLF;
    this.#store = new Uint8Array(0);
    this.#filled = 0;
    this.#scanned = 0;
    this.#skipped = -CRLF.length;
    this.#parts = 0;
    this.#body = [];
    this.#bodySize = 0;
  }

  /** Steps through the pending bytes until they are used up or more are needed. */
  #read(out: MultipartPart[]): void {
    for (let more = true; more; ) {
      if (this.#state === 'preamble') more = this.#preamble();
      else if (this.#state === 'delimiter') more = this.#afterDelimiter();
      else if (this.#state === 'headers') more = this.#headerBlock();
      else if (this.#state === 'body') more = this.#bodyBytes(out);
      else {
        this.#consume(this.#pending.length);
        more = false;
      }
    }
  }

  #preamble(): boolean {
    const at = indexOfBytes(this.#pending, this.#delimiter);
    // Counted whether or not the delimiter came in the same chunk: the outcome must not depend on chunking.
    this.#skipped += at < 0 ? this.#takeHead().length : at;
    if (this.#skipped > this.#maxPartSize) throw new MultipartPartTooLargeError(`the preamble is longer than ${this.#maxPartSize} bytes (maxPartSize)`, undefined, this.#maxPartSize);
    if (at < 0) return false;
    this.#consume(at + this.#delimiter.length);
    this.#state = 'delimiter';
    return true;
  }

  /** After `--boundary`: `--` closes the body; else white space (transport padding) and CRLF open a part. */
  #afterDelimiter(): boolean {
    const bytes = this.#pending;
    if (bytes.length === 0) return false;
    if (bytes[0] === DASH) {
      if (bytes.length < 2) return false;
      if (bytes[1] !== DASH) throw this.#notDelimiter();
      this.#state = 'epilogue';
      return true;
    }
    let i = this.#scanned;
    while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09)) i++;
    this.#scanned = i;
    if (i > this.#maxHeaderSize) throw new MultipartPartTooLargeError(`part ${this.#parts + 1}: the white space after its delimiter is longer than ${this.#maxHeaderSize} bytes (maxHeaderSize)`, this.#parts + 1, this.#maxHeaderSize);
    if (i < bytes.length && bytes[i] !== CR) throw this.#notDelimiter();
    if (i + 1 >= bytes.length) return false;
    if (bytes[i + 1] !== LF) throw this.#notDelimiter();
    this.#consume(i + 2);
    this.#parts++;
    this.#state = 'headers';
    return true;
  }

  #notDelimiter(): MultipartMixedError {
    return new MultipartMixedError(`part ${this.#parts + 1}: a line opens with the boundary but is not a delimiter (one ends with "--", or with CRLF)`, this.#parts + 1);
  }

  #headerBlock(): boolean {
    const bytes = this.#pending;
    if (bytes.length < 2) return false;
    // A part with no header opens with its blank line.
    const bare = bytes[0] === CR && bytes[1] === LF;
    // The last three bytes looked at may open the blank line: the search goes back over them.
    const end = bare ? 0 : indexOfBytes(bytes, HEADER_END, Math.max(0, this.#scanned - (HEADER_END.length - 1)));
    if (end < 0) {
      this.#scanned = bytes.length;
      // Three bytes of the blank line may have come already: the outcome must not depend on chunking.
      if (bytes.length > this.#maxHeaderSize + 3) throw this.#headersTooLarge();
      return false;
    }
    if (end > this.#maxHeaderSize) throw this.#headersTooLarge();
    this.#headers = bare ? {} : this.#parseHeaders(latin1(bytes.subarray(0, end)));
    this.#consume(bare ? 2 : end + 4);
    this.#body = [];
    this.#bodySize = 0;
    this.#state = 'body';
    return true;
  }

  #headersTooLarge(): MultipartPartTooLargeError {
    return new MultipartPartTooLargeError(`part ${this.#parts}: its headers are longer than ${this.#maxHeaderSize} bytes (maxHeaderSize)`, this.#parts, this.#maxHeaderSize);
  }

  #parseHeaders(text: string): Record<string, string> {
    try {
      return partHeaders(text);
    } catch (error) {
      if (error instanceof HeaderLineError) throw new MultipartMixedError(`part ${this.#parts}: ${error.message}`, this.#parts);
      throw error;
    }
  }

  #bodyBytes(out: MultipartPart[]): boolean {
    const at = indexOfBytes(this.#pending, this.#delimiter);
    if (at < 0) {
      this.#addBody(this.#takeHead());
      return false;
    }
    this.#addBody(this.#pending.subarray(0, at));
    out.push({ headers: this.#headers, body: joinBytes(this.#body) });
    this.#body = [];
    this.#consume(at + this.#delimiter.length);
    this.#state = 'delimiter';
    return true;
  }

  /** Takes all pending bytes but the last `delimiter - 1`, which may open a delimiter. */
  #takeHead(): Uint8Array {
    const moved = Math.max(0, this.#pending.length - (this.#delimiter.length - 1));
    const head = this.#pending.subarray(0, moved);
    this.#pending = this.#pending.subarray(moved);
    return head;
  }

  #addBody(bytes: Uint8Array): void {
    this.#bodySize += bytes.length;
    if (this.#bodySize > this.#maxPartSize) throw new MultipartPartTooLargeError(`part ${this.#parts} is longer than ${this.#maxPartSize} bytes (maxPartSize)`, this.#parts, this.#maxPartSize);
    if (bytes.length > 0) this.#body.push(bytes);
  }
}

function positive(value: number, name: string): number {
  if (!(value > 0)) throw new RangeError(`${name} must be a positive number, not ${value}`);
  return value;
}

/**
 * Reads the parts of a `multipart/mixed` body from bytes (text chunks are taken as UTF-8).
 * Parts before a failure are yielded before its `MultipartMixedError` is thrown.
 *
 * @example
 * for await (const part of decodeMultipartMixed(response.body, boundaryOf(contentType)!)) handle(part);
 */
export async function* decodeMultipartMixed(source: AsyncIterable<Uint8Array | string>, boundary: string, options: MultipartMixedDecoderOptions = {}): AsyncGenerator<MultipartPart> {
  const decoder = new MultipartMixedDecoder(boundary, options);
  const utf8 = new TextEncoder();
  for await (const chunk of source) yield* settledItems(() => decoder.push(typeof chunk === 'string' ? utf8.encode(chunk) : chunk), partsBefore);
  yield* settledItems(() => decoder.end(), partsBefore);
}

/** The parts a `MultipartMixedError` carries, completed before the failure. */
function partsBefore(error: unknown): readonly MultipartPart[] | undefined {
  return error instanceof MultipartMixedError ? error.decoded : undefined;
}
