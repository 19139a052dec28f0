/**
 * Paging sequences, recognised by the shape of an answer (never by the API's name):
 * - link paging: `Links.Next` and `Meta.TotalPages` (this family's TPP side): the next links
 *   are followed to the end;
 * - page numbers: a `page` query parameter and a body with a list and `totalPages` (this
 *   family's hub-to-LFI side, and many others): pages 1..totalPages are read.
 * Either way the pages must agree: no record twice, none missing between two reads (for page
 * numbers, the second read with another page size), the count the answer states, no next
 * link on the last page, and a page beyond the last answered without records.
 */
import { isRecord } from '../ir/json-pointer.js';

/** Pages read per sequence at most; a longer list is checked as far as read. */
export const MAX_PAGES = 50;

export interface PageAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly url: string;
}

export interface PageReader {
  /** GET an absolute URL with the first request's headers (undefined: no usable answer). */
  getUrl(url: string): Promise<PageAnswer | undefined>;
  /** The first request again with `page` (and the page size) set. */
  getPage(page: number, pageSize: number | undefined): Promise<PageAnswer | undefined>;
}

export interface PagingResult {
  readonly problems: readonly string[];
  readonly notes: readonly string[];
  readonly requests: number;
}

/** The page-size parameter of an operation and its bounds, when it has one. */
export interface PageSizeParameter {
  readonly name: string;
  readonly minimum: number;
  readonly maximum: number;
}

function member(record: Record<string, unknown>, ...names: string[]): unknown {
  for (const name of names) if (name in record) return record[name];
  const lower = new Map(Object.keys(record).map((k) => [k.toLowerCase().replace(/[-_]/g, ''), k]));
  for (const name of names) {
    const key = lower.get(name.toLowerCase().replace(/[-_]/g, ''));
    if (key !== undefined) return record[key];
  }
  return undefined;
}

function firstArray(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return undefined;
  for (const v of Object.values(value)) if (Array.isArray(v)) return v;
  return undefined;
}

/** The records of a page: the list in `Data` (link paging) or the body's first list. */
function recordsOf(body: unknown, shape: 'links' | 'pages'): unknown[] | undefined {
  if (!isRecord(body)) return undefined;
  return shape === 'links' ? firstArray(member(body, 'Data')) : firstArray(body);
}

function metaOf(body: unknown): Record<string, unknown> | undefined {
  if (!isRecord(body)) return undefined;
  const meta = member(body, 'Meta');
  if (isRecord(meta)) return meta;
  return Object.values(body).find((v) => isRecord(v) && typeof member(v, 'totalPages') === 'number') as Record<string, unknown> | undefined;
}

/** Which paging an answer shows, if any. */
export function pagingShape(body: unknown, hasPageParameter: boolean): 'links' | 'pages' | undefined {
  if (!isRecord(body)) return undefined;
  const links = member(body, 'Links');
  const meta = metaOf(body);
  if (isRecord(links) && meta && typeof member(meta, 'TotalPages') === 'number' && recordsOf(body, 'links')) return 'links';
  // `paginated: false` says the whole list came, whatever page was asked for.
  if (hasPageParameter && meta && typeof member(meta, 'totalPages') === 'number' && member(meta, 'paginated') !== false && recordsOf(body, 'pages')) return 'pages';
  return undefined;
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_k, v: unknown) => (isRecord(v) && !Array.isArray(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v));

function duplicates(records: readonly unknown[]): number {
  const seen = new Set<string>();
  let twice = 0;
  for (const record of records) {
    const key = canonical(record);
    if (seen.has(key)) twice++;
    seen.add(key);
  }
  return twice;
}

function missingFrom(first: readonly unknown[], second: readonly unknown[]): number {
  const keys = new Set(second.map(canonical));
  return first.filter((r) => !keys.has(canonical(r))).length;
}

const isSuccess = (answer: PageAnswer | undefined): boolean => answer !== undefined && answer.status >= 200 && answer.status < 300;

