/**
 * Server-Sent Events (`text/event-stream`), read as the WHATWG HTML standard's "event stream
 * interpretation" reads them and written so that reading gives the same fields back. Pure and
 * incremental: text goes in chunk by chunk, whole events come out.
 */

/**
 * One dispatched event: the fields written in its block (OpenAPI 3.2 models each event as an
 * object of its fields). `data` is the block's data lines joined with "\n"; the others are
 * present only when the block set them.
 */
export interface ServerSentEvent {
  data: string;
  event?: string;
  id?: string;
  retry?: number;
}

/** The fields of one block to write; without `data` the block dispatches no event on reading. */
export interface EventFields {
  data?: string;
  event?: string;
  id?: string;
  retry?: number;
  comment?: string;
}

export interface EventStreamDecoderOptions {
  /** Characters buffered for one event (its data, its type and the line being read); default 1 MiB. */
  maxEventLength?: number;
  /** Called with each comment line's text (after the ':' and one optional space). */
  onComment?: (text: string) => void;
}

/** An event stream that cannot be read, or an event that cannot be written. */
export class EventStreamError extends Error {
  constructor(
    message: string,
    /** Events completed in the same chunk before the failure, so none is lost (see `push`). */
    readonly decoded: readonly ServerSentEvent[] = [],
  ) {
    super(message);
    this.name = 'EventStreamError';
  }
}

const DEFAULT_MAX_EVENT_LENGTH = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

/** The value after a field name's ':', less the one space a writer may put after it. */
function fieldValue(text: string): string {
  return text.charCodeAt(0) === SPACE ? text.slice(1) : text;
}

/**
 * Reads an event stream incrementally. `lastEventId` is the value a reconnection sends as
 * `Last-Event-ID`: the standard's last event ID, taken from the ID buffer at each blank line
 * (so an `id:` block with no data moves it too, and an unterminated block does not).
 * `end()` closes one connection's stream; the decoder keeps `lastEventId` and `retry` and can
 * read the next connection's stream.
 *
 * @example
 * const decoder = new EventStreamDecoder();
 * decoder.push('id: 7\ndata: a\n\n') // → [{ data: 'a', id: '7' }]; decoder.lastEventId === '7'
 */
export class EventStreamDecoder {
  readonly #maxEventLength: number;
  readonly #onComment: ((text: string) => void) | undefined;
  #lastEventId = '';
  #idBuffer = '';
  #retry: number | undefined;
  #comments = 0;
  // The stream's state: whether its first character (a BOM to drop) is behind, the unfinished
  // line, and whether a CR ended the last chunk (an LF opening the next belongs to it).
  #started = false;
  #pending = '';
  #afterCR = false;
  // The block being read.
  #data = '';
  #event: string | undefined;
  #blockId: string | undefined;
  #blockRetry: number | undefined;
  #failure: string | undefined;

  constructor(options: EventStreamDecoderOptions = {}) {
    const max = options.maxEventLength ?? DEFAULT_MAX_EVENT_LENGTH;
    if (!(max > 0)) throw new RangeError(`maxEventLength must be a positive number, not ${max}`);
    this.#maxEventLength = max;
    this.#onComment = options.onComment;
  }

  /** The last event ID: sent as `Last-Event-ID` when reconnecting. */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** The latest reconnection time (ms) a `retry` field gave, if any. */
  get retry(): number | undefined {
    return this.#retry;
  }

  /** How many comment lines have been read. */
  get comments(): number {
    return this.#comments;
  }

  /**
   * The events completed by `chunk`. Throws `EventStreamError` when an event outgrows
   * `maxEventLength`; the error's `decoded` holds the events completed before it in this chunk.
   * After an error, `push` throws until `end()` starts a new stream.
   */
  push(chunk: string): ServerSentEvent[] {
    if (this.#failure !== undefined) throw new EventStreamError(this.#failure);
    const out: ServerSentEvent[] = [];
    try {
      this.#read(chunk, out);
    } catch (error) {
      if (!(error instanceof EventStreamError)) throw error;
      this.#failure = error.message;
      throw new EventStreamError(error.message, out);
    }
    return out;
  }

  /**
   * Ends the stream: an unterminated last event is discarded, as the standard says, so this
   * returns no event. Never throws; clears a failure.
   */
  end(): ServerSentEvent[] {
    this.#started = false;
    this.#pending = '';
    this.#afterCR = false;
    this.#failure = undefined;
    this.#clearBlock();
    // Only a blank line commits an ID, so the buffer goes back to the committed one.
    this.#idBuffer = this.#lastEventId;
    return [];
  }

  #read(chunk: string, out: ServerSentEvent[]): void {
    if (chunk === '') return;
    let start = 0;
    if (!this.#started) {
      this.#started = true;
      if (chunk.charCodeAt(0) === 0xfeff) start = 1;
    }
    if (this.#afterCR) {
      this.#afterCR = false;
      if (chunk.charCodeAt(start) === LF) start++;
    }
    let lineStart = start;
    for (let i = start; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      const line = this.#pending + chunk.slice(lineStart, i);
      this.#pending = '';
      if (c === CR) {
        if (i + 1 === chunk.length) this.#afterCR = true;
        else if (chunk.charCodeAt(i + 1) === LF) i++;
      }
      lineStart = i + 1;
      this.#checkLength(line.length);
      this.#line(line, out);
    }
    this.#pending += chunk.slice(lineStart);
    this.#checkLength(this.#pending.length);
  }

