/**
 * This API family's paged lists, for the mock: an operation whose success body carries
 * `Links` and `Meta.TotalPages` is answered as one page of a list of `TOTAL_PAGES` pages,
 * chosen by the `page` query parameter (the family's link URLs are opaque, so the mock
 * writes `page=` into its own links even where the spec declares no such parameter).
 * Switched on by that shape alone, never by the API's name; other APIs never reach it.
 */
import type { ApiIR, OperationIR, SchemaNode } from '../ir/types.js';
import { objectMembers } from './schema-members.js';

/** Every paged list of the mock has this many pages: small, and the same for every seed. */
export const TOTAL_PAGES = 3;

const LINK_MEMBERS = ['Self', 'First', 'Prev', 'Next', 'Last'] as const;

/** How one operation is paged. */
export interface PagedOperation {
  /** The status whose body carries `Links` and `Meta`. */
  readonly statusKey: string;
  /** The `Links` members its schema declares, of Self, First, Prev, Next and Last. */
  readonly links: readonly string[];
  /** Whether `page` is a declared query parameter (then validated by the router). */
  readonly declared: boolean;
  /** What a page beyond the last is answered with: the operation's 404, else its 400. */
  readonly beyondLast: 404 | 400;
}

/** A refusal, for the caller to answer in the spec's error contract. */
export interface PagingRefusal {
  readonly status: 400 | 404;
  readonly message: string;
}

/** The page one request asks for and where its links point. */
export interface PageRequest {
  readonly page: number;
  readonly url: string;
}

/** The operations of `api` answered as pages, by operation name. */
export function pagedOperations(api: ApiIR): Map<string, PagedOperation> {
  const schemas = new Map(api.schemas.map((s) => [s.name, s.schema]));
  const out = new Map<string, PagedOperation>();
  for (const op of api.operations) {
    const paged = pagedOperation(op, schemas);
    if (paged) out.set(op.name, paged);
  }
  return out;
}

function pagedOperation(op: OperationIR, schemas: ReadonlyMap<string, SchemaNode>): PagedOperation | undefined {
  const success = op.responses.find((r) => r.status.startsWith('2'));
  if (!success) return undefined;
  for (const media of success.content) {
    const members = objectMembers(media.schema, schemas);
    const links = objectMembers(members?.get('Links'), schemas);
    const meta = objectMembers(members?.get('Meta'), schemas);
    if (!links?.has('Self') || !meta?.has('TotalPages')) continue;
    const statuses = new Set(op.responses.map((r) => r.status));
    return {
      statusKey: success.status,
      links: LINK_MEMBERS.filter((m) => links.has(m)),
      declared: op.parameters.some((p) => p.in === 'query' && p.name === 'page'),
      beyondLast: statuses.has('404') || !(statuses.has('400') || statuses.has('4XX') || statuses.has('default')) ? 404 : 400,
    };
  }
  return undefined;
}

/**
 * The page a request asks for (1 when it names none): the validated `page` where the spec
 * declares it, else the query's own. A refusal for a malformed page or one beyond the last.
 */
export function requestedPage(paged: PagedOperation, request: { query: Readonly<Record<string, unknown>>; url: string }): PageRequest | PagingRefusal {
  const raw = paged.declared ? request.query.page : new URL(request.url).searchParams.get('page') ?? undefined;
  let page = 1;
  if (raw !== undefined) {
    const text = String(raw);
    if (!/^[1-9]\d{0,8}$/.test(text)) return { status: 400, message: `page must be a whole number from 1 (got ${JSON.stringify(text)})` };
    page = Number(text);
  }
  if (page > TOTAL_PAGES) return { status: paged.beyondLast, message: `page ${page} is beyond the last page (${TOTAL_PAGES})` };
  return { page, url: request.url };
}

function pageUrl(url: string, page: number): string {
  const out = new URL(url);
  out.searchParams.set('page', String(page));
  return out.toString();
}

/** The `Links` of `page`: Self as requested, the others where the schema declares them and the page has them. */
export function pageLinks(paged: PagedOperation, { page, url }: PageRequest): Record<string, string> {
  const wanted: Record<string, number | undefined> = {
    First: 1,
    Prev: page > 1 ? page - 1 : undefined,
    Next: page < TOTAL_PAGES ? page + 1 : undefined,
    Last: TOTAL_PAGES,
  };
  const links: Record<string, string> = { Self: url };
  for (const member of paged.links) {
    const target = wanted[member];
    if (member !== 'Self' && target !== undefined) links[member] = pageUrl(url, target);
  }
  return links;
}

/** `body` made page `request.page` of `TOTAL_PAGES`: its `Links` replaced, its `Meta.TotalPages` set. */
export function pagedBody(paged: PagedOperation, body: unknown, request: PageRequest): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const record = body as Record<string, unknown>;
  const meta = record.Meta !== null && typeof record.Meta === 'object' ? record.Meta : {};
  return { ...record, Links: pageLinks(paged, request), Meta: { ...meta, TotalPages: TOTAL_PAGES } };
}
