/** The page arithmetic of the hub-to-LFI contract (section 4.7), independent of records. */
import { LfiStoreError } from './errors.js';

/** The `meta` object of an LFI answer. */
export interface LfiPageMeta {
  /** False when the answer holds the whole (small) set in one go. */
  readonly paginated: boolean;
  /** ceil(totalRecords / pageSize); 0 for an empty set. */
  readonly totalPages: number;
  /** Records in the filtered set. */
  readonly totalRecords: number;
}

/** An LFI answer: the records of one page and the paging facts of the filtered set. */
export interface LfiPage<T> {
  readonly data: T[];
  readonly meta: LfiPageMeta;
}

/** The page size the hub uses when it sends none (section 4.7). */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * - `always`: transactions and statements, whose pagination the spec requires.
 * - `optional`: the other lists; a set that fits in one page is answered unpaginated.
 */
export type PagingMode = 'always' | 'optional';

function checkPositiveInteger(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new LfiStoreError('InvalidPaging', `${name} must be an integer of at least 1, got ${String(value)}`);
  }
}

/**
 * Cuts one page out of an already filtered and ordered list.
 *
 * An empty set answers page 1 with `{paginated: true, totalPages: 0}` so that the hub
 * emits `Meta.TotalPages` 0 (section 4.7, rule 7); `paginated: false` would make it 1.
 * A page after the last one is an error rather than an empty page, so that a hub that
 * lost count notices.
 */
export function paginate<T>(records: readonly T[], page: number, pageSize: number, mode: PagingMode): LfiPage<T> {
  checkPositiveInteger('page', page);
  checkPositiveInteger('page-size', pageSize);
  const totalRecords = records.length;
  const totalPages = Math.ceil(totalRecords / pageSize);
  const lastPage = Math.max(1, totalPages);
  if (page > lastPage) {
    throw new LfiStoreError('PageOutOfRange', `page ${page} is beyond the last page (${lastPage}) of ${totalRecords} records at page-size ${pageSize}`);
  }
  if (totalRecords === 0) return { data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } };
  if (mode === 'optional' && totalRecords <= pageSize) {
    return { data: records.slice(), meta: { paginated: false, totalPages: 1, totalRecords } };
  }
  const start = (page - 1) * pageSize;
  return { data: records.slice(start, start + pageSize), meta: { paginated: true, totalPages, totalRecords } };
}
