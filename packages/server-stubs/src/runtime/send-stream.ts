/**
 * Writing a sequence (OpenAPI 3.2 `itemSchema`: Server-Sent Events, JSON Lines, JSON text
 * sequences, `multipart/mixed` parts) item by item, as the handler's iterable gives them. Each
 * item is checked against the item schema before it is written. The first item is taken before the head is sent, so a
 * handler that fails at once still gets a proper 500; once items are on their way, a failure
 * can only cut the stream off (the client then sees it incomplete, never a clean end).
 */
import type { z } from 'zod';
import { issueLines, jsonWriterOf, sequenceEncodingOf, sequenceWriter, type SequenceFormat, type SequenceWriter } from '@bank-data-sharing/wire';
import type { Exchange } from './exchange.js';
import { ContractError } from './respond.js';

/** What `encode` found for a sequence body: its format, item schema, the handler's items and their writer. */
export interface SequenceBody {
  readonly format: SequenceFormat;
  readonly itemSchema: z.ZodType;
  readonly items: unknown;
  /** Writes this one stream: its Content-Type (a multipart boundary chosen for it) and items. */
  readonly writer: SequenceWriter;
}

/** The body of a sequence sent as `contentType` (the declared one), its writer ready. */
export function sequenceBody(format: SequenceFormat, contentType: string, schema: unknown, itemSchema: z.ZodType, items: unknown, useWriters: boolean): SequenceBody {
  // Events carry text of their own. The writer is looked up once per stream, not per item.
  const json = format === 'event-stream' || !useWriters ? undefined : jsonWriterOf(itemSchema);
  const encoding = sequenceEncodingOf(schema);
  const writer = sequenceWriter(format, contentType, {
    ...(json ? { json: (value: unknown) => json(value, false) ?? JSON.stringify(value) } : {}),
    ...(encoding ? { encoding } : {}),
  });
  return { format, itemSchema, items, writer };
}

type Pull = () => Promise<IteratorResult<unknown>>;

/** The items of an iterable or async iterable, one pull at a time; undefined for anything else. */
function pullerOf(items: unknown): { pull: Pull; stop: () => Promise<void> } | undefined {
  if (items === null || (typeof items !== 'object' && typeof items !== 'function')) return undefined;
  const source = items as Partial<AsyncIterable<unknown> & Iterable<unknown>>;
  const iterator = typeof source[Symbol.asyncIterator] === 'function' ? source[Symbol.asyncIterator]!() : typeof source[Symbol.iterator] === 'function' ? source[Symbol.iterator]!() : undefined;
  if (!iterator) return undefined;
  return {
    pull: async () => await iterator.next(),
    stop: async () => {
      // The handler's `finally` blocks run here (a generator returns).
      await iterator.return?.();
    },
  };
}

/** The text (or bytes) of one item, checked first when `check` says so. */
function itemText(body: SequenceBody, item: unknown, index: number, check: boolean): string | Uint8Array {
  if (check && !body.itemSchema.validate(item)) {
    const parsed = body.itemSchema.safeParse(item);
    if (!parsed.success) throw new ContractError(`item ${index} of the ${body.format} stream does not match the item schema`, issueLines(parsed.error.issues));
  }
  try {
    return body.writer.item(item);
  } catch (error) {
    throw new ContractError(`item ${index} of the ${body.format} stream cannot be written: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Resolves when the socket can take more, or when the client has gone. */
function drained(ex: Exchange): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      ex.res.off('drain', done);
      ex.res.off('close', done);
      resolve();
    };
    ex.res.once('drain', done);
    ex.res.once('close', done);
  });
}

/**
 * Sends the head and the items. Throws `ContractError` (nothing sent yet) when the body is not
 * an iterable or its first item is invalid; later failures are reported to `onError` and end the
 * stream abruptly.
 */
export async function sendStream(ex: Exchange, status: number, headers: Readonly<Record<string, string>>, body: SequenceBody, check: boolean): Promise<void> {
  const puller = pullerOf(body.items);
  if (!puller) throw new ContractError(`a ${body.format} body is the items of an iterable or async iterable, not ${typeof body.items}`);
  const { res } = ex;
  let index = 1;
  let next: IteratorResult<unknown>;
  let text: string | Uint8Array | undefined;
  try {
    next = await puller.pull();
    text = next.done ? undefined : itemText(body, next.value, index, check);
  } catch (error) {
    await puller.stop().catch(() => undefined);
    throw error;
  }
  if (res.headersSent || res.writableEnded || res.destroyed) return void (await puller.stop());
  res.statusCode = status;
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (ex.echoInteractionId) res.setHeader('x-fapi-interaction-id', ex.interactionId);
  // Proxies and caches must pass items on as they come.
  if (res.getHeader('cache-control') === undefined) res.setHeader('cache-control', 'no-cache');
  if (ex.head) {
    res.end();
    return await puller.stop();
  }
  res.flushHeaders();
  let gone = false;
  const onClose = (): void => {
    gone = true;
  };
  res.once('close', onClose);
  try {
    while (text !== undefined && !gone) {
      if (!res.write(text)) await drained(ex);
      if (gone) break;
      next = await puller.pull();
      index++;
      text = next.done ? undefined : itemText(body, next.value, index, check);
    }
    if (gone) await puller.stop();
    else {
      // Formats that close (multipart's close delimiter) say so; a cut-off stream never gets it.
      const close = body.writer.end();
      if (close.length > 0) res.end(close);
      else res.end();
    }
  } catch (error) {
    const issues = error instanceof ContractError ? error.issues : [];
    ex.options.onError?.(error, { interactionId: ex.interactionId, operationId: ex.op?.operationId, phase: 'response', issues });
    await puller.stop().catch(() => undefined);
    // Cut off, not ended: a clean end would tell the client the stream was complete. Ending the
    // socket (not destroying it) first delivers the items already written.
    if (res.socket) res.socket.end();
    else res.destroy();
  } finally {
    res.off('close', onClose);
  }
}