function nextOf(body: unknown): string | undefined {
  const links = isRecord(body) ? member(body, 'Links') : undefined;
  const next = isRecord(links) ? member(links, 'Next') : undefined;
  return typeof next === 'string' ? next : undefined;
}

/** Follows `Links.Next` from the first page; reads the list twice and a page beyond the last. */
export async function checkLinkPaging(first: PageAnswer, reader: PageReader, origin: string): Promise<PagingResult> {
  const problems: string[] = [];
  const notes: string[] = [];
  let requests = 0;
  const totalPages = member(metaOf(first.body)!, 'TotalPages') as number;

  const readAll = async (start: PageAnswer): Promise<{ records: unknown[]; pages: number; complete: boolean }> => {
    const records = [...(recordsOf(start.body, 'links') ?? [])];
    const visited = new Set([start.url]);
    let page = start;
    let pages = 1;
    for (;;) {
      const next = nextOf(page.body);
      if (next === undefined) return { records, pages, complete: true };
      const url = new URL(next, page.url).href;
      if (new URL(url).origin !== origin) {
        notes.push(`Links.Next points to another origin (${new URL(url).origin}); not followed with the run's credentials`);
        return { records, pages, complete: false };
      }
      if (visited.has(url)) {
        problems.push(`Links.Next of page ${pages} points to a page already read (${url})`);
        return { records, pages, complete: false };
      }
      if (pages >= MAX_PAGES) {
        notes.push(`more than ${MAX_PAGES} pages: checked as far as read`);
        return { records, pages, complete: false };
      }
      visited.add(url);
      requests++;
      const answer = await reader.getUrl(url);
      if (!answer || !isSuccess(answer)) {
        problems.push(`following Links.Next of page ${pages} (${url}) was answered ${answer ? `HTTP ${answer.status}` : 'with no usable answer'}`);
        return { records, pages, complete: false };
      }
      const stated = member(metaOf(answer.body) ?? {}, 'TotalPages');
      if (stated !== totalPages) problems.push(`Meta.TotalPages changed from ${totalPages} to ${String(stated)} on page ${pages + 1}`);
      records.push(...(recordsOf(answer.body, 'links') ?? []));
      page = answer;
      pages++;
    }
  };

  const read = await readAll(first);
  const twice = duplicates(read.records);
  if (twice > 0) problems.push(`${twice} record(s) came twice across ${read.pages} pages`);
  if (read.complete && totalPages > 0 && read.pages !== totalPages) problems.push(`Meta.TotalPages is ${totalPages}, but Links.Next led through ${read.pages} page(s)`);
  if (totalPages === 0 && read.records.length > 0) problems.push(`Meta.TotalPages is 0, but ${read.records.length} record(s) came`);

  if (read.complete && read.pages > 1) {
    requests++;
    const again = await reader.getUrl(first.url);
    if (again && isSuccess(again)) {
      const second = await readAll(again);
      const lost = missingFrom(read.records, second.records);
      if (second.complete && lost > 0) problems.push(`${lost} record(s) of the first read are missing from a second read of the same list`);
    }
  }

  // A page beyond the last, where the links show how pages are numbered.
  const links = isRecord(first.body) ? member(first.body, 'Links') : undefined;
  const last = isRecord(links) ? member(links, 'Last') : undefined;
  if (typeof last === 'string' && totalPages > 0) {
    const url = new URL(last, first.url);
    if (url.origin === origin && url.searchParams.has('page')) {
      url.searchParams.set('page', String(totalPages + 1));
      requests++;
      const beyond = await reader.getUrl(url.href);
      if (beyond && beyond.status >= 500) problems.push(`page ${totalPages + 1} (beyond the last) was answered HTTP ${beyond.status}`);
      else if (beyond && isSuccess(beyond) && ((recordsOf(beyond.body, 'links')?.length ?? 0) > 0 || nextOf(beyond.body) !== undefined)) {
        problems.push(`page ${totalPages + 1} (beyond the last) was answered with records or a next link`);
      }
    }
  }
  return { problems, notes, requests };
}

