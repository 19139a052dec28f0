/**
 * Fetching LFI pages over HTTP: one GET per TPP call, bounded in time and size, the answer
 * parsed with the same safety rules as request bodies.
 */
import { parseJsonSafely, UnsafeInputError } from '@bank-data-sharing/wire';
import { LfiContractError, LfiResponseError } from './errors.js';
import type { LfiPageQuery } from './adapter.js';

export interface HttpPageSourceOptions {
  /** LFI base URL including its prefix, e.g. `https://lfi.internal/lfi/v2.2`. */
  readonly baseUrl: string;
  /** Request headers (credentials, the interaction id, the customer headers of section 4.1). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Give up after this many milliseconds (default 10 000). */
  readonly timeoutMs?: number;
  /** Largest answer accepted, in bytes (default 16 MiB). */
  readonly maxBytes?: number;
  /** `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/**
 * A `fetchPage` for the paging adapter that GETs `path` on the LFI with the page query.
 *
 * @example
 * const fetchPage = httpPageSource(`/accounts/${id}/transactions`, { baseUrl, headers: { authorization: `Bearer ${t}` } });
 * await paging.page({ url: request.url, fetchPage, wrap, order: transactionOrder });
 */
export function httpPageSource(path: string, options: HttpPageSourceOptions): (query: LfiPageQuery) => Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  return async (query) => {
    const url = `${options.baseUrl.replace(/\/+$/, '')}${path}?${query.search.toString()}`;
    const response = await doFetch(url, {
      headers: { accept: 'application/json', ...options.headers },
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > maxBytes) throw new LfiContractError([`the answer is larger than ${maxBytes} bytes`]);
    let body: unknown;
    try {
      body = bytes.byteLength === 0 ? undefined : parseJsonSafely(new TextDecoder().decode(bytes));
    } catch (error) {
      if (response.ok && error instanceof UnsafeInputError) throw new LfiContractError([`the answer is not usable JSON: ${error.message}`]);
      body = undefined;
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw new LfiResponseError(response.status, body, Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined);
    }
    return body;
  };
}
