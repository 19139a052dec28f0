/**
 * Paging checks against in-memory servers: the pages are cut from an array of records, and
 * each test plants one fault (or none) in how they are cut or linked.
 */
import { describe, expect, it } from 'vitest';
import { MAX_PAGES, checkLinkPaging, checkPageNumbers, pagingShape, type PageAnswer, type PageReader } from '../../../src/server-test/paging.js';

const ORIGIN = 'http://api.example.test';
const LIST = `${ORIGIN}/items`;

interface Rec {
  readonly id: number;
  readonly name: string;
}

const records = (count: number): Rec[] => Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` }));

/** A reader that answers from a function of the URL, and remembers what it was asked. */
class FakeLinkServer implements PageReader {
  readonly urls: string[] = [];
  readonly pageCalls: Array<[number, number | undefined]> = [];
  constructor(private readonly answer: (url: URL) => PageAnswer | undefined) {}

  async getUrl(url: string): Promise<PageAnswer | undefined> {
    this.urls.push(url);
    return this.answer(new URL(url));
  }

  async getPage(page: number, pageSize: number | undefined): Promise<PageAnswer | undefined> {
    this.pageCalls.push([page, pageSize]);
    return undefined;
  }
}

interface LinkListOptions {
  readonly all: readonly Rec[];
  readonly size: number;
  /** Meta.TotalPages stated on page n (default: the right count). */
  readonly totalPages?: (page: number) => number;
  /** Links.Next of page n (default: page n+1 while there is one). */
  readonly next?: (page: number, last: number) => string | undefined;
  /** Records of page n (default: the right slice). */
  readonly slice?: (page: number, all: readonly Rec[], size: number) => Rec[];
  /** Links.Last (default: `/items?page=<last>`); null: none. */
  readonly last?: string | null;
  /** Status of a page (default 200). */
  readonly status?: (page: number) => number;
}

function linkBody(page: number, options: LinkListOptions): unknown {
  const last = Math.max(1, Math.ceil(options.all.length / options.size));
  const data = options.slice ? options.slice(page, options.all, options.size) : options.all.slice((page - 1) * options.size, page * options.size);
  const next = options.next ? options.next(page, last) : page < last ? `${LIST}?page=${page + 1}` : undefined;
  const links: Record<string, string> = { Self: `${LIST}?page=${page}` };
  if (next !== undefined) links['Next'] = next;
  const lastLink = options.last === undefined ? `/items?page=${last}` : options.last;
  if (lastLink !== null) links['Last'] = lastLink;
  return { Data: { Items: data }, Links: links, Meta: { TotalPages: options.totalPages ? options.totalPages(page) : last } };
}

function linkServer(options: LinkListOptions): { server: FakeLinkServer; first: PageAnswer } {
  const server = new FakeLinkServer((url) => {
    if (url.origin !== ORIGIN || url.pathname !== '/items') return { status: 404, body: {}, url: url.href };
    const page = Number(url.searchParams.get('page') ?? '1');
    return { status: options.status ? options.status(page) : 200, body: linkBody(page, options), url: url.href };
  });
  const firstUrl = `${LIST}?page=1`;
  return { server, first: { status: 200, body: linkBody(1, options), url: firstUrl } };
}

describe('pagingShape', () => {
  it('recognises link paging by Links, Meta.TotalPages and a list in Data', () => {
    const body = linkBody(1, { all: records(5), size: 2 });
    expect(pagingShape(body, false)).toBe('links');
    expect(pagingShape(body, true)).toBe('links');
    expect(pagingShape({ Data: { Items: [] }, Meta: { TotalPages: 1 } }, false)).toBeUndefined();
    expect(pagingShape({ Data: { Items: [] }, Links: {}, Meta: { TotalPages: '1' } }, false)).toBeUndefined();
    expect(pagingShape({ Data: { Item: 'no list' }, Links: {}, Meta: { TotalPages: 1 } }, false)).toBeUndefined();
  });

  it('recognises page numbers only where the operation has a page parameter', () => {
    const body = { items: [{ id: 1 }], meta: { totalPages: 3, totalRecords: 7 } };
    expect(pagingShape(body, true)).toBe('pages');
    expect(pagingShape(body, false)).toBeUndefined();
    expect(pagingShape({ items: [{ id: 1 }], pagination: { totalPages: 3 } }, true)).toBe('pages');
  });

  it('treats `paginated: false` as the whole list', () => {
    expect(pagingShape({ items: [{ id: 1 }], meta: { totalPages: 1, paginated: false } }, true)).toBeUndefined();
    expect(pagingShape({ items: [{ id: 1 }], meta: { totalPages: 1, paginated: true } }, true)).toBe('pages');
  });

  it('is undefined for bodies that are not objects', () => {
    expect(pagingShape([1, 2], true)).toBeUndefined();
    expect(pagingShape('text', true)).toBeUndefined();
    expect(pagingShape(undefined, true)).toBeUndefined();
  });
});

describe('checkLinkPaging', () => {
  it('finds nothing wrong with a correct list, and reads it twice and a page beyond the last', async () => {
    const { server, first } = linkServer({ all: records(7), size: 3 });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(server.urls).toEqual([`${LIST}?page=2`, `${LIST}?page=3`, `${LIST}?page=1`, `${LIST}?page=2`, `${LIST}?page=3`, `${LIST}?page=4`]);
    expect(result.requests).toBe(server.urls.length);
  });

  it('follows relative Next links against the page URL', async () => {
    const { server, first } = linkServer({ all: records(4), size: 2, next: (page, last) => (page < last ? `?page=${page + 1}` : undefined) });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual([]);
    expect(server.urls[0]).toBe(`${LIST}?page=2`);
  });

  it('reports a record that comes on two pages', async () => {
    const { server, first } = linkServer({
      all: records(7),
      size: 3,
      // Page 2 starts one record early: record 3 comes twice.
      slice: (page, all, size) => (page === 1 ? all.slice(0, size) : all.slice((page - 1) * size - 1, page * size - 1)),
      last: null,
    });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toContain('1 record(s) came twice across 3 pages');
  });

  it('reports Meta.TotalPages that does not match the pages followed', async () => {
    const { server, first } = linkServer({ all: records(7), size: 3, totalPages: () => 2, last: null });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toContain('Meta.TotalPages is 2, but Links.Next led through 3 page(s)');
  });

  it('reports a Next link on the last page that leads back to a page already read', async () => {
    const { server, first } = linkServer({ all: records(7), size: 3, next: (page, last) => (page < last ? `${LIST}?page=${page + 1}` : `${LIST}?page=1`), last: null });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual([`Links.Next of page 3 points to a page already read (${LIST}?page=1)`]);
    // An incomplete read is not read again.
    expect(server.urls).toEqual([`${LIST}?page=2`, `${LIST}?page=3`]);
  });

  it('reports Meta.TotalPages changing between pages', async () => {
    const { server, first } = linkServer({ all: records(7), size: 3, totalPages: (page) => (page === 2 ? 4 : 3), last: null });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toContain('Meta.TotalPages changed from 3 to 4 on page 2');
    expect(result.problems.every((p) => !p.includes('on page 3'))).toBe(true);
  });

  it('reports a page beyond the last (numbered as Links.Last shows) answered with records', async () => {
    // The server clamps: any page past the end answers the last page again.
    const all = records(7);
    const { server, first } = linkServer({ all, size: 3, slice: (page, list, size) => list.slice((Math.min(page, 3) - 1) * size, Math.min(page, 3) * size) });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual(['page 4 (beyond the last) was answered with records or a next link']);
    expect(server.urls.at(-1)).toBe(`${LIST}?page=4`);
  });

  it('reports a page beyond the last answered 5xx', async () => {
    const { server, first } = linkServer({ all: records(7), size: 3, status: (page) => (page > 3 ? 500 : 200) });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual(['page 4 (beyond the last) was answered HTTP 500']);
  });

  it('does not follow a Next link to another origin: a note, not a problem', async () => {
    const { server, first } = linkServer({ all: records(7), size: 3, next: (page, last) => (page < last ? `http://elsewhere.example.test/items?page=${page + 1}` : undefined) });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual([]);
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toContain('another origin (http://elsewhere.example.test)');
    expect(server.urls.some((u) => u.includes('elsewhere'))).toBe(false);
  });

  it('reports a Next link answered with an error', async () => {
    const { server, first } = linkServer({ all: records(7), size: 3, status: (page) => (page === 2 ? 503 : 200), last: null });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual([`following Links.Next of page 1 (${LIST}?page=2) was answered HTTP 503`]);
  });

  it(`stops after ${MAX_PAGES} pages with a note`, async () => {
    const { server, first } = linkServer({ all: records(MAX_PAGES + 10), size: 1, last: null });
    const result = await checkLinkPaging(first, server, ORIGIN);
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([`more than ${MAX_PAGES} pages: checked as far as read`]);
    expect(server.urls).toHaveLength(MAX_PAGES - 1);
    expect(result.requests).toBe(MAX_PAGES - 1);
  });
});

