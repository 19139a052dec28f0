// The schema of a sequence (OpenAPI 3.2 `itemSchema`); written beside the runtime only for an API
// that has one, so that other APIs' generated files stay as they were.
import { z } from 'zod';

/**
 * The body of a sequential media type (OpenAPI 3.2 `itemSchema`: Server-Sent Events, JSON Lines,
 * JSON text sequences, the parts of `multipart/mixed`): its items, one at a time. Received as an async iterable; a sender may
 * hand over any iterable (an array, a generator).
 */
export type Sequence<T> = AsyncIterable<T>;

/** Where a sequence schema keeps its item schema (zod's `bag`); read by the wire package. */
const SEQUENCE_ITEM = 'bdsSequenceItem';

/** Where it keeps the part encodings of a positional multipart sequence; read by the wire package too. */
const SEQUENCE_ENCODING = 'bdsSequenceEncoding';

/** A part header an Encoding Object declares: a required one must come; a default is written. */
export interface PartHeader {
  readonly required?: boolean;
  readonly default?: unknown;
}

/** One Encoding Object of OpenAPI 3.2 `prefixEncoding` or `itemEncoding`. */
export interface PartEncoding {
  /** As written: one media type, a list, or ranges (`image/*`). */
  readonly contentType?: string;
  readonly headers?: { readonly [name: string]: PartHeader };
}

/** How the parts of a positional multipart sequence (`multipart/mixed`) are encoded, by position. */
export interface SequenceEncoding {
  readonly prefixEncoding?: readonly PartEncoding[];
  readonly itemEncoding?: PartEncoding;
}

function isIterable(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const members = value as { [Symbol.asyncIterator]?: unknown; [Symbol.iterator]?: unknown };
  return typeof members[Symbol.asyncIterator] === 'function' || typeof members[Symbol.iterator] === 'function';
}

/**
 * A sequence of items of `item`. The schema itself accepts any iterable: items are checked one by
 * one as they are written or read (by the server stubs and the client), never gathered first.
 * `encoding`: for `multipart/mixed`, the media type (and headers) of each part by position.
 */
export function sequence<T extends z.ZodType>(item: T, encoding?: SequenceEncoding): z.ZodType<Sequence<z.output<T>>, Sequence<z.input<T>> | Iterable<z.input<T>>> {
  const schema = z.custom<unknown>(isIterable, { message: 'expected the items of a sequence (an iterable)' });
  schema._zod.bag[SEQUENCE_ITEM] = item;
  if (encoding !== undefined) schema._zod.bag[SEQUENCE_ENCODING] = encoding;
  return schema as unknown as z.ZodType<Sequence<z.output<T>>, Sequence<z.input<T>> | Iterable<z.input<T>>>;
}
