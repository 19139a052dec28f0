/**
 * The body of a sequence answer as the caller gets it: a single-use async iterable of items,
 * decoded as the bytes arrive and, when validating, checked one by one with the item schema.
 * Leaving the loop early, or the caller's signal, closes the connection. An event stream that
 * breaks off may be resumed: the request is sent again with `Last-Event-ID`.
 */
import { decodeSequence, EventStreamDecoder, isSequenceFormatError, type SequenceReadOptions } from '@bank-data-sharing/wire';
import { formatIssues } from './decode.js';
import { NetworkError, ResponseValidationError } from './errors.js';
import type { ClientEvent } from './execute.js';
import type { ResolvedResume } from './resume.js';
import { abortReason } from './retry.js';
import type { DeclaredSequence } from './sequence-answer.js';
import type { HttpAnswer } from './transport.js';
import { checkValue } from './validation.js';

/** One connection's answer, its body unread. */
export interface SequenceConnection {
  answer: HttpAnswer;
  status: number;
  interactionId: string | undefined;
}

export interface ItemStreamInit {
  operationId: string;
  url: string;
  sequence: DeclaredSequence;
  validate: boolean;
  signal: AbortSignal | undefined;
  first: SequenceConnection;
  /** How an event stream that breaks off is resumed; undefined: the break fails the iteration. */
  resume: ResolvedResume | undefined;
  /** Sends the request again (with `Last-Event-ID` when given); undefined when the server says not to. */
  reopen: (lastEventId: string | undefined) => Promise<SequenceConnection | undefined>;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  onEvent: ((event: ClientEvent) => void) | undefined;
}

/** How the reading of one connection stopped short of its end: the network's error. */
interface Break {
  cause: unknown;
}

/** How one connection's body is read: the event decoder kept across connections, a multipart body's boundary and part types. */
function readOptions(connection: SequenceConnection, sequence: DeclaredSequence, decoder: EventStreamDecoder | undefined): SequenceReadOptions {
  if (decoder) return { eventStream: decoder };
  if (sequence.format !== 'multipart-mixed') return {};
  const contentType = connection.answer.header('content-type') ?? undefined;
  return { ...(contentType === undefined ? {} : { contentType }), ...(sequence.encoding ? { encoding: sequence.encoding } : {}) };
}

/**
 * Single use: a second loop over it throws. Its iterator's `return()` closes the connection even
 * before the first item is asked for.
 */