/** A page-number server over `all`: `cut` gives the records of a page for a page size. */
class FakePageServer implements PageReader {
  readonly calls: Array<[number, number | undefined]> = [];
  constructor(
    private readonly all: readonly Rec[],
    private readonly defaultSize: number,
    private readonly cut: (all: readonly Rec[], page: number, size: number) => Rec[] = (list, page, size) => list.slice((page - 1) * size, page * size),
    private readonly status: (page: number) => number = () => 200,
  ) {}

  body(page: number, pageSize: number | undefined): unknown {
    const size = pageSize ?? this.defaultSize;
    const totalPages = Math.ceil(this.all.length / size);
    return { items: this.cut(this.all, page, size), meta: { page, pageSize: size, totalPages, totalRecords: this.all.length } };
  }

  first(pageSize?: number): PageAnswer {
    return { status: 200, body: this.body(1, pageSize), url: `${LIST}?page=1` };
  }

  async getUrl(): Promise<PageAnswer | undefined> {
    throw new Error('page numbers never follow URLs');
  }

  async getPage(page: number, pageSize: number | undefined): Promise<PageAnswer | undefined> {
    this.calls.push([page, pageSize]);
    return { status: this.status(page), body: this.body(page, pageSize), url: `${LIST}?page=${page}` };
  }
}

