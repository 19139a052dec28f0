/**
 * JSON text sequences (RFC 7464, `application/json-seq`): each JSON text opens with RS
 * (U+001E) and ends with LF. Pure and incremental: text goes in chunk by chunk, each record's
 * value comes out as soon as it is complete, parsed as untrusted JSON (depth-limited, no
 * `__proto__`).
 */
import { decodeChunks, jsonTextOf } from './text-chunks.js';
import { DEFAULT_MAX_DEPTH, parseJsonSafely } from './safe-json.js';

export interface JsonSeqDecoderOptions {
  /** Characters in one record's JSON text; default 16 MiB. */
  maxRecordLength?: number;
  /** Deepest nesting accepted in one value; default `DEFAULT_MAX_DEPTH`. */
  maxDepth?: number;
}

/** A record that is not one JSON text, is truncated or too long, or a value with no JSON text. */
export class JsonSeqError extends Error {
  constructor(
    message: string,
    /** The failing record, 1-based, counting the records that hold text; absent when writing. */
    readonly record?: number,
    /** Values completed in the same chunk before the failure, so none is lost (see `push`). */
    readonly decoded: readonly unknown[] = [],
  ) {
    super(message);
    this.name = 'JsonSeqError';
  }
}

const DEFAULT_MAX_RECORD_LENGTH = 16 * 1024 * 1024;
const RS = 0x1e;
const LF = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === LF || c === 0x0d;
}

/**
 * Reads a JSON text sequence incrementally. A record's value is given at the LF that completes
 * its JSON text (found by tracking strings and brackets, so a pretty-printed text spanning
 * lines waits for its end), or else at the next RS or `end()`. Empty and whitespace-only
 * records are skipped. Errors (`JsonSeqError`): anything before the first RS, malformed JSON,
 * text after a record's JSON text, a number, `true`, `false` or `null` not followed by
 * whitespace (it may have been truncated: RFC 7464 §2.4), a record over `maxRecordLength`.
 *
 * @example
 * const decoder = new JsonSeqDecoder();
 * decoder.push('\u001e{"a":1}\n\u001e[2') // → [{ a: 1 }]
 * decoder.push(']\n') // → [[2]]
 */
export class JsonSeqDecoder {
  readonly #maxRecordLength: number;
  readonly #maxDepth: number;
  #opened = false;
  #records = 0;
  #failure: JsonSeqError | undefined;
  // The record being read: its text so far, and whether its value was already given.
  #text = '';
  #done = false;
  // Where the record's JSON text stands: enough to see at an LF whether it is complete.
  #started = false;
  #depth = 0;
  #inString = false;
  #escaped = false;

  constructor(options: JsonSeqDecoderOptions = {}) {
    const max = options.maxRecordLength ?? DEFAULT_MAX_RECORD_LENGTH;
    if (!(max > 0)) throw new RangeError(`maxRecordLength must be a positive number, not ${max}`);
    this.#maxRecordLength = max;
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /**
   * The values of the records `chunk` completes. Throws `JsonSeqError`; its `decoded` holds the
   * values before the failure in this chunk. After an error the decoder stays failed.
   */
  push(chunk: string): unknown[] {
    return this.#run((out) => this.#read(chunk, out));
  }

  /** The value of the last record, if it was not given yet; the decoder is then ready for a new stream. */
  end(): unknown[] {
    return this.#run((out) => {
      if (this.#opened && !this.#done) this.#finish(out);
      this.#opened = false;
      this.#records = 0;
      this.#openRecord();
    });
  }

  #run(step: (out: unknown[]) => void): unknown[] {
    if (this.#failure !== undefined) throw new JsonSeqError(this.#failure.message, this.#failure.record);
    const out: unknown[] = [];
    try {
      step(out);
    } catch (error) {
      if (!(error instanceof JsonSeqError)) throw error;
      this.#failure = error;
      throw new JsonSeqError(error.message, error.record, out);
    }
    return out;
  }

