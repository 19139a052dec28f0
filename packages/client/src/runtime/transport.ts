/**
 * How the client speaks HTTP. By default it sends through undici's `request` API: the same
 * connection pool technology as Node's own `fetch`, without the WHATWG stream and `Request`/
 * `Response` layers on top, which roughly halves the CPU a page of transactions costs the
 * reader. A caller's `fetch` (an mTLS fetch, a proxy, a test double, another runtime) is used
 * as given, through the same narrow interface.
 */
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import { readableChunks, responseChunks } from './body-chunks.js';
import { contentCodings, decodersOf, isOutputTooLarge } from './content-codings.js';
import { ResponseTooLargeError } from './errors.js';
import { headersToObject } from './headers.js';

/** The `fetch` the client calls when given one: the platform's, or any compatible one. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * A request body: what `fetch` sends, or bytes produced while they are sent (a sequence of
 * items encoded one by one), which cannot be sent twice.
 */
export type HttpBody = RequestInit['body'] | AsyncIterable<Uint8Array>;

/** One request as the executor hands it over: redirects are never followed (the caller sees a 3xx). */
export interface HttpRequest {
  method: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: HttpBody | undefined;
  signal: AbortSignal | undefined;
}

/** An answer whose status and headers have arrived; its body is read, or let go, once. */
export interface HttpAnswer {
  readonly status: number;
  /** One header by lower-case name (repeated ones joined with ", "), or null. */
  header(name: string): string | null;
  /** Every header, by lower-case name. */
  headers(): Record<string, string>;
  /**
   * The body as text (decompressed, UTF-8). Rejects when the body breaks off, and with
   * `ResponseTooLargeError` when it is larger than the transport reads whole.
   */
  text(): Promise<string>;
  /**
   * The body's bytes as they arrive (decompressed), read once. The iteration rejects when the
   * body breaks off; leaving it early, or calling its iterator's `return()` before reading,
   * closes the connection: the rest of a stream is never drained.
   */
  chunks(): AsyncIterable<Uint8Array>;
  /** Lets go of the body unread, so that the connection can serve another request. */
  discard(): Promise<void>;
}

export type Transport = (url: string, request: HttpRequest) => Promise<HttpAnswer>;

/**
 * An undici dispatcher (`Agent`, `Pool`, `ProxyAgent`, `MockAgent`), described by the one method
 * the transport relies on: the client's declarations do not pull in undici's (and Node's) types,
 * which every consumer's compiler would otherwise load.
 */
export interface DispatcherLike {
  dispatch(options: never, handler: never): boolean;
}

/** Decodes UTF-8 as `Response.text()` does: a byte order mark is dropped, bad bytes become U+FFFD. */
const utf8 = new TextDecoder();

/**
 * The largest body an answer's `text()` reads by default (32 MiB), as sent and once decoded: a
 * server, honest or not, does not decide how much memory the client gives its answer.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** True when a `Content-Length` declares more than `limit` bytes. */
function declaresMoreThan(contentLength: string | null, limit: number): boolean {
  if (contentLength === null) return false;
  const declared = Number(contentLength.trim());
  return Number.isFinite(declared) && declared > limit;
}

/**
 * The bytes of `chunks`, or `ResponseTooLargeError` as soon as they pass `limit`: leaving the
 * loop early lets go of the body (a web stream is cancelled, a Node stream destroyed).
 */
async function readAtMost(chunks: AsyncIterable<Uint8Array>, limit: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.byteLength;
    if (total > limit) throw new ResponseTooLargeError(limit);
    parts.push(chunk);
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts, total);
}

/**
 * The answer of a `fetch`, seen through `HttpAnswer`. `text()` reads at most `maxBytes` of the
 * body (as `fetch` gives it: decoded), else rejects with `ResponseTooLargeError`.
 */
export function answerOfResponse(response: Response, maxBytes = DEFAULT_MAX_RESPONSE_BYTES): HttpAnswer {
  return {
    status: response.status,
    header: (name) => response.headers.get(name),
    headers: () => headersToObject(response.headers),
    async text() {
      // `fetch` decodes a compressed body: its declared length says nothing of what it decodes to.
      if (response.headers.get('content-encoding') === null && declaresMoreThan(response.headers.get('content-length'), maxBytes)) {
        await response.body?.cancel().catch(() => undefined);
        throw new ResponseTooLargeError(maxBytes);
      }
      if (response.body === null) return await response.text();
      return utf8.decode(await readAtMost(response.body as unknown as AsyncIterable<Uint8Array>, maxBytes));
    },
    chunks: () => responseChunks(response),
    async discard() {
      try {
        await response.body?.cancel();
      } catch {
        // Nothing to do: the connection is closed either way.
      }
    },
  };
}

/** Bytes produced as they are sent (not a `ReadableStream`, which `fetch` takes as it is). */
function isByteSource(body: HttpBody | undefined): body is AsyncIterable<Uint8Array> {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as Partial<AsyncIterable<Uint8Array>>)[Symbol.asyncIterator] === 'function' &&
    !(typeof ReadableStream !== 'undefined' && body instanceof ReadableStream)
  );
}

