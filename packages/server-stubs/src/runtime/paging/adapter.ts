/**
 * The hub paging adapter (section 4.7): one page-based LFI request per TPP call, and the
 * TPP answer (`Data`, `Links`, `Meta`) derived from the LFI's `data` and `meta` by the
 * rules. It never looks inside a record except through the order rule and the mapper.
 */
import { checkAnswer } from './lfi-answer.js';
import { InvalidPageError, LfiContractError } from './errors.js';
import { pageIn, pageLinks, selfLink, type PageLinks } from './links.js';
import { checkOrder, type OrderRule, type OrderViolation } from './order.js';

/** Section 8: the hub-to-LFI page size defaults to 100. */
export const DEFAULT_PAGE_SIZE = 100;

/** What the adapter asks the LFI for. */
export interface LfiPageQuery {
  readonly page: number;
  readonly pageSize: number;
  /** The TPP's query parameters (filters), without the hub's page parameter. */
  readonly filters: ReadonlyArray<readonly [string, string]>;
  /** Filters, then `page` and `page-size`: the query string to send. */
  readonly search: URLSearchParams;
}

export interface PagingOptions<R = unknown> {
  /** Records per LFI page (default 100). */
  readonly pageSize?: number;
  /** Name of the page parameter the hub writes into its links (default `page`). */
  readonly pageParam?: string;
  /** Renames or reshapes each LFI record into the TPP record (default: unchanged). */
  readonly mapRecord?: (record: unknown, index: number) => R;
  /** Sees every order violation (MUST and SHOULD), e.g. to log LFIs that break ties badly. */
  readonly onOrderViolation?: (violations: readonly OrderViolation[], context: { readonly url: string; readonly page: number }) => void;
  /** Also refuse pages whose tie-break (a SHOULD) is broken (default false: only reported). */
  readonly strictTieBreak?: boolean;
}

/** One TPP call to page. */
export interface PageCall<R, D> {
  /** Absolute URL the TPP called (a handler's `request.url`); page links are built from it. */
  readonly url: string;
  /** Sends one request to the LFI and resolves with its parsed JSON answer. */
  readonly fetchPage: (query: LfiPageQuery) => Promise<unknown>;
  /** Builds the TPP `Data` from the mapped records, e.g. `(t) => ({ AccountId, Transaction: t })`. */
  readonly wrap: (records: R[]) => D;
  /** Required order of the records (transactions, statements); none for other lists. */
  readonly order?: OrderRule;
}

/** The TPP-facing list response (a type alias, so it fits open and closed schema types alike). */
export type TppPage<D> = {
  Data: D;
  Links: PageLinks;
  Meta: { TotalPages: number; FirstAvailableDateTime?: string; LastAvailableDateTime?: string };
};

function filtersOf(params: URLSearchParams, pageParam: string): Array<[string, string]> {
  return [...params].filter(([name]) => name !== pageParam && name !== 'page-size');
}

/**
 * A paging adapter with fixed options.
 *
 * @example
 * const paging = createPagingAdapter({ pageSize: 100 });
 * const body = await paging.page({
 *   url: request.url,
 *   fetchPage: (q) => lfi.get(`/accounts/${id}/transactions?${q.search}`),
 *   wrap: (Transaction) => ({ AccountId: id, Transaction }),
 *   order: transactionOrder,
 * });
 * return { status: 200, body };
 */
export function createPagingAdapter<R = unknown>(options: PagingOptions<R> = {}): { page<D>(call: PageCall<R, D>): Promise<TppPage<D>> } {
  const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
  const pageParam = options.pageParam ?? 'page';
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  const { mapRecord } = options;

  return {
    async page<D>(call: PageCall<R, D>): Promise<TppPage<D>> {
      // The TPP URL is parsed once for the page and the filters.
      const params = new URL(call.url).searchParams;
      const wanted = pageIn(params, pageParam);
      if ('error' in wanted) throw new InvalidPageError(wanted.error, pageParam);
      const { page } = wanted;
      const filters = filtersOf(params, pageParam);
      const search = new URLSearchParams(filters);
      search.set('page', String(page));
      search.set('page-size', String(pageSize));
      const body = await call.fetchPage({ page, pageSize, filters, search });

      const checked = checkAnswer(body, page, pageSize);
      if (!checked.ok) {
        if ('beyondLast' in checked) throw new InvalidPageError(`${pageParam} ${page} is beyond the last page (${checked.beyondLast})`, pageParam);
        throw new LfiContractError(checked.problems);
      }
      const answer = checked.answer;
      if (call.order) {
        const violations = checkOrder(answer.records, call.order);
        if (violations.length > 0) {
          options.onOrderViolation?.(violations, { url: call.url, page });
          const fatal = violations.filter((v) => v.level === 'must' || options.strictTieBreak === true);
          if (fatal.length > 0) throw new LfiContractError(fatal.slice(0, 5).map((v) => v.message), violations);
        }
      }

      const records = mapRecord ? answer.records.map((record, index) => mapRecord(record, index)) : (answer.records.slice() as R[]);
      const meta: TppPage<D>['Meta'] = {
        TotalPages: answer.totalPages,
        ...(answer.firstAvailableDateTime !== undefined ? { FirstAvailableDateTime: answer.firstAvailableDateTime } : {}),
        ...(answer.lastAvailableDateTime !== undefined ? { LastAvailableDateTime: answer.lastAvailableDateTime } : {}),
      };
      // Rules 6 and 7 (and 4.6 rules 2 and 3): unpaginated or empty results link to themselves only.
      const links = answer.paginated && answer.totalPages > 0 ? pageLinks(call.url, pageParam, page, answer.totalPages) : { Self: selfLink(call.url) };
      return { Data: call.wrap(records), Links: links, Meta: meta };
    },
  };
}