  #read(chunk: string, out: unknown[]): void {
    let from = 0; // where the record's unbuffered text starts in this chunk
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c === RS) {
        if (this.#opened && !this.#done) {
          this.#text += chunk.slice(from, i);
          this.#finish(out);
        }
        this.#opened = true;
        this.#openRecord();
        from = i + 1;
      } else if (!this.#opened) {
        throw new JsonSeqError('record 1: text before the first RS (U+001E)', 1);
      } else if (this.#done) {
        if (!isJsonSpace(c)) throw this.#error('text after its JSON text');
      } else if (this.#scan(c)) {
        this.#text += chunk.slice(from, i + 1);
        this.#finish(out);
      }
    }
    if (this.#opened && !this.#done) {
      this.#text += chunk.slice(from);
      this.#checkLength();
    }
  }

  /** Follows one character of the JSON text; true at an LF that ends a complete text. */
  #scan(c: number): boolean {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false;
      else if (c === BACKSLASH) this.#escaped = true;
      else if (c === QUOTE) this.#inString = false;
      return false;
    }
    if (isJsonSpace(c)) return c === LF && this.#started && this.#depth <= 0;
    if (!this.#started) {
      this.#started = true;
      this.#records++;
    }
    if (c === QUOTE) this.#inString = true;
    else if (c === 0x7b || c === 0x5b) this.#depth++;
    else if (c === 0x7d || c === 0x5d) this.#depth--;
    return false;
  }

  #finish(out: unknown[]): void {
    this.#done = true;
    if (!this.#started) return; // empty or only whitespace: nothing was sent
    this.#checkLength();
    let value: unknown;
    try {
      value = parseJsonSafely(this.#text, this.#maxDepth);
    } catch (error) {
      throw this.#error((error as Error).message);
    }
    const scalar = value === null || typeof value === 'number' || typeof value === 'boolean';
    if (scalar && !isJsonSpace(this.#text.charCodeAt(this.#text.length - 1))) {
      throw this.#error('a number, true, false or null not followed by whitespace may be truncated (RFC 7464 §2.4)');
    }
    out.push(value);
  }

  #checkLength(): void {
    if (this.#text.length > this.#maxRecordLength) {
      throw this.#error(`longer than ${this.#maxRecordLength} characters (maxRecordLength)`);
    }
  }

  #error(reason: string): JsonSeqError {
    // Whitespace before a record's text does not count it yet; it is the next one.
    const record = this.#started ? this.#records : this.#records + 1;
    return new JsonSeqError(`record ${record}: ${reason}`, record);
  }

  #openRecord(): void {
    this.#text = '';
    this.#done = false;
    this.#started = false;
    this.#depth = 0;
    this.#inString = false;
    this.#escaped = false;
  }
}

/**
 * Reads a JSON text sequence from bytes (UTF-8, decoded across chunk boundaries) or text.
 * Values before a failing record are yielded before its `JsonSeqError` is thrown.
 *
 * @example
 * for await (const value of decodeJsonSeq(response.body)) handle(value);
 */
export function decodeJsonSeq(source: AsyncIterable<Uint8Array | string>, options: JsonSeqDecoderOptions = {}): AsyncGenerator<unknown> {
  return decodeChunks(source, new JsonSeqDecoder(options), (error) => (error instanceof JsonSeqError ? error.decoded : undefined));
}

/**
 * One record: RS, the JSON text of `value`, LF (JSON text never holds a raw RS or LF, so the
 * record cannot be split). Throws `JsonSeqError` for a value JSON cannot hold (`undefined`, a
 * function, a symbol, a BigInt, a cycle).
 *
 * @example
 * encodeJsonSeqRecord({ a: 1 }) // → '\u001e{"a":1}\n'
 */
export function encodeJsonSeqRecord(value: unknown): string {
  return jsonSeqRecordWrittenBy(value, JSON.stringify);
}

/** `encodeJsonSeqRecord` with the JSON text written by `write` (a schema's compiled writer, say). */
export function jsonSeqRecordWrittenBy(value: unknown, write: (value: unknown) => string | undefined): string {
  return '\u001e' + jsonTextOf(value, (message) => new JsonSeqError(message), write) + '\n';
}
