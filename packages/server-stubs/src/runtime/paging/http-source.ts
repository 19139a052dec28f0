/**
 * Fetching LFI pages over HTTP: one GET per TPP call, bounded in time and size, every failure
 * typed (lfi-fetch.ts), the answer parsed with the same safety rules as request bodies.
 */
import type { LfiPageQuery } from './adapter.js';
import { fetchLfiJson, type LfiFetchOptions } from './lfi-fetch.js';

export interface HttpPageSourceOptions extends LfiFetchOptions {
  /** LFI base URL including its prefix, e.g. `https://lfi.internal/lfi/v2.2`. */
  readonly baseUrl: string;
}

/**
 * A `fetchPage` for the paging adapter that GETs `path` on the LFI with the page query.
 *
 * @example
 * const fetchPage = httpPageSource(`/accounts/${id}/transactions`, { baseUrl, headers: { authorization: `Bearer ${t}` } });
 * await paging.page({ url: request.url, fetchPage, wrap, order: transactionOrder });
 */
export function httpPageSource(path: string, options: HttpPageSourceOptions): (query: LfiPageQuery) => Promise<unknown> {
  const { baseUrl, ...fetchOptions } = options;
  return (query) => fetchLfiJson(`${baseUrl.replace(/\/+$/, '')}${path}?${query.search.toString()}`, fetchOptions);
}
