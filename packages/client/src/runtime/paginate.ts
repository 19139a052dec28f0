/**
 * Paged reads (section 4.6): fetch the first page with the caller's parameters, then follow
 * `Links.Next` exactly as given until it is absent. Links are opaque: never parsed or rebuilt.
 *
 * Safety: a `Next` that points at a page already read stops the read (`PaginationError`
 * "loop"), as does running past `maxPages` ("page-cap"), and a `Next` on another origin is
 * refused unless allowed, since following it would hand the bearer token to that host.
 */
import type { CallOptions, OperationMethod } from './client.js';
import { PaginationError } from './errors.js';
import type { BodyOf, OperationSpec, ParamsOf, ResultOf } from './types.js';

/** Default cap on pages per read: 100 000 records at the hub's default page size. */
export const DEFAULT_MAX_PAGES = 1000;

type ArrayItem<T> = T extends readonly (infer E)[] ? E : never;

/**
 * The records of a page body when no `records` selector is given: `Data` itself when it is
 * an array, else the array member of `Data` (e.g. `Data.Transaction`), else the body itself
 * when it is an array.
 */
export type DefaultRecord<B> = B extends { Data: infer D }
  ? D extends readonly (infer E)[]
    ? E
    : { [K in keyof D]-?: ArrayItem<NonNullable<D[K]>> }[keyof D]
  : B extends readonly (infer E)[]
    ? E
    : never;

export interface PagesOptions<B> {
  /** Stop with `PaginationError` ("page-cap") before reading more than this many pages (default 1000). */
  maxPages?: number;
  /** Follow a `Next` on another origin than the client's base URL (default false). */
  allowCrossOrigin?: boolean;
  /** Where the next link is (default `body.Links.Next`). */
  next?: (body: B) => string | undefined;
  signal?: AbortSignal;
  /** Options for every page request (headers, customer, validation...). */
  call?: Omit<CallOptions, 'signal' | 'interactionId'>;
}

export interface RecordsOptions<B, R> extends PagesOptions<B> {
  /** Where the records of a page are (default: see `DefaultRecord`). */
  records?: (body: B) => readonly R[];
  /**
   * A key per record; a record whose key was already seen is skipped. Useful because a
   * newest-first list can shift while it is read (a new transaction pushes one record onto
   * the next page); fixing `toBookingDateTime` at the start of the read avoids that too.
   */
  uniqueBy?: (record: R) => string | number | undefined;
}

/** One page of a paged read. */
export interface Page<Result> {
  /** 1-based page number, in reading order. */
  number: number;
  url: string;
  result: Result;
}

function defaultNext(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const links = (body as { Links?: unknown }).Links;
  if (links === null || typeof links !== 'object') return undefined;
  const next = (links as { Next?: unknown }).Next;
  return typeof next === 'string' && next !== '' ? next : undefined;
}

function selfLink(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const links = (body as { Links?: { Self?: unknown } }).Links;
  return typeof links?.Self === 'string' ? links.Self : undefined;
}

/** The records of a body in the default places; refuses to guess when it cannot tell. */
export function defaultRecords(body: unknown, pagesRead: number, url: string): readonly unknown[] {
  if (Array.isArray(body)) return body;
  const data = body !== null && typeof body === 'object' ? (body as { Data?: unknown }).Data : undefined;
  if (Array.isArray(data)) return data;
  if (data !== null && typeof data === 'object') {
    const arrays = Object.values(data as Record<string, unknown>).filter(Array.isArray);
    if (arrays.length === 1) return arrays[0] as unknown[];
  }
  throw new PaginationError('records', 'cannot tell which member of the page holds the records: pass a `records` selector', pagesRead, url);
}

/** A URL resolved against `base`, without its fragment: the form pages are compared in. */
function canonicalUrl(url: string, base: string): URL {
  const parsed = new URL(url, base);
  parsed.hash = '';
  return parsed;
}

/**
 * The pages of a paged read, in order, as the method's results.
 *
 * @example
 * for await (const page of pages(client.GetAccountsAccountIdTransactions, { path: { AccountId } })) {
 *   console.log(page.number, page.result.body.Data.Transaction.length);
 * }
 */
