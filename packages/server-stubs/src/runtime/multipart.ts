/**
 * Reads a `multipart/form-data` body with busboy, part by part, within limits: no file over
 * `fileBytes`, no more than `files` files and `fields` fields, no field over `fieldBytes`, and
 * no more bytes in all than those allow. Memory is bounded by the limits, not by what the
 * client announces.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import type { FormEntry, FormLayout, UploadedFile } from '@bank-data-sharing/wire';
import { BodyAbortedError } from './body.js';

export interface MultipartLimits {
  readonly fileBytes: number;
  readonly files: number;
  readonly fields: number;
  readonly fieldBytes: number;
}

/** A part over a limit; `field` names it when one part is to blame. */
export class MultipartLimitError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'MultipartLimitError';
  }
}

/** A body that is not well-formed `multipart/form-data`. */
export class MultipartFormatError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'MultipartFormatError';
  }
}

const DEFAULT_FILE_TYPE = 'application/octet-stream';

/** Busboy refuses part headers over 16 KiB; with its boundary line, no part's framing is longer. */
const PART_FRAMING_BYTES = 16 * 1024 + 128;

/**
 * The most bytes a body within `limits` can hold: every file and field at its limit, and each
 * part's framing. Busboy says a field was cut only once the field ends, and skips a preamble
 * of any length, so without this bound a client could keep the server reading forever.
 */
function multipartByteLimit(limits: MultipartLimits): number {
  return limits.files * limits.fileBytes + limits.fields * limits.fieldBytes + (limits.files + limits.fields + 1) * PART_FRAMING_BYTES;
}

/** A field the layout declares a file, sent without a file name: its text is the file. */
function asFile(value: string, mimeType: string): UploadedFile {
  const bytes = new TextEncoder().encode(value);
  return { bytes, contentType: mimeType || DEFAULT_FILE_TYPE, size: bytes.length };
}

/**
 * The fields and files of a multipart body, in the order sent. `source` is the request (read
 * as it streams) or, when another middleware already read it, its bytes.
 *
 * @example
 * const entries = await readMultipart(req, req.headers['content-type'], layout, limits);
 * // → [['orderId', '7'], ['documentFile', { bytes, filename: 'a.png', contentType: 'image/png', size: 3 }]]
 */
export function readMultipart(source: IncomingMessage | Uint8Array, contentType: string, layout: FormLayout | undefined, limits: MultipartLimits): Promise<FormEntry[]> {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { fileSize: limits.fileBytes, files: limits.files, fields: limits.fields, fieldSize: limits.fieldBytes, parts: limits.files + limits.fields },
    });
  } catch (error) {
    // No boundary, or not multipart at all.
    return Promise.reject(new MultipartFormatError(error instanceof Error ? error.message : String(error)));
  }
  const maxBytes = multipartByteLimit(limits);
  const tooLarge = (): MultipartLimitError => new MultipartLimitError(`multipart body exceeds ${maxBytes} bytes (what its file and field limits allow)`);
  const announced = source instanceof Uint8Array ? source.length : Number(source.headers['content-length']);
  if (Number.isFinite(announced) && announced > maxBytes) return Promise.reject(tooLarge());
  const stream = source instanceof Uint8Array ? Readable.from([source]) : source;
  return new Promise((resolve, reject) => {
    const entries: FormEntry[] = [];
    let settled = false;
    let pendingFiles = 0;
    let parsed = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      stream.unpipe(parser);
      // Stop reading: the answer closes the connection, so the rest is never needed.
      stream.pause();
      reject(error);
    };
    const maybeDone = (): void => {
      if (!settled && parsed && pendingFiles === 0) {
        settled = true;
        resolve(entries);
      }
    };
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(new MultipartLimitError(`form field "${name}" exceeds ${limits.fieldBytes} bytes`, name));
      entries.push([name, layout?.[name]?.type === 'file' || layout?.[name]?.items?.type === 'file' ? asFile(value, info.mimeType) : value]);
    });
    parser.on('file', (name, file, info) => {
      pendingFiles++;
      const chunks: Buffer[] = [];
      let size = 0;
      const at = entries.length;
      entries.push([name, '']);
      file.on('data', (chunk: Buffer) => {
        size += chunk.length;
        chunks.push(chunk);
      });
      file.on('limit', () => {
        file.resume();
        fail(new MultipartLimitError(`file "${name}" exceeds ${limits.fileBytes} bytes`, name));
      });
      file.on('error', (error: Error) => fail(new MultipartFormatError(`file "${name}": ${error.message}`, name)));
      file.on('end', () => {
        const bytes = new Uint8Array(Buffer.concat(chunks, size));
        const uploaded: UploadedFile = {
          bytes,
          ...(info.filename !== undefined ? { filename: info.filename } : {}),
          contentType: info.mimeType || DEFAULT_FILE_TYPE,
          size,
        };
        entries[at] = [name, uploaded];
        pendingFiles--;
        maybeDone();
      });
    });
    parser.on('filesLimit', () => fail(new MultipartLimitError(`more than ${limits.files} files`)));
    parser.on('fieldsLimit', () => fail(new MultipartLimitError(`more than ${limits.fields} fields`)));
    parser.on('partsLimit', () => fail(new MultipartLimitError(`more than ${limits.files + limits.fields} parts`)));
    parser.on('error', (error: unknown) => fail(new MultipartFormatError(error instanceof Error ? error.message : String(error))));
    parser.on('close', () => {
      parsed = true;
      maybeDone();
    });
    let received = 0;
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) fail(tooLarge());
    });
    stream.on('error', () => fail(new BodyAbortedError()));
    stream.on('aborted', () => fail(new BodyAbortedError()));
    stream.pipe(parser);
  });
}