/** Reads pages 1..totalPages, then again with another page size, and a page beyond the last. */
export async function checkPageNumbers(first: PageAnswer, firstPage: number, pageSize: number | undefined, sizeParameter: PageSizeParameter | undefined, reader: PageReader): Promise<PagingResult> {
  const problems: string[] = [];
  const notes: string[] = [];
  let requests = 0;
  const meta = metaOf(first.body)!;
  const totalPages = member(meta, 'totalPages') as number;
  const totalRecords = member(meta, 'totalRecords');

  const readAll = async (size: number | undefined, expected: number | undefined, start: PageAnswer | undefined): Promise<{ records: unknown[]; pages: number; complete: boolean; total: number } | undefined> => {
    const records: unknown[] = [];
    let total = totalPages;
    let page = 1;
    for (; page <= Math.min(total, MAX_PAGES); page++) {
      let answer = page === 1 ? start : undefined;
      if (!answer) {
        requests++;
        answer = await reader.getPage(page, size);
      }
      if (!answer || !isSuccess(answer)) {
        problems.push(`page ${page}${size !== undefined ? ` (page size ${size})` : ''} was answered ${answer ? `HTTP ${answer.status}` : 'with no usable answer'}`);
        return undefined;
      }
      const stated = member(metaOf(answer.body) ?? {}, 'totalPages');
      if (page === 1 && typeof stated === 'number') total = stated;
      else if (stated !== total) problems.push(`totalPages changed from ${total} to ${String(stated)} on page ${page}`);
      const list = recordsOf(answer.body, 'pages') ?? [];
      if (expected !== undefined && page < total && list.length !== expected) problems.push(`page ${page} of ${total} holds ${list.length} record(s); the page size is ${expected}`);
      records.push(...list);
    }
    if (total > MAX_PAGES) notes.push(`more than ${MAX_PAGES} pages: checked as far as read`);
    return { records, pages: page - 1, complete: total <= MAX_PAGES, total };
  };

  // The page size: as asked, else what a full first page holds.
  const size = pageSize ?? (firstPage === 1 && totalPages > 1 ? recordsOf(first.body, 'pages')?.length : undefined);
  const read = await readAll(pageSize, size, firstPage === 1 ? first : undefined);
  if (!read) return { problems, notes, requests };
  const twice = duplicates(read.records);
  if (twice > 0) problems.push(`${twice} record(s) came twice across ${read.pages} pages`);
  if (read.complete && typeof totalRecords === 'number' && read.records.length !== totalRecords) {
    problems.push(`totalRecords is ${totalRecords}, but the ${read.pages} page(s) held ${read.records.length} record(s)`);
  }

  // The same list with another page size must hold the same records.
  if (sizeParameter && size !== undefined && read.complete && read.records.length > 1) {
    const other = Math.min(sizeParameter.maximum, Math.max(sizeParameter.minimum, Math.floor(size / 2) + 1));
    if (other !== size && Math.ceil(read.records.length / other) <= MAX_PAGES) {
      requests++;
      const start = await reader.getPage(1, other);
      if (start && isSuccess(start) && pagingShape(start.body, true) === 'pages') {
        const second = await readAll(other, other, start);
        if (second?.complete) {
          const lost = missingFrom(read.records, second.records);
          const gained = missingFrom(second.records, read.records);
          if (lost > 0 || gained > 0) problems.push(`read with page size ${size} and with ${other}, the list differs: ${lost} record(s) only in the first read, ${gained} only in the second`);
        }
      }
    }
  }

  if (read.total > 0) {
    requests++;
    const beyond = await reader.getPage(read.total + 1, pageSize);
    if (beyond && beyond.status >= 500) problems.push(`page ${read.total + 1} (beyond the last) was answered HTTP ${beyond.status}`);
    else if (beyond && isSuccess(beyond) && (recordsOf(beyond.body, 'pages')?.length ?? 0) > 0) problems.push(`page ${read.total + 1} (beyond the last) was answered with records`);
  }
  return { problems, notes, requests };
}
