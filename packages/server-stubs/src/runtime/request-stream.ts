/**
 * A request body that is a sequence (OpenAPI 3.2 `itemSchema`, e.g. a JSON Lines upload, or the
 * parts of `multipart/mixed`): the
 * handler receives its items as an async iterable, read from the socket as it iterates and each
 * checked against the item schema first. An item that cannot be read or does not match ends the
 * iteration with `RequestItemError`, an `ApiError` (400 in the spec's error shape) that the
 * router answers with when the handler lets it through.
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { decodeSequence, FAILURES, isSequenceFormatError, issueLines, type SequenceEncoding, type SequenceFormat } from '@bank-data-sharing/wire';
import { ApiError } from './api-error.js';

/** One item of a streamed request body that cannot be read or breaks the item schema. */
export class RequestItemError extends ApiError {
  constructor(
    /** 1-based position of the item in the stream. */
    readonly item: number,
    reason: string,
    cause?: unknown,
  ) {
    super(FAILURES.invalidBody.status, FAILURES.invalidBody.code, `body: item ${item}: ${reason}`, { path: `$[${item - 1}]`, ...(cause === undefined ? {} : { cause }) });
    this.name = 'RequestItemError';
  }
}

export interface RequestItemsOptions {
  readonly format: SequenceFormat;
  readonly itemSchema: z.ZodType;
  /** Check each item (the router's `validateRequests`). */
  readonly validate: boolean;
  /** The longest item, in characters (bytes of a part). */
  readonly maxItemLength: number;
  /** The request's Content-Type: a `multipart/mixed` body is read by its boundary. */
  readonly contentType?: string;
  /** `multipart/mixed`: the part encodings declared; each part's type is checked against its own. */
  readonly encoding?: SequenceEncoding;
}

async function* items(req: IncomingMessage, options: RequestItemsOptions): AsyncGenerator<unknown> {
  let index = 0;
  const source = decodeSequence(options.format, req, {
    maxItemLength: options.maxItemLength,
    ...(options.contentType === undefined ? {} : { contentType: options.contentType }),
    ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
  });
  while (true) {
    let next: IteratorResult<unknown>;
    try {
      next = await source.next();
    } catch (error) {
      // Only the format's own errors are a bad item; a client that went away is not.
      if (!isSequenceFormatError(error)) throw error;
      // Counted as the client counts: the items handed out before it, plus one (a line number counts blank lines too).
      throw new RequestItemError(index + 1, error instanceof Error ? error.message : String(error), error);
    }
    if (next.done) return;
    index++;
    if (!options.validate) {
      yield next.value;
      continue;
    }
    const parsed = options.itemSchema.safeParse(next.value);
    if (!parsed.success) throw new RequestItemError(index, issueLines(parsed.error.issues).join('; '));
    yield parsed.data;
  }
}

/** The items of a streamed request body, read once as the handler iterates. */
export function requestItems(req: IncomingMessage, options: RequestItemsOptions): AsyncIterable<unknown> {
  return items(req, options);
}
