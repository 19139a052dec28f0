/**
 * A TPP-facing transactions endpoint over loopback that pages the way a hub does: `Links`
 * built from an opaque cursor the client must not interpret, `Meta.TotalPages`, and the
 * three shapes of section 4.6 (paginated, unpaginated, empty).
 */
import type { Transaction } from '@bank-data-sharing/validators/v2.2';
import type { Handler, RecordedRequest, Reply } from './server.js';
import { transactionsPage } from './fixtures.js';

export const PREFIX = '/open-finance/account-information/v2.2';

export interface PagingOptions {
  origin: () => string;
  accountId: string;
  records: Transaction[];
  pageSize: number;
  /** `paginated` (default when more than one page), `unpaginated` (TotalPages 1, Links.Self only). */
  shape?: 'paginated' | 'unpaginated';
  /** Links written relative to the request (`?cursor=...`) instead of absolute. */
  relativeLinks?: boolean;
  /** Rewrites the Next link of a page (to make loops and such). */
  next?: (page: number, next: string | undefined) => string | undefined;
  /** Answers before paging (auth checks, 429...); return undefined to page normally. */
  before?: (request: RecordedRequest, index: number) => Reply | undefined;
}

/** Opaque to the client: a base64url blob, not a page number it could edit. */
export function cursor(page: number): string {
  return Buffer.from(`page:${page}:v1`).toString('base64url');
}

function pageOf(url: URL): number {
  const c = url.searchParams.get('cursor');
  if (c === null) return 1;
  const m = /^page:(\d+):v1$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : 1;
}

export function transactionsHandler(options: PagingOptions): Handler {
  return (request, index) => {
    const early = options.before?.(request, index);
    if (early) return early;
    const url = new URL(request.url, options.origin());
    const expected = `${PREFIX}/accounts/${options.accountId}/transactions`;
    if (url.pathname !== expected) return { status: 404, body: '' };
    const self = `${options.origin()}${url.pathname}${url.search}`;
    if (options.shape === 'unpaginated') {
      return { body: transactionsPage(options.accountId, options.records, { Self: self }, 1) };
    }
    const total = Math.ceil(options.records.length / options.pageSize);
    if (total === 0) return { body: transactionsPage(options.accountId, [], { Self: self }, 0) };
    const page = pageOf(url);
    const link = (p: number): string => (options.relativeLinks ? `?cursor=${cursor(p)}` : `${options.origin()}${url.pathname}?cursor=${cursor(p)}`);
    let next = page < total ? link(page + 1) : undefined;
    if (options.next) next = options.next(page, next);
    const links: { Self: string; First: string; Last: string; Prev?: string; Next?: string } = {
      Self: self,
      First: `${options.origin()}${url.pathname}?cursor=${cursor(1)}`,
      Last: `${options.origin()}${url.pathname}?cursor=${cursor(total)}`,
    };
    if (page > 1) links.Prev = `${options.origin()}${url.pathname}?cursor=${cursor(page - 1)}`;
    if (next !== undefined) links.Next = next;
    const records = options.records.slice((page - 1) * options.pageSize, page * options.pageSize);
    return { body: transactionsPage(options.accountId, records, links, total) };
  };
}
