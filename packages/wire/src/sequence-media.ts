/**
 * The sequential media types of OpenAPI 3.2 (`itemSchema`): which of them a content type is,
 * the item schema the generated validators keep on a sequence's schema, and how one item is
 * written and a stream of them read, whatever the format. Server and client both go through
 * here, so the two ends agree on every byte.
 */
import { parsedMediaType } from './content-negotiation.js';
import { decodeEventStream, encodeEvent, EventStreamDecoder, type EventFields, type ServerSentEvent } from './event-stream.js';
import { decodeJsonLines, encodeJsonLine, JsonLinesDecoder } from './json-lines.js';
import { decodeJsonSeq, encodeJsonSeqRecord, JsonSeqDecoder } from './json-seq.js';

/** `event-stream`: Server-Sent Events; `json-lines`: JSON Lines and NDJSON; `json-seq`: RFC 7464. */
export type SequenceFormat = 'event-stream' | 'json-lines' | 'json-seq';

const FORMATS: Readonly<Record<string, SequenceFormat>> = {
  'text/event-stream': 'event-stream',
  'application/jsonl': 'json-lines',
  'application/x-ndjson': 'json-lines',
  'application/x-jsonlines': 'json-lines',
  'application/json-seq': 'json-seq',
};

/** The sequence format of a content type, or undefined for one that is not read item by item. */
export function sequenceFormat(contentType: string): SequenceFormat | undefined {
  const media = parsedMediaType(contentType);
  return media ? FORMATS[`${media.type}/${media.subtype}`] : undefined;
}

/** Where the generated validators keep a sequence's item schema (zod's `bag`); the two must agree. */
const SEQUENCE_ITEM = 'bdsSequenceItem';

/** The item schema of a sequence's schema (the validators' `rt.sequence`), or undefined. */
export function sequenceItemOf<T = unknown>(schema: unknown): T | undefined {
  const bag = (schema as { _zod?: { bag?: Record<string, unknown> } } | null | undefined)?._zod?.bag;
  return bag?.[SEQUENCE_ITEM] as T | undefined;
}

/** An item that cannot be written in its format (an event without `data`, a value JSON cannot hold). */
export class SequenceItemError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SequenceItemError';
  }
}

function eventFields(item: unknown): EventFields {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new SequenceItemError('an event must be an object of its fields (data, event, id, retry)');
  const { data, event, id, retry } = item as Record<string, unknown>;
  const fields: EventFields = {};
  if (typeof data !== 'string') throw new SequenceItemError('an event needs its data as a string (a stream reader dispatches no event without data)');
  fields.data = data;
  for (const [name, value] of [['event', event], ['id', id]] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'string') throw new SequenceItemError(`an event's ${name} must be a string`);
    fields[name] = value;
  }
  if (retry !== undefined) {
    if (typeof retry !== 'number') throw new SequenceItemError("an event's retry must be a number of milliseconds");
    fields.retry = retry;
  }
  return fields;
}

/**
 * The text of one item in its format. `json` writes an item's JSON text (the schema's compiled
 * writer, say); JSON.stringify by default. Throws `SequenceItemError`, or the format's own
 * error, for an item the format cannot carry.
 */
export function encodeSequenceItem(format: SequenceFormat, item: unknown, json: (value: unknown) => string | undefined = JSON.stringify): string {
  if (format === 'event-stream') return encodeEvent(eventFields(item));
  if (format === 'json-lines') return json === JSON.stringify ? encodeJsonLine(item) : `${jsonText(json, item)}\n`;
  return json === JSON.stringify ? encodeJsonSeqRecord(item) : `\u001e${jsonText(json, item)}\n`;
}

function jsonText(json: (value: unknown) => string | undefined, item: unknown): string {
  const text = json(item);
  if (text === undefined) throw new SequenceItemError('the item has no JSON text (undefined, a function or a symbol)');
  return text;
}

export interface SequenceReadOptions {
  /** Server-Sent Events: the decoder to read with, whose `lastEventId` and `retry` a reconnection needs. */
  eventStream?: EventStreamDecoder;
  /** The longest item (characters) read before the stream is refused; each format's default otherwise. */
  maxItemLength?: number;
}

/** The items of a stream of bytes or text in its format, raw (not yet checked against a schema). */
export function decodeSequence(format: SequenceFormat, source: AsyncIterable<Uint8Array | string>, options: SequenceReadOptions = {}): AsyncGenerator<unknown> {
  const limit = options.maxItemLength;
  if (format === 'event-stream') {
    const decoder = options.eventStream ?? new EventStreamDecoder(limit === undefined ? {} : { maxEventLength: limit });
    return decodeEventStream(source, decoder) as AsyncGenerator<ServerSentEvent>;
  }
  if (format === 'json-lines') return decodeJsonLines(source, limit === undefined ? {} : { maxLineLength: limit });
  return decodeJsonSeq(source, limit === undefined ? {} : { maxRecordLength: limit });
}

/** The items of a whole stream already read as text, raw; throws the format's error where it breaks. */
export function decodeSequenceText(format: SequenceFormat, text: string): unknown[] {
  const decoder = format === 'event-stream' ? new EventStreamDecoder() : format === 'json-lines' ? new JsonLinesDecoder() : new JsonSeqDecoder();
  return [...decoder.push(text), ...decoder.end()];
}
