/**
 * JSON Lines / NDJSON (`application/jsonl`, `application/x-ndjson`): one JSON text per line.
 * Pure and incremental: text goes in chunk by chunk, each complete line's value comes out,
 * parsed as untrusted JSON (depth-limited, no `__proto__`).
 */
import { decodeChunks, jsonTextOf } from './text-chunks.js';
import { DEFAULT_MAX_DEPTH, parseJsonSafely } from './safe-json.js';

export interface JsonLinesDecoderOptions {
  /** Characters in one line (its LF not counted); default 16 MiB. */
  maxLineLength?: number;
  /** Deepest nesting accepted in one value; default `DEFAULT_MAX_DEPTH`. */
  maxDepth?: number;
}

/** A line that is not JSON or is too long, or a value that has no JSON text. */
export class JsonLinesError extends Error {
  constructor(
    message: string,
    /** The failing line, 1-based (blank lines counted); absent when writing. */
    readonly line?: number,
    /** Values completed in the same chunk before the failure, so none is lost (see `push`). */
    readonly decoded: readonly unknown[] = [],
  ) {
    super(message);
    this.name = 'JsonLinesError';
  }
}

const DEFAULT_MAX_LINE_LENGTH = 16 * 1024 * 1024;

/**
 * Reads JSON Lines incrementally: lines end at LF (a CR before it is whitespace), blank lines
 * are skipped, and a last line without LF is read by `end()`. A U+FEFF opening the stream is
 * dropped (RFC 8259 §8.1 lets a reader ignore a BOM).
 *
 * @example
 * const decoder = new JsonLinesDecoder();
 * decoder.push('{"a":1}\n{"a"') // → [{ a: 1 }]
 * decoder.push(':2}\n') // → [{ a: 2 }]
 */
export class JsonLinesDecoder {
  readonly #maxLineLength: number;
  readonly #maxDepth: number;
  #started = false;
  #pending = '';
  #lines = 0;
  #failure: JsonLinesError | undefined;

  constructor(options: JsonLinesDecoderOptions = {}) {
    const max = options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
    if (!(max > 0)) throw new RangeError(`maxLineLength must be a positive number, not ${max}`);
    this.#maxLineLength = max;
    this.#maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  }

  /**
   * The values of the lines `chunk` completes. Throws `JsonLinesError` for a line that is not
   * JSON or is longer than `maxLineLength`; its `decoded` holds the values before it in this
   * chunk. After an error the decoder stays failed.
   */
  push(chunk: string): unknown[] {
    return this.#run((out) => this.#read(chunk, out));
  }

  /** The value of a last line without LF, if any; the decoder is then ready for a new stream. */
  end(): unknown[] {
    return this.#run((out) => {
      const last = this.#pending;
      this.#started = false;
      this.#pending = '';
      if (last !== '') this.#take(last, ++this.#lines, out);
      this.#lines = 0;
    });
  }

  #run(step: (out: unknown[]) => void): unknown[] {
    if (this.#failure !== undefined) throw new JsonLinesError(this.#failure.message, this.#failure.line);
    const out: unknown[] = [];
    try {
      step(out);
    } catch (error) {
      if (!(error instanceof JsonLinesError)) throw error;
      this.#failure = error;
      throw new JsonLinesError(error.message, error.line, out);
    }
    return out;
  }

  #read(chunk: string, out: unknown[]): void {
    if (chunk === '') return;
    let start = 0;
    if (!this.#started) {
      this.#started = true;
      if (chunk.charCodeAt(0) === 0xfeff) start = 1;
    }
    for (let lf = chunk.indexOf('\n', start); lf >= 0; lf = chunk.indexOf('\n', start)) {
      const line = this.#pending + chunk.slice(start, lf);
      this.#pending = '';
      start = lf + 1;
      this.#take(line, ++this.#lines, out);
    }
    this.#pending += chunk.slice(start);
    this.#checkLength(this.#pending.length, this.#lines + 1);
  }

  #checkLength(length: number, line: number): void {
    if (length > this.#maxLineLength) {
      throw new JsonLinesError(`line ${line} is longer than ${this.#maxLineLength} characters (maxLineLength)`, line);
    }
  }

  #take(text: string, line: number, out: unknown[]): void {
    this.#checkLength(text.length, line);
    // A CR before the LF is JSON whitespace, so parsing skips it as it skips the blank lines'.
    if (/^[ \t\r]*$/.test(text)) return;
    try {
      out.push(parseJsonSafely(text, this.#maxDepth));
    } catch (error) {
      throw new JsonLinesError(`line ${line}: ${(error as Error).message}`, line);
    }
  }
}

/**
 * Reads JSON Lines from bytes (UTF-8, decoded across chunk boundaries) or text. Values before
 * a failing line are yielded before its `JsonLinesError` is thrown.
 *
 * @example
 * for await (const value of decodeJsonLines(response.body)) handle(value);
 */
export function decodeJsonLines(source: AsyncIterable<Uint8Array | string>, options: JsonLinesDecoderOptions = {}): AsyncGenerator<unknown> {
  return decodeChunks(source, new JsonLinesDecoder(options), (error) => (error instanceof JsonLinesError ? error.decoded : undefined));
}

/**
 * One line: the JSON text of `value` and an LF (JSON text never holds a raw LF). Throws
 * `JsonLinesError` for a value JSON cannot hold (`undefined`, a function, a symbol, a BigInt,
 * a cycle).
 *
 * @example
 * encodeJsonLine({ a: 1 }) // → '{"a":1}\n'
 */
export function encodeJsonLine(value: unknown): string {
  return jsonLineWrittenBy(value, JSON.stringify);
}

/** `encodeJsonLine` with the JSON text written by `write` (a schema's compiled writer, say). */
export function jsonLineWrittenBy(value: unknown, write: (value: unknown) => string | undefined): string {
  return jsonTextOf(value, (message) => new JsonLinesError(message), write) + '\n';
}