export async function* pages<Op extends OperationSpec>(
  method: OperationMethod<Op>,
  params: ParamsOf<Op>,
  options: PagesOptions<BodyOf<Op>> = {},
): AsyncGenerator<Page<ResultOf<Op>>, void, undefined> {
  const maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
  if (!Number.isInteger(maxPages) || maxPages < 1) throw new RangeError('maxPages must be a positive integer');
  const nextOf = options.next ?? (defaultNext as (body: BodyOf<Op>) => string | undefined);
  const callOptions: CallOptions = { ...options.call, ...(options.signal ? { signal: options.signal } : {}) };
  const origin = new URL(`${method.baseUrl}/`).origin;
  const visited = new Set<string>();

  let result = await (method as (p: unknown, o: CallOptions) => Promise<ResultOf<Op>>)(params, callOptions);
  let number = 1;
  // The canonical form of the page last asked for by its Next: a page that answers from that
  // URL (as they all do) is already in `visited`, and is not parsed again.
  let followed: string | undefined;
  // Bounded by maxPages: every pass reads one page or leaves.
  for (;;) {
    const url = result.url;
    if (url !== followed) visited.add(canonicalUrl(url, url).href);
    // A Self that repeats the page's URL (as it usually does) is the page just added.
    const self = selfLink(result.body);
    if (self !== undefined && self !== url) visited.add(canonicalUrl(self, url).href);
    yield { number, url, result };

    const next = nextOf(result.body as BodyOf<Op>);
    if (next === undefined) return;
    // Parsed once: its canonical form for the loop check, its origin for the origin check.
    const parsed = canonicalUrl(next, url);
    const target = parsed.href;
    if (visited.has(target)) {
      throw new PaginationError('loop', `${method.operation.operationId}: Links.Next of page ${number} (${next}) points to a page already read; stopping instead of looping`, number, target);
    }
    if (parsed.origin !== origin && !options.allowCrossOrigin) {
      throw new PaginationError(
        'cross-origin',
        `${method.operation.operationId}: Links.Next of page ${number} leaves ${origin} (${parsed.origin}); refusing to send the token there (set allowCrossOrigin to follow)`,
        number,
        target,
      );
    }
    if (number >= maxPages) {
      throw new PaginationError(
        'page-cap',
        `${method.operation.operationId}: read ${number} pages and Links.Next is still present; stopping at maxPages (${maxPages}). Raise maxPages if the result really is that long.`,
        number,
        target,
      );
    }
    visited.add(target);
    followed = target;
    result = await method.follow(target, { ...callOptions, params: params as never });
    number++;
  }
}

/**
 * Every record of a paged read, exactly once, in the order the API gives.
 *
 * @example
 * for await (const tx of paginate(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'acc-1' } })) {
 *   console.log(tx.TransactionId);
 * }
 */
export async function* paginate<Op extends OperationSpec, R = DefaultRecord<BodyOf<Op>>>(
  method: OperationMethod<Op>,
  params: ParamsOf<Op>,
  options: RecordsOptions<BodyOf<Op>, R> = {},
): AsyncGenerator<R, void, undefined> {
  const seen = options.uniqueBy ? new Set<string | number>() : undefined;
  for await (const page of pages(method, params, options)) {
    const body = page.result.body as BodyOf<Op>;
    const records = options.records ? options.records(body) : (defaultRecords(body, page.number, page.url) as readonly R[]);
    for (const record of records) {
      if (seen) {
        const key = options.uniqueBy!(record);
        if (key !== undefined) {
          if (seen.has(key)) continue;
          seen.add(key);
        }
      }
      yield record;
    }
  }
}

/**
 * All records of a paged read in one array.
 *
 * @example
 * const transactions = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'acc-1' } });
 */
export async function readAll<Op extends OperationSpec, R = DefaultRecord<BodyOf<Op>>>(
  method: OperationMethod<Op>,
  params: ParamsOf<Op>,
  options: RecordsOptions<BodyOf<Op>, R> = {},
): Promise<R[]> {
  // Page by page, a whole array at a time: the same records as `paginate`, without an
  // asynchronous step per record.
  const out: R[] = [];
  const seen = options.uniqueBy ? new Set<string | number>() : undefined;
  for await (const page of pages(method, params, options)) {
    const body = page.result.body as BodyOf<Op>;
    const records = options.records ? options.records(body) : (defaultRecords(body, page.number, page.url) as readonly R[]);
    if (seen) {
      for (const record of records) {
        const key = options.uniqueBy!(record);
        if (key !== undefined) {
          if (seen.has(key)) continue;
          seen.add(key);
        }
        out.push(record);
      }
    } else {
      for (let i = 0; i < records.length; i++) out.push(records[i]!);
    }
  }
  return out;
}