  // Counts the line with the block's buffers, so the limit bounds memory whatever the chunking.
  #checkLength(lineLength: number): void {
    if (lineLength + this.#data.length + (this.#event?.length ?? 0) > this.#maxEventLength) {
      throw new EventStreamError(`event longer than ${this.#maxEventLength} characters (maxEventLength)`);
    }
  }

  #line(line: string, out: ServerSentEvent[]): void {
    if (line === '') return this.#dispatch(out);
    if (line.charCodeAt(0) === COLON) {
      this.#comments++;
      this.#onComment?.(fieldValue(line.slice(1)));
      return;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : fieldValue(line.slice(colon + 1));
    switch (name) {
      case 'event':
        this.#event = value;
        break;
      case 'data':
        this.#data += value + '\n';
        break;
      case 'id':
        if (!value.includes('\0')) this.#idBuffer = this.#blockId = value;
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) {
          const ms = Number(value);
          // Beyond 2^53 the digits no longer name one number; such a retry is ignored.
          if (Number.isSafeInteger(ms)) this.#retry = this.#blockRetry = ms;
        }
        break;
      default:
        break;
    }
  }

  #dispatch(out: ServerSentEvent[]): void {
    this.#lastEventId = this.#idBuffer;
    if (this.#data !== '') {
      const event: ServerSentEvent = { data: this.#data.slice(0, -1) };
      if (this.#event !== undefined) event.event = this.#event;
      if (this.#blockId !== undefined) event.id = this.#blockId;
      if (this.#blockRetry !== undefined) event.retry = this.#blockRetry;
      out.push(event);
    }
    this.#clearBlock();
  }

  #clearBlock(): void {
    this.#data = '';
    this.#event = undefined;
    this.#blockId = undefined;
    this.#blockRetry = undefined;
  }
}

/**
 * Reads an event stream of bytes (UTF-8, decoded across chunk boundaries) or text. Pass an
 * `EventStreamDecoder` instead of options to read its `lastEventId` and `retry` while iterating
 * (they are as of the event just yielded) or afterwards, to reconnect with `Last-Event-ID`; the
 * stream is ended on it however the iteration stops, so it can read the next connection's.
 *
 * @example
 * const decoder = new EventStreamDecoder();
 * for await (const event of decodeEventStream(response.body, decoder)) handle(event);
 * reconnect({ 'Last-Event-ID': decoder.lastEventId });
 */
export async function* decodeEventStream(
  source: AsyncIterable<Uint8Array | string>,
  options: EventStreamDecoderOptions | EventStreamDecoder = {},
): AsyncGenerator<ServerSentEvent> {
  const decoder = options instanceof EventStreamDecoder ? options : new EventStreamDecoder(options);
  // The decoder drops the BOM itself, once, whether the stream comes as bytes or text.
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  try {
    for await (const chunk of source) {
      yield* pushed(decoder, typeof chunk === 'string' ? utf8.decode() + chunk : utf8.decode(chunk, { stream: true }));
    }
    yield* pushed(decoder, utf8.decode());
  } finally {
    decoder.end();
  }
}

// Line by line, so each event is yielded while the decoder's lastEventId and retry are still
// those it left (a later event of the same chunk has not moved them yet).
function* pushed(decoder: EventStreamDecoder, text: string): Generator<ServerSentEvent> {
  const lineEnd = /[\r\n]/g;
  let start = 0;
  while (start < text.length) {
    const end = lineEnd.exec(text) === null ? text.length : lineEnd.lastIndex;
    yield* decoder.push(text.slice(start, end));
    start = end;
  }
}

/**
 * One event's block of lines, ending with the blank line that dispatches it. `data` is split at
 * each CRLF, CR or LF into `data` lines, so reading gives it back with its line ends as LF.
 * Throws `EventStreamError` for what no block can carry: a line end in `event`, `id` or
 * `comment`, U+0000 in `id`, a `retry` that is not a non-negative safe integer.
 *
 * @example
 * encodeEvent({ event: 'update', data: 'a\nb' }) // → 'event: update\ndata: a\ndata: b\n\n'
 */
export function encodeEvent(event: EventFields): string {
  let text = '';
  if (event.comment !== undefined) text += line('', oneLine('comment', event.comment));
  if (event.retry !== undefined) {
    const { retry } = event;
    if (!Number.isSafeInteger(retry) || retry < 0) throw new EventStreamError(`retry must be a non-negative safe integer, not ${retry}`);
    text += line('retry', String(retry));
  }
  if (event.id !== undefined) {
    // Readers ignore an ID holding U+0000, so it would not arrive.
    if (event.id.includes('\0')) throw new EventStreamError('id must not contain U+0000');
    text += line('id', oneLine('id', event.id));
  }
  if (event.event !== undefined) text += line('event', oneLine('event', event.event));
  if (event.data !== undefined) {
    for (const part of event.data.split(/\r\n|\r|\n/)) text += line('data', part);
  }
  return text + '\n';
}

function oneLine(field: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new EventStreamError(`${field} must not contain CR or LF`);
  return value;
}

// One space after the colon, so a value that starts with a space keeps it when read.
function line(name: string, value: string): string {
  return value === '' ? `${name}:\n` : `${name}: ${value}\n`;
}
