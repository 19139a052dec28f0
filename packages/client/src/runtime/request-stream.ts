/**
 * A request body of a sequential media type (OpenAPI 3.2 `itemSchema`: JSON Lines, JSON text
 * sequences, Server-Sent Events, `multipart/mixed` parts) sent from the caller's iterable or
 * async iterable: each item is checked with the item schema (when validating) and encoded just
 * before it goes out, so the items are never gathered in memory. Such a body is read once, so a
 * call never repeats it.
 */
import { sequenceWriter, type SequenceEncoding, type SequenceFormat, type SequenceWriter } from '@bank-data-sharing/wire';
import { RequestError } from './errors.js';
import { assertRequestJson, assertRequestValue } from './request-check.js';
import type { SchemaLike } from './types.js';

const utf8 = new TextEncoder();

const bytesOf = (chunk: string | Uint8Array): Uint8Array => (typeof chunk === 'string' ? utf8.encode(chunk) : chunk);

export interface StreamedBodyInit {
  operationId: string;
  format: SequenceFormat;
  /** The media type chosen; `contentType` adds what the body needs to it (a multipart boundary). */
  mediaType: string;
  /** `multipart/mixed`: the media type of each part, by position. */
  encoding?: SequenceEncoding;
  /** The declared item schema; items are not checked without one. */
  itemSchema: SchemaLike | undefined;
  items: Iterable<unknown> | AsyncIterable<unknown>;
  /** Check each item before it is sent. */
  validate: boolean;
}

export class StreamedRequestBody {
  readonly #init: StreamedBodyInit;
  // One writer for the one pass there is: a multipart boundary is chosen once, here.
  readonly #writer: SequenceWriter;
  #chunks: AsyncGenerator<Uint8Array> | undefined;
  #failed = false;
  #failure: unknown;

  constructor(init: StreamedBodyInit) {
    this.#init = init;
    this.#writer = sequenceWriter(init.format, init.mediaType, init.encoding ? { encoding: init.encoding } : {});
  }

  /** The Content-Type to send the body with. */
  get contentType(): string {
    return this.#writer.contentType;
  }

  /** True once an item was refused or the caller's iterable threw: the request was cut short. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Why the body stopped (a `RequestValidationError`, a `RequestError`, or what the caller's iterable threw). */
  get failure(): unknown {
    return this.#failure;
  }

  /**
   * The bytes to send, produced as the transport pulls them; there is only one pass over the
   * items. The first item is pulled, checked and encoded here, before the request goes out, so
   * that refusing it sends nothing (this rejects with the failure).
   */
  async open(): Promise<AsyncIterable<Uint8Array>> {
    if (this.#chunks !== undefined) throw new RequestError(`${this.#init.operationId}: a streamed request body can be sent once`);
    const chunks = this.#produce();
    this.#chunks = chunks;
    let first: IteratorResult<Uint8Array> | undefined = await chunks.next();
    const iterator: AsyncIterator<Uint8Array> = {
      next: async () => {
        const taken = first;
        first = undefined;
        return taken ?? (await chunks.next());
      },
      return: async () => {
        first = undefined;
        return await chunks.return(undefined);
      },
    };
    return { [Symbol.asyncIterator]: () => iterator };
  }

  /**
   * Lets go of the caller's items (their iterator's `return()` runs) when the request ended
   * without the transport reading them all: no connection, or an answer before the end.
   */
  close(): void {
    this.#chunks?.return(undefined).catch(() => undefined);
  }

  async *#produce(): AsyncGenerator<Uint8Array> {
    let index = 0;
    try {
      // Bounded by the caller's iterable: the transport pulls one item per chunk it sends.
      for await (const item of this.#init.items) {
        index++;
        yield bytesOf(this.#encode(item, index));
      }
      const close = this.#writer.end();
      if (close.length > 0) yield bytesOf(close);
    } catch (error) {
      // Recorded, since a transport reports a failed body in words of its own.
      this.#failed = true;
      this.#failure = error;
      throw error;
    }
  }

  #encode(item: unknown, index: number): string | Uint8Array {
    const { operationId, format, itemSchema, validate } = this.#init;
    const place = `item ${index}: `;
    let written: string | Uint8Array;
    try {
      // The item as the caller gave it: the server parses it with the same schema.
      written = this.#writer.item(item);
    } catch (error) {
      // An item the contract refuses is named as such, before the format's complaint.
      if (validate && itemSchema !== undefined) assertRequestValue(itemSchema, item, operationId, place);
      throw new RequestError(`${operationId}: item ${index} of the request body cannot be sent as ${format}: ${(error as Error).message}`);
    }
    if (validate && itemSchema !== undefined) assertRequestJson(itemSchema, item, writtenJsonText(format, written), operationId, place);
    return written;
  }
}

/** The JSON text of a JSON Lines line or a JSON text sequence record; undefined for other formats. */
function writtenJsonText(format: SequenceFormat, written: string | Uint8Array): string | undefined {
  if (typeof written !== 'string') return undefined;
  // A line is the JSON text and LF; a record is RS, the JSON text, LF (white space JSON.parse skips).
  if (format === 'json-lines') return written;
  if (format === 'json-seq') return written.slice(1);
  return undefined;
}
