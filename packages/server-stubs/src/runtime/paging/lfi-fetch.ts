/**
 * One GET to an LFI, with every way it can fail typed and answered by the contract: the
 * connection refused or reset, a name or certificate that does not resolve, no answer in
 * time, a body cut short, a 2xx that is not JSON, an answer larger than allowed (refused from
 * its `Content-Length` before reading, else as soon as the stream passes the limit), an error
 * status. The hub maps each to the declared error body: recoverable (the TPP may try again,
 * with `Retry-After` where the LFI said when) or not. No raw exception reaches the router's
 * crash path.
 */
import { isJsonType, parseJsonSafely, parseRetryAfter, UnsafeInputError } from '@bank-data-sharing/wire';
import { ApiError } from '../api-error.js';
import { LfiContractError, LfiResponseError } from './errors.js';
import type { LfiGuard } from './lfi-guard.js';

/** Why an LFI could not be reached or did not finish answering. */
export type LfiFailureKind = 'refused' | 'reset' | 'dns' | 'tls' | 'timeout' | 'truncated' | 'circuit-open' | 'overloaded';

const WHAT: Readonly<Record<LfiFailureKind, string>> = {
  refused: 'refused the connection',
  reset: 'closed the connection',
  dns: 'could not be found (DNS)',
  tls: 'failed the TLS handshake',
  timeout: 'did not answer in time',
  truncated: 'stopped in the middle of its answer',
  'circuit-open': 'is failing; calls to it are paused',
  overloaded: 'has too many requests waiting',
};

/**
 * The LFI could not be reached or did not finish its answer: 500 `GenericRecoverableError`
 * (trying again later can help), with `kind` for the hub's logs.
 */
export class LfiUnavailableError extends ApiError {
  constructor(
    readonly kind: LfiFailureKind,
    readonly url: string,
    options: { cause?: unknown; retryAfter?: number } = {},
  ) {
    super(500, 'GenericRecoverableError', `The institution ${WHAT[kind]}; try again later`, options);
    this.name = 'ApiError';
  }
}

/** Error codes of Node's sockets and undici, by what they mean for the hub. */
const CODES: ReadonlyArray<readonly [RegExp, LfiFailureKind]> = [
  [/^ECONNREFUSED$/, 'refused'],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|ECONNABORTED)$/, 'reset'],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME)$/, 'dns'],
  [/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|ERR_OSSL)/, 'tls'],
  [/^(ETIMEDOUT|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|UND_ERR_BODY_TIMEOUT)$/, 'timeout'],
];

function codesOf(error: unknown): string[] {
  const out: string[] = [];
  for (let current = error, depth = 0; current !== null && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') out.push(code);
    const name = (current as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') out.push('ETIMEDOUT');
    current = (current as { cause?: unknown }).cause;
  }
  return out;
}

/** The typed failure of a fetch that threw (before or while the body was read). */
export function lfiFailureOf(error: unknown, url: string, reading: boolean): LfiUnavailableError {
  if (error instanceof LfiUnavailableError) return error;
  for (const code of codesOf(error)) {
    for (const [pattern, kind] of CODES) {
      if (pattern.test(code)) return new LfiUnavailableError(kind === 'reset' && reading ? 'truncated' : kind, url, { cause: error });
    }
  }
  // A fetch that failed without a code we know: the LFI could not be used; say so, recoverably.
  return new LfiUnavailableError(reading ? 'truncated' : 'reset', url, { cause: error });
}

export interface LfiFetchOptions {
  /** The LFI's guard (lfi-guard.ts): its concurrency bound, circuit breaker and retries. */
  readonly guard?: LfiGuard;
  readonly headers?: Readonly<Record<string, string>>;
  /** Give up after this many milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Also give up when this aborts (a deadline covering a whole TPP request). */
  readonly signal?: AbortSignal;
  /** Largest answer accepted, in bytes (default 16 MiB). */
  readonly maxBytes?: number;
  /** `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** Reads the body as a stream, refusing it as soon as it passes `maxBytes`. */
async function readBounded(response: Response, maxBytes: number, url: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new LfiContractError([`the answer declares ${declared} bytes, more than the ${maxBytes} allowed`]);
  }
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw new LfiContractError([`the answer is larger than the ${maxBytes} bytes allowed`]);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw lfiFailureOf(error, url, true);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function retryAfterOf(response: Response): number | undefined {
  return parseRetryAfter(response.headers.get('retry-after'), Date.now());
}

/**
 * GETs `url` and resolves with its JSON body (undefined for an empty 2xx). Throws
 * `LfiUnavailableError` (recoverable), `LfiResponseError` (the LFI's error status, mapped for
 * the TPP) or `LfiContractError` (an answer the hub cannot use); never anything else.
 *
 * @example
 * const accounts = await fetchLfiJson(`${lfi}/lfi/v2.2/accounts?page=1`, { headers: { authorization }, signal: deadline });
 */
export function fetchLfiJson(url: string, options: LfiFetchOptions = {}): Promise<unknown> {
  const { guard, ...once } = options;
  if (!guard) return fetchOnce(url, once);
  // A GET is idempotent: the guard may try it again within the caller's deadline.
  return guard.run((signal) => fetchOnce(url, { ...once, signal }), { url, idempotent: true, ...(options.signal ? { signal: options.signal } : {}) });
}

async function fetchOnce(url: string, options: Omit<LfiFetchOptions, 'guard'>): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  let response: Response;
  try {
    response = await doFetch(url, { headers: { accept: 'application/json', ...options.headers }, signal });
  } catch (error) {
    throw lfiFailureOf(error, url, false);
  }
  const type = response.headers.get('content-type');
  const empty = response.status === 204 || response.headers.get('content-length') === '0';
  if (response.ok && !empty && type !== null && !isJsonType(type)) {
    // A 2xx the hub cannot use whatever it holds: refused before its body is read.
    await response.body?.cancel().catch(() => undefined);
    throw new LfiContractError([`the answer is ${type}, not JSON`]);
  }
  const bytes = await readBounded(response, maxBytes, url);
  let body: unknown;
  let unusable: string | undefined;
  try {
    body = bytes.byteLength === 0 ? undefined : parseJsonSafely(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    unusable = error instanceof UnsafeInputError || error instanceof SyntaxError || error instanceof TypeError ? error.message : String(error);
  }
  if (!response.ok) {
    // 502, 503 and 504 say the LFI is unavailable: recoverable, with its Retry-After.
    throw new LfiResponseError(response.status, body, retryAfterOf(response));
  }
  if (bytes.byteLength > 0 && type === null) throw new LfiContractError(['the answer is without a content type, not JSON']);
  if (unusable !== undefined) throw new LfiContractError([`the answer is not usable JSON: ${unusable}`]);
  return body;
}
