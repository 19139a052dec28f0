/**
 * An answer's body as the bytes arrive, for bodies read item by item (sequential media types)
 * rather than whole. Both transports hand theirs out through `BodyChunks`, whose `return()`
 * closes the connection at once: a stream may never end by itself, so it is never drained.
 */
import { pipeline, type Readable } from 'node:stream';
import { decodersOf } from './content-codings.js';

/** Why a read that was pending when the body was let go of failed (never a partial item). */
function bodyClosedError(): DOMException {
  return new DOMException('the body was let go of before it ended', 'AbortError');
}

/**
 * The chunks of one body, read once. `return()` lets go of the body at once: before the first
 * read (a stream nobody reads still gives its connection back), or while a read is pending
 * (that read then rejects with `bodyClosedError()`, so no reader mistakes it for the end).
 */
export class BodyChunks implements AsyncIterableIterator<Uint8Array> {
  #state: 'open' | 'ended' | 'closed' = 'open';
  readonly #read: () => Promise<Uint8Array | undefined>;
  readonly #close: () => void;

  /** `read` gives the next chunk, or undefined at the end; `close` lets go of the body. */
  constructor(read: () => Promise<Uint8Array | undefined>, close: () => void) {
    this.#read = read;
    this.#close = close;
  }

  async next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#state === 'ended') return { done: true, value: undefined };
    if (this.#state === 'closed') throw bodyClosedError();
    let chunk: Uint8Array | undefined;
    try {
      chunk = await this.#read();
    } catch (error) {
      // The transport's own complaint about a body we closed says less than ours.
      if (this.#closed) throw bodyClosedError();
      throw error;
    }
    if (this.#closed) throw bodyClosedError();
    if (chunk === undefined) {
      this.#state = 'ended';
      return { done: true, value: undefined };
    }
    return { done: false, value: chunk };
  }

  // A read may end after `return()` closed the body meanwhile: the state is read afresh.
  get #closed(): boolean {
    return this.#state === 'closed';
  }

  async return(): Promise<IteratorResult<Uint8Array, undefined>> {
    // A body read to its end has nothing left to let go of (and its connection may serve another request).
    if (this.#state === 'open') {
      this.#state = 'closed';
      this.#close();
    }
    return { done: true, value: undefined };
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

/**
 * The chunks of an undici body, decompressed as they come. Like `fetch`, a body in a coding
 * it does not know is handed on as it came.
 */
export function readableChunks(body: Readable, codings: readonly string[]): BodyChunks {
  const decoders = decodersOf(codings);
  // pipeline destroys every stage when one fails, and passes the failure to the last.
  const source: Readable = decoders ? (pipeline([body, ...decoders.map((d) => d.stream())], () => undefined) as unknown as Readable) : body;
  const chunks = source[Symbol.asyncIterator]();
  return new BodyChunks(
    async () => {
      const next = await chunks.next();
      return next.done ? undefined : (next.value as Uint8Array);
    },
    () => {
      // Destroying an unfinished undici body aborts its request, which closes the connection.
      body.destroy();
      if (source !== body) source.destroy();
    },
  );
}

/** The chunks of a `fetch` response's body (which `fetch` has decompressed already). */
export function responseChunks(response: Response): BodyChunks {
  const body = response.body;
  if (body === null) return new BodyChunks(async () => undefined, () => undefined);
  const reader = body.getReader();
  return new BodyChunks(
    async () => {
      const next = await reader.read();
      return next.done ? undefined : next.value;
    },
    () => {
      reader.cancel().catch(() => undefined);
    },
  );
}

/** Lets go of an answer's body unread, closing its connection at once (a stream is never drained). */
export function closeUnread(answer: { chunks(): AsyncIterable<Uint8Array> }): void {
  void answer.chunks()[Symbol.asyncIterator]().return?.();
}