const SIZE_PARAMETER = { name: 'pageSize', minimum: 1, maximum: 10 };

describe('checkPageNumbers', () => {
  it('finds nothing wrong with a correct list read with two page sizes', async () => {
    const server = new FakePageServer(records(7), 3);
    const first = server.first();
    expect(pagingShape(first.body, true)).toBe('pages');
    const result = await checkPageNumbers(first, 1, undefined, SIZE_PARAMETER, server);
    expect(result.problems).toEqual([]);
    expect(result.notes).toEqual([]);
    // Pages 2 and 3; then the list again with size 2 (pages 1 to 4); then page 4 beyond the last.
    expect(server.calls).toEqual([
      [2, undefined],
      [3, undefined],
      [1, 2],
      [2, 2],
      [3, 2],
      [4, 2],
      [4, undefined],
    ]);
    expect(result.requests).toBe(server.calls.length);
  });

  it('keeps the page size asked for', async () => {
    const server = new FakePageServer(records(7), 5);
    const result = await checkPageNumbers(server.first(3), 1, 3, SIZE_PARAMETER, server);
    expect(result.problems).toEqual([]);
    expect(server.calls[0]).toEqual([2, 3]);
    expect(server.calls.at(-1)).toEqual([4, 3]);
  });

  it('reads page 1 when the first request asked for another page', async () => {
    const server = new FakePageServer(records(7), 3);
    const first = { status: 200, body: server.body(2, undefined), url: `${LIST}?page=2` };
    const result = await checkPageNumbers(first, 2, undefined, undefined, server);
    expect(result.problems).toEqual([]);
    expect(server.calls.slice(0, 3)).toEqual([
      [1, undefined],
      [2, undefined],
      [3, undefined],
    ]);
  });

  it('reports a record skipped: the count, a page not full, and the read with another page size', async () => {
    // Every page after the first loses its first record.
    const server = new FakePageServer(records(7), 3, (list, page, size) => list.slice((page - 1) * size + (page > 1 ? 1 : 0), page * size));
    const result = await checkPageNumbers(server.first(), 1, undefined, SIZE_PARAMETER, server);
    expect(result.problems).toContain('page 2 of 3 holds 2 record(s); the page size is 3');
    expect(result.problems).toContain('totalRecords is 7, but the 3 page(s) held 5 record(s)');
    // Size 3 gives [1,2,3] [5,6] []; size 2 gives [1,2] [4] [6] []: 3 and 5 only in the first read, 4 only in the second.
    expect(result.problems.find((p) => p.startsWith('read with page size 3 and with 2'))).toBe('read with page size 3 and with 2, the list differs: 2 record(s) only in the first read, 1 only in the second');
  });

  it('reports a page that skips a record but stays full', async () => {
    // Pages after the first start one record late: page 2 is full, the list one short.
    const server = new FakePageServer(records(7), 3, (list, page, size) => (page === 1 ? list.slice(0, size) : list.slice((page - 1) * size + 1, page * size + 1)));
    const result = await checkPageNumbers(server.first(), 1, undefined, SIZE_PARAMETER, server);
    expect(result.problems).toContain('totalRecords is 7, but the 3 page(s) held 6 record(s)');
    expect(result.problems.some((p) => p.startsWith('page 2 of 3 holds'))).toBe(false);
    expect(result.problems).toContain('read with page size 3 and with 2, the list differs: 1 record(s) only in the first read, 1 only in the second');
  });

  it('reports a record that only the read with another page size shows', async () => {
    // With page size 2 the last page holds a record the list does not have.
    const extra: Rec = { id: 99, name: 'stray' };
    const server = new FakePageServer(records(7), 3, (list, page, size) => [...list.slice((page - 1) * size, page * size), ...(size === 2 && page === 4 ? [extra] : [])]);
    const result = await checkPageNumbers(server.first(), 1, undefined, SIZE_PARAMETER, server);
    expect(result.problems).toEqual(['read with page size 3 and with 2, the list differs: 0 record(s) only in the first read, 1 only in the second']);
  });

  it('reports a record that comes twice', async () => {
    const server = new FakePageServer(records(7), 3, (list, page, size) => list.slice(Math.max(0, (page - 1) * size - 1), page * size));
    const result = await checkPageNumbers(server.first(), 1, undefined, undefined, server);
    expect(result.problems.some((p) => /^\d+ record\(s\) came twice across 3 pages$/.test(p))).toBe(true);
  });

  it('reports a page beyond the last answered with records', async () => {
    const server = new FakePageServer(records(7), 3, (list, page, size) => {
      const clamped = Math.min(page, Math.ceil(list.length / size));
      return list.slice((clamped - 1) * size, clamped * size);
    });
    const result = await checkPageNumbers(server.first(), 1, undefined, SIZE_PARAMETER, server);
    expect(result.problems).toEqual(['page 4 (beyond the last) was answered with records']);
  });

  it('reports a page beyond the last answered 5xx', async () => {
    const server = new FakePageServer(records(7), 3, undefined, (page) => (page > 3 ? 500 : 200));
    const result = await checkPageNumbers(server.first(), 1, undefined, undefined, server);
    expect(result.problems).toEqual(['page 4 (beyond the last) was answered HTTP 500']);
  });

  it('reports a page answered with an error and stops there', async () => {
    const server = new FakePageServer(records(7), 3, undefined, (page) => (page === 2 ? 502 : 200));
    const result = await checkPageNumbers(server.first(), 1, undefined, SIZE_PARAMETER, server);
    expect(result.problems).toEqual(['page 2 was answered HTTP 502']);
    expect(server.calls).toEqual([[2, undefined]]);
  });

  it('reports totalPages changing between pages', async () => {
    const server = new FakePageServer(records(7), 3);
    const reader: PageReader = {
      getUrl: () => server.getUrl(),
      getPage: async (page, size) => {
        const answer = await server.getPage(page, size);
        if (page !== 2 || size !== undefined || !answer) return answer;
        const body = answer.body as { items: Rec[]; meta: Record<string, number> };
        return { ...answer, body: { ...body, meta: { ...body.meta, totalPages: 4 } } };
      },
    };
    const result = await checkPageNumbers(server.first(), 1, undefined, undefined, reader);
    expect(result.problems).toEqual(['totalPages changed from 3 to 4 on page 2']);
  });

  it(`reads at most ${MAX_PAGES} pages, with a note`, async () => {
    const server = new FakePageServer(records(MAX_PAGES + 5), 1);
    const result = await checkPageNumbers(server.first(), 1, undefined, undefined, server);
    expect(result.notes).toEqual([`more than ${MAX_PAGES} pages: checked as far as read`]);
    expect(result.problems).toEqual([]);
    expect(server.calls.filter(([page]) => page <= MAX_PAGES)).toHaveLength(MAX_PAGES - 1);
  });
});
