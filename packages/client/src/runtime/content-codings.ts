/**
 * The content codings `fetch` decodes, decoded alike on the undici path: whole bodies in one
 * step (on libuv's thread pool), streamed bodies as the bytes come. One table for both, so the
 * two readings never disagree on what is decoded.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';

interface Coding {
  /** The decoded bytes; rejects with zlib's `ERR_BUFFER_TOO_LARGE` past `maxOutputLength`. */
  whole: (bytes: Uint8Array, maxOutputLength: number) => Promise<Uint8Array>;
  stream: () => NodeJS.ReadWriteStream;
}

type ZlibWhole = (bytes: Uint8Array, options: zlib.ZlibOptions | zlib.BrotliOptions) => Promise<Buffer>;
const gunzip = promisify(zlib.gunzip) as ZlibWhole;
const inflate = promisify(zlib.inflate) as ZlibWhole;
const brotliDecompress = promisify(zlib.brotliDecompress) as ZlibWhole;

const CODINGS: Readonly<Record<string, Coding>> = {
  gzip: { whole: (bytes, maxOutputLength) => gunzip(bytes, { maxOutputLength }), stream: () => zlib.createGunzip() },
  'x-gzip': { whole: (bytes, maxOutputLength) => gunzip(bytes, { maxOutputLength }), stream: () => zlib.createGunzip() },
  deflate: { whole: (bytes, maxOutputLength) => inflate(bytes, { maxOutputLength }), stream: () => zlib.createInflate() },
  br: { whole: (bytes, maxOutputLength) => brotliDecompress(bytes, { maxOutputLength }), stream: () => zlib.createBrotliDecompress() },
};

/** True for zlib's refusal to decode past `maxOutputLength`. */
export function isOutputTooLarge(error: unknown): boolean {
  return error instanceof RangeError && (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE';
}

/** The content codings of a `Content-Encoding` value, in the order they come off (RFC 9110, 8.4). */
export function contentCodings(header: string | null): string[] {
  if (header === null) return [];
  return header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
    .reverse();
}

/**
 * At most this many codings are decoded, as undici does: a server listing thousands would
 * otherwise make the client build a decoder for each.
 */
export const MAX_CODINGS = 5;

/**
 * The decoders of `codings`, in order, or undefined when there is nothing to decode, one of
 * them is unknown, or there are more than MAX_CODINGS: like `fetch`, such a body is handed on
 * as it came.
 */
export function decodersOf(codings: readonly string[]): Coding[] | undefined {
  if (codings.length === 0 || codings.length > MAX_CODINGS || !codings.every((c) => c in CODINGS)) return undefined;
  return codings.map((c) => CODINGS[c]!);
}
