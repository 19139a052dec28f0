/**
 * The sequential media types of OpenAPI 3.2 (`itemSchema`): which of them a content type is,
 * the item schema (and part encodings) the generated validators keep on a sequence's schema,
 * and how one item is written and a stream of them read, whatever the format. Server and
 * client both go through here, so the two ends agree on every byte.
 */
import { parsedMediaType } from './content-negotiation.js';
import { decodeEventStream, encodeEvent, EventStreamDecoder, EventStreamError, type EventFields, type ServerSentEvent } from './event-stream.js';
import { decodeJsonLines, JsonLinesDecoder, JsonLinesError, jsonLineWrittenBy } from './json-lines.js';
import { decodeJsonSeq, JsonSeqDecoder, JsonSeqError, jsonSeqRecordWrittenBy } from './json-seq.js';
import { itemOfPart, partEncodingAt, partOfItem, type SequenceEncoding } from './multipart-items.js';
import { boundaryOf, decodeMultipartMixed, MultipartMixedDecoder, MultipartMixedError, type MultipartPart } from './multipart-mixed-read.js';
import { MultipartMixedEncoder } from './multipart-mixed-write.js';
import { SequenceItemError } from './sequence-item-error.js';

export { SequenceItemError } from './sequence-item-error.js';

/**
 * `event-stream`: Server-Sent Events; `json-lines`: JSON Lines and NDJSON; `json-seq`: RFC 7464;
 * `multipart-mixed`: RFC 2046 `multipart/mixed`, one item per part.
 */
export type SequenceFormat = 'event-stream' | 'json-lines' | 'json-seq' | 'multipart-mixed';

