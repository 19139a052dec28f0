/**
 * The LFI side of the contract: one page of a full, filtered record set, with the `meta`
 * the hub expects. For LFI implementations built on the generated LFI stub, and for tests.
 */
import { sortRecords, type OrderRule } from './order.js';

// A type alias, not an interface, so it fits the generated (open) page schemas' types.
export type LfiPage<R> = {
  data: R[];
  meta: { paginated: true; totalPages: number; totalRecords: number };
};

/**
 * Page `page` (from 1) of `records` at `pageSize` per page, ordered by `order` when given.
 * A page beyond the last holds no records (the counts still describe the set).
 *
 * @example
 * lfiPage(transactions, { page: 2, pageSize: 100, order: transactionOrder })
 * // → { data: [...records 101-200], meta: { paginated: true, totalPages: 3, totalRecords: 250 } }
 */
export function lfiPage<R>(records: readonly R[], options: { page: number; pageSize: number; order?: OrderRule }): LfiPage<R> {
  // Without an order the records are sliced in place: no copy of the whole set per page.
  const ordered = options.order ? sortRecords(records, options.order) : records;
  const start = (options.page - 1) * options.pageSize;
  return {
    data: ordered.slice(start, start + options.pageSize),
    meta: { paginated: true, totalPages: Math.ceil(ordered.length / options.pageSize), totalRecords: ordered.length },
  };
}