class ItemStream implements AsyncIterableIterator<unknown> {
  readonly #init: ItemStreamInit;
  readonly #items: AsyncGenerator<unknown>;
  /** The body being read: what an abort, or leaving early, closes. */
  #body: AsyncIterator<Uint8Array>;
  #taken = false;
  #started = false;
  /** Items handed out (or refused) so far, over every connection: they are numbered from 1. */
  #count = 0;
  readonly #onAbort = (): void => {
    void this.#body.return?.();
  };

  constructor(init: ItemStreamInit) {
    this.#init = init;
    this.#body = init.first.answer.chunks()[Symbol.asyncIterator]();
    this.#items = this.#run();
    // From now, not from the first read: an abort also lets go of a stream nobody reads.
    init.signal?.addEventListener('abort', this.#onAbort, { once: true });
    if (init.signal?.aborted) this.#onAbort();
  }

  [Symbol.asyncIterator](): this {
    if (this.#taken) throw new TypeError(`${this.#init.operationId}: the items of a stream can be read once`);
    this.#taken = true;
    return this;
  }

  next(): Promise<IteratorResult<unknown>> {
    this.#started = true;
    return this.#items.next();
  }

  async return(value?: unknown): Promise<IteratorResult<unknown>> {
    // A generator not yet started runs no `finally`: its connection is let go of here.
    if (!this.#started) {
      this.#started = true;
      await this.#release();
    }
    return await this.#items.return(value);
  }

  async #release(): Promise<void> {
    this.#init.signal?.removeEventListener('abort', this.#onAbort);
    await this.#body.return?.();
  }

  async *#run(): AsyncGenerator<unknown> {
    const { operationId, url, sequence, resume, signal } = this.#init;
    // One decoder for every connection: it keeps the last event ID and `retry` across them.
    const decoder = sequence.format === 'event-stream' ? new EventStreamDecoder() : undefined;
    let connection: SequenceConnection | undefined = this.#init.first;
    let failure: NetworkError | undefined;
    try {
      // Bounded: each pass ends the stream, throws, or uses one of `maxReconnects`.
      for (let reconnects = 0; ; reconnects++) {
        if (connection !== undefined) {
          const broke = yield* this.#read(connection, decoder);
          if (broke === undefined) return;
          failure = new NetworkError(operationId, url, broke.cause, 'body');
        }
        if (resume === undefined || decoder === undefined || reconnects >= resume.maxReconnects) throw failure!;
        // The stream's `retry` field, when it sent one, is the server's word on how long to wait.
        const delayMs = decoder.retry ?? resume.delayMs;
        const lastEventId = decoder.lastEventId === '' ? undefined : decoder.lastEventId;
        this.#init.onEvent?.({ type: 'reconnect', operationId, url, reconnect: reconnects + 1, delayMs, lastEventId });
        await this.#init.sleep(delayMs, signal);
        try {
          connection = await this.#init.reopen(lastEventId);
        } catch (error) {
          // No answer to the reconnection is one more break; any other failure is the server's answer.
          if (!(error instanceof NetworkError)) throw error;
          connection = undefined;
          failure = error;
          continue;
        }
        if (connection === undefined) return;
        this.#body = connection.answer.chunks()[Symbol.asyncIterator]();
        if (signal?.aborted) throw abortReason(signal);
      }
    } finally {
      await this.#release();
    }
  }

  /** The items of one connection; returns how it broke off, or undefined at its clean end. */
  async *#read(connection: SequenceConnection, decoder: EventStreamDecoder | undefined): AsyncGenerator<unknown, Break | undefined> {
    const { sequence, signal } = this.#init;
    const body = this.#body;
    let broke: Break | undefined;
    // The body's chunks, its failures marked as the network's (not the format's).
    const source = async function* (): AsyncGenerator<Uint8Array> {
      for (;;) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await body.next();
        } catch (cause) {
          broke = { cause };
          throw cause;
        }
        if (next.done) return;
        yield next.value;
      }
    };
    try {
      for await (const raw of decodeSequence(sequence.format, source(), readOptions(connection, sequence, decoder))) {
        // Items decoded with the chunk the abort cut short are not handed out.
        if (signal?.aborted) throw abortReason(signal);
        yield this.#checked(raw, ++this.#count, connection);
      }
      return undefined;
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (broke !== undefined && error === broke.cause) return broke;
      if (isSequenceFormatError(error)) throw this.#invalid(connection, [`item ${this.#count + 1}: ${error.message}`]);
      throw error;
    }
  }

  #checked(raw: unknown, index: number, connection: SequenceConnection): unknown {
    if (!this.#init.validate) return raw;
    const checked = checkValue(this.#init.sequence.itemSchema, raw);
    if (checked.ok) return checked.value;
    throw this.#invalid(
      connection,
      formatIssues(checked.issues).map((issue) => `item ${index}: ${issue}`),
    );
  }

  #invalid(connection: SequenceConnection, issues: string[]): ResponseValidationError {
    const { operationId, url } = this.#init;
    return new ResponseValidationError({ status: connection.status, operationId, url, interactionId: connection.interactionId, issues, what: 'the body' });
  }
}

/** The items of a sequence answer (see `ItemStream`). */
export function itemStream(init: ItemStreamInit): AsyncIterable<unknown> {
  return new ItemStream(init);
}