const FORMATS: Readonly<Record<string, SequenceFormat>> = {
  'text/event-stream': 'event-stream',
  'application/jsonl': 'json-lines',
  'application/x-ndjson': 'json-lines',
  'application/x-jsonlines': 'json-lines',
  'application/json-seq': 'json-seq',
  'multipart/mixed': 'multipart-mixed',
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

/** Where the generated validators keep a positional multipart sequence's part encodings. */
const SEQUENCE_ENCODING = 'bdsSequenceEncoding';

/** The part encodings of a sequence's schema (`prefixEncoding`, `itemEncoding`), or undefined. */
export function sequenceEncodingOf(schema: unknown): SequenceEncoding | undefined {
  const bag = (schema as { _zod?: { bag?: Record<string, unknown> } } | null | undefined)?._zod?.bag;
  return bag?.[SEQUENCE_ENCODING] as SequenceEncoding | undefined;
}

/** An error a sequence's format raises for a stream or item that cannot be read: a bad item, never the network. */
export function isSequenceFormatError(error: unknown): error is EventStreamError | JsonLinesError | JsonSeqError | MultipartMixedError {
  return error instanceof EventStreamError || error instanceof JsonLinesError || error instanceof JsonSeqError || error instanceof MultipartMixedError;
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
  if (format === 'json-lines') return jsonLineWrittenBy(item, json);
  // A part needs the body's boundary and its position: `sequenceWriter` holds both.
  if (format === 'multipart-mixed') throw new SequenceItemError('a multipart/mixed item is written by sequenceWriter, which holds the boundary of its body');
  return jsonSeqRecordWrittenBy(item, json);
}

export interface SequenceReadOptions {
  /** Server-Sent Events: the decoder to read with, whose `lastEventId` and `retry` a reconnection needs. */
  eventStream?: EventStreamDecoder;
  /** The longest item (characters; bytes of a part) read before the stream is refused; each format's default otherwise. */
  maxItemLength?: number;
  /** `multipart/mixed`: the Content-Type received, whose `boundary` the body is read by. */
  contentType?: string;
  /** `multipart/mixed`: the part encodings declared (`sequenceEncodingOf`); each part's type is checked against its own. */
  encoding?: SequenceEncoding;
}

/** The items of a stream of bytes or text in its format, raw (not yet checked against a schema). */
export function decodeSequence(format: SequenceFormat, source: AsyncIterable<Uint8Array | string>, options: SequenceReadOptions = {}): AsyncGenerator<unknown> {
  const limit = options.maxItemLength;
  if (format === 'event-stream') {
    const decoder = options.eventStream ?? new EventStreamDecoder(limit === undefined ? {} : { maxEventLength: limit });
    return decodeEventStream(source, decoder) as AsyncGenerator<ServerSentEvent>;
  }
  if (format === 'json-lines') return decodeJsonLines(source, limit === undefined ? {} : { maxLineLength: limit });
  if (format === 'multipart-mixed') return multipartItems(source, options);
  return decodeJsonSeq(source, limit === undefined ? {} : { maxRecordLength: limit });
}

function receivedBoundary(contentType: string | undefined): string {
  const boundary = boundaryOf(contentType);
  if (boundary === undefined) throw new MultipartMixedError(`the Content-Type ${contentType ?? '(none)'} names no boundary, which a multipart/mixed body is read by`);
  return boundary;
}

async function* multipartItems(source: AsyncIterable<Uint8Array | string>, options: SequenceReadOptions): AsyncGenerator<unknown> {
  const boundary = receivedBoundary(options.contentType);
  let index = 0;
  for await (const part of decodeMultipartMixed(source, boundary, options.maxItemLength === undefined ? {} : { maxPartSize: options.maxItemLength })) {
    yield itemOfPart(part, index + 1, partEncodingAt(options.encoding, index));
    index++;
  }
}

/**
 * The boundary of a multipart body read without its Content-Type: the first line opening with
 * `--`. When that line ends with `--` too, it is the close delimiter of a body of no part,
 * unless the body closes with that whole line as its boundary.
 */
function boundaryInText(text: string): string {
  const line = /(?:^|\r\n)--([^\r\n]*)/.exec(text)?.[1]?.trimEnd();
  if (line === undefined) throw new MultipartMixedError('no boundary delimiter was found');
  return line.endsWith('--') && !text.includes(`--${line}--`) ? line.slice(0, -2) : line;
}

/**
 * The items of a whole stream already read as text, raw; throws the format's error where it
 * breaks. A `multipart/mixed` body is read by the boundary of `options.contentType`, or the
 * one its first delimiter shows.
 */
export function decodeSequenceText(format: SequenceFormat, text: string, options: Pick<SequenceReadOptions, 'contentType' | 'encoding'> = {}): unknown[] {
  if (format === 'multipart-mixed') {
    const decoder = new MultipartMixedDecoder(options.contentType === undefined ? boundaryInText(text) : receivedBoundary(options.contentType));
    const parts: MultipartPart[] = [...decoder.push(new TextEncoder().encode(text)), ...decoder.end()];
    return parts.map((part, index) => itemOfPart(part, index + 1, partEncodingAt(options.encoding, index)));
  }
  const decoder = format === 'event-stream' ? new EventStreamDecoder() : format === 'json-lines' ? new JsonLinesDecoder() : new JsonSeqDecoder();
  return [...decoder.push(text), ...decoder.end()];
}

/** Writes one stream of a sequence, item by item (see `sequenceWriter`). */
export interface SequenceWriter {
  /** The Content-Type to send: the declared one, with the body's boundary for `multipart/mixed`. */
  readonly contentType: string;
  /** One item in the format; throws `SequenceItemError` (or the format's error) for one it cannot carry. */
  item(item: unknown): string | Uint8Array;
  /** What closes the stream: nothing but for `multipart/mixed`, whose close delimiter it is. */
  end(): string | Uint8Array;
}

export interface SequenceWriterOptions {
  /** Writes an item's JSON text (the schema's compiled writer, say); JSON.stringify by default. */
  json?: (value: unknown) => string | undefined;
  /** `multipart/mixed`: the part encodings declared (`sequenceEncodingOf`). */
  encoding?: SequenceEncoding;
  /** `multipart/mixed`: the boundary; a new random one by default. */
  boundary?: string;
}

/**
 * A writer of one stream in `format`, sent as `contentType` (the declared media type). For
 * `multipart/mixed` each item is one part, in the media type its encoding gives.
 *
 * @example
 * const writer = sequenceWriter('multipart-mixed', 'multipart/mixed', { encoding });
 * res.setHeader('content-type', writer.contentType);
 * for (const item of items) res.write(writer.item(item));
 * res.end(writer.end());
 */
export function sequenceWriter(format: SequenceFormat, contentType: string, options: SequenceWriterOptions = {}): SequenceWriter {
  const json = options.json ?? JSON.stringify;
  if (format !== 'multipart-mixed') return { contentType, item: (item) => encodeSequenceItem(format, item, json), end: () => '' };
  // A boundary the declared type already names is the one to write by.
  const parsed = parsedMediaType(contentType);
  const declared = parsed?.params.get('boundary');
  const encoder = new MultipartMixedEncoder(declared ?? options.boundary);
  return {
    contentType: declared === undefined ? encoder.contentType(contentType) : contentType,
    item: (item) => {
      const { headers, body } = partOfItem(item, partEncodingAt(options.encoding, encoder.parts), json);
      return encoder.part(headers, body);
    },
    end: () => encoder.end(),
  };
}
