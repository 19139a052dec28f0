/**
 * Reads request bodies with a size limit, so that no request body can exhaust memory: an
 * announced `Content-Length` over the limit is refused before reading, and a streamed body is
 * cut off as soon as it crosses the limit. Decoding the bytes by media type is
 * `@bank-data-sharing/wire`'s (body-decode.ts).
 */
import type { IncomingMessage } from 'node:http';

export const DEFAULT_BODY_LIMIT = 256 * 1024;

/** Defaults of the multipart limits (`limits.fileBytes`, `files`, `fields` of the router options). */
export const DEFAULT_FILE_LIMIT = 10 * 1024 * 1024;
export const DEFAULT_FILES_LIMIT = 10;
export const DEFAULT_FIELDS_LIMIT = 100;

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`request body exceeds ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** The stream failed or the client went away; nothing can be answered. */
export class BodyAbortedError extends Error {
  constructor() {
    super('request body was not received completely');
    this.name = 'BodyAbortedError';
  }
}

/** True when the request announces a body (RFC 9112 §6.3: a length, or chunked transfer). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * What another middleware (e.g. `express.json()`) made of the body when it already consumed
 * the stream (its `req.body`, whatever that is); undefined while the stream is unread.
 */
export function earlierBody(req: IncomingMessage): { readonly value: unknown } | undefined {
  if (!req.readableEnded && (req as IncomingMessage & { _body?: boolean })._body !== true) return undefined;
  return { value: (req as IncomingMessage & { body?: unknown }).body };
}

/**
 * The raw bytes of a request body, at most `limit` of them. If another middleware (e.g.
 * `express.json()`) already consumed the stream, its result is returned as `parsed`.
 *
 * @example
 * const { bytes } = await readBody(req, 1024);
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<{ bytes: Buffer } | { parsed: unknown }> {
  const earlier = earlierBody(req);
  if (earlier) {
    const preParsed = earlier.value;
    if (Buffer.isBuffer(preParsed)) return { bytes: preParsed };
    if (typeof preParsed === 'string') return { bytes: Buffer.from(preParsed, 'utf8') };
    return { parsed: preParsed };
  }
  const announced = Number(req.headers['content-length']);
  if (Number.isFinite(announced) && announced > limit) throw new BodyTooLargeError(limit);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error: Error | undefined): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      if (error) reject(error);
      else resolve({ bytes: Buffer.concat(chunks, size) });
    };
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > limit) {
        // Stop buffering; the response closes the connection, so the rest is never read.
        req.pause();
        finish(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = (): void => finish(undefined);
    const onError = (): void => finish(new BodyAbortedError());
    const onAborted = (): void => finish(new BodyAbortedError());
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