/** A byte source as the `ReadableStream` `fetch` sends a streamed body from, pulled as the network takes it. */
function readableStreamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

/** Sends every request through `fetch`; answers' `text()` reads at most `maxResponseBytes`. */
export function fetchTransport(fetch: FetchLike, options: { maxResponseBytes?: number | undefined } = {}): Transport {
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  return async (url, request) => {
    const init: RequestInit & { duplex?: 'half' } = { method: request.method, headers: request.headers, redirect: 'manual' };
    const { body } = request;
    if (isByteSource(body)) {
      // A streamed request body: `fetch` sends it only in half-duplex mode (the answer is read after it).
      init.body = readableStreamOf(body);
      init.duplex = 'half';
    } else if (body !== undefined) {
      init.body = body;
    }
    if (request.signal) init.signal = request.signal;
    return answerOfResponse(await fetch(url, init), maxBytes);
  };
}

const ACCEPT_ENCODING = 'gzip, deflate, br';

type UndiciAnswerData = Dispatcher.ResponseData;

/** A received header's value as `fetch` gives it: repeated ones joined with ", ". */
function joined(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

class UndiciAnswer implements HttpAnswer {
  readonly status: number;
  readonly #data: UndiciAnswerData;
  readonly #maxBytes: number;

  constructor(data: UndiciAnswerData, maxBytes: number) {
    this.status = data.statusCode;
    this.#data = data;
    this.#maxBytes = maxBytes;
  }

  header(name: string): string | null {
    return joined(this.#data.headers[name]) ?? null;
  }

  headers(): Record<string, string> {
    const out: Record<string, string> = {};
    const received = this.#data.headers;
    for (const name of Object.keys(received)) {
      const value = joined(received[name]);
      if (value !== undefined) out[name] = value;
    }
    return out;
  }

  async text(): Promise<string> {
    const limit = this.#maxBytes;
    const declared = this.header('content-length');
    if (declaresMoreThan(declared, limit)) {
      await this.discard();
      throw new ResponseTooLargeError(limit);
    }
    const decoders = decodersOf(contentCodings(this.header('content-encoding')));
    // A declared length bounds the body (undici reads no more), so undici's own reading serves.
    if (!decoders && declared !== null) return await this.#data.body.text();
    let bytes = await readAtMost(this.#data.body, limit);
    if (!decoders) return utf8.decode(bytes);
    try {
      for (const decoder of decoders) bytes = await decoder.whole(bytes, limit);
    } catch (error) {
      if (isOutputTooLarge(error)) throw new ResponseTooLargeError(limit);
      throw error;
    }
    return utf8.decode(bytes);
  }

  chunks(): AsyncIterable<Uint8Array> {
    return readableChunks(this.#data.body, contentCodings(this.header('content-encoding')));
  }

  async discard(): Promise<void> {
    try {
      // Reads a small rest to keep the connection; a large one closes it instead.
      await this.#data.body.dump();
    } catch {
      // Nothing to do: the connection is closed either way.
    }
  }
}

let sharedAgent: Agent | undefined;

/**
 * The pool every client without a dispatcher of its own shares. Not undici's global
 * dispatcher: in Node that slot may hold the bundled undici of the platform `fetch`, a
 * different version with a different handler interface.
 */
function defaultAgent(): Agent {
  sharedAgent ??= new Agent();
  return sharedAgent;
}

/**
 * Bodies undici sends as they are (text, bytes, and bytes produced while sent); others (Blob,
 * FormData, web streams) go through `fetch`, which encodes them.
 */
function isPlainBody(body: HttpBody | undefined): boolean {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || isByteSource(body);
}

/**
 * Sends through undici's `request` API over `dispatcher` (default: a pool shared by the
 * process), asking for compressed answers as `fetch` does and decoding them.
 */
export function undiciTransport(options: { dispatcher?: DispatcherLike | undefined; fallback: FetchLike; maxResponseBytes?: number | undefined }): Transport {
  const dispatcher = options.dispatcher as Dispatcher | undefined;
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const viaFetch = fetchTransport(options.fallback, { maxResponseBytes: maxBytes });
  return async (url, request) => {
    const { body } = request;
    if (!isPlainBody(body)) return await viaFetch(url, request);
    const headers = request.headers['accept-encoding'] === undefined ? { ...request.headers, 'accept-encoding': ACCEPT_ENCODING } : request.headers;
    const data = await undiciRequest(url, {
      method: request.method as Dispatcher.HttpMethod,
      headers,
      // undici sends an async iterable as it is pulled (its documentation lists one; its types do not).
      body: (body ?? null) as string | Uint8Array | null,
      signal: request.signal ?? null,
      dispatcher: dispatcher ?? defaultAgent(),
    });
    return new UndiciAnswer(data, maxBytes);
  };
}
