/**
 * Lists of any API, for the mock: an operation that declares a page size query parameter
 * (`limit`, `page-size`, `pageSize`, `per_page`, `size`...) and answers a list (a JSON array,
 * or an object whose `data`/`items`/`results`... member is one) answers as many items as the
 * request asks for, from the page or offset it names (`page`, from 1; `offset`, from 0).
 *
 * A list the spec's example holds is cut at that place (a page past its end is empty); a
 * generated list has as many items as asked for (up to `MAX_GENERATED_ITEMS`), made with the
 * request's seed, so that each page has its own. The schema has the last word: a page it
 * refuses (fewer than `minItems`, say) is answered unpaged.
 */
import type { ApiIR, OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
import { derefKind } from '../ir/deref-kind.js';
import { objectMembers } from './schema-members.js';

/** Query parameters that say how many items a page holds. */
export const PAGE_SIZE_NAMES: readonly string[] = ['limit', 'page-size', 'page_size', 'pageSize', 'pagesize', 'per_page', 'perPage', 'size'];

/** Members that hold the items of a list answered in an object, the likeliest first. */
const ITEM_MEMBERS = ['data', 'items', 'results', 'records', 'entries', 'content', 'values', 'elements', 'rows', 'list'];

/** More items than this are never generated for one page: a mock's page stays small. */
export const MAX_GENERATED_ITEMS = 100;

/** How one operation's list is paged. */
export interface ListedOperation {
  /** The success status whose body is (or holds) the list. */
  readonly statusKey: string;
  /** The member holding the items; undefined when the body is the array itself. */
  readonly member: string | undefined;
  /** The query parameter giving the page size. */
  readonly sizeParameter: string;
  /** The query parameter giving the place: a page number (from 1, or from 0 where its minimum is 0) or an item offset. */
  readonly place: { readonly name: string; readonly kind: 'page' | 'offset'; readonly first: number } | undefined;
}

/** The operations of `api` whose lists honour a page size, by operation name. */
export function listedOperations(api: ApiIR): Map<string, ListedOperation> {
  const schemas = new Map(api.schemas.map((s) => [s.name, s.schema]));
  const out = new Map<string, ListedOperation>();
  for (const op of api.operations) {
    const listed = listedOperation(op, schemas);
    if (listed) out.set(op.name, listed);
  }
  return out;
}

function queryParameter(op: OperationIR, names: readonly string[]): ParameterIR | undefined {
  for (const name of names) {
    const found = op.parameters.find((p) => p.in === 'query' && p.name === name);
    if (found) return found;
  }
  return undefined;
}

function listedOperation(op: OperationIR, schemas: ReadonlyMap<string, SchemaNode>): ListedOperation | undefined {
  const size = queryParameter(op, PAGE_SIZE_NAMES);
  const success = op.responses.find((r) => r.status.startsWith('2'));
  if (!size || !success) return undefined;
  const page = queryParameter(op, ['page']);
  const offset = queryParameter(op, ['offset']);
  const place = page
    ? { name: page.name, kind: 'page' as const, first: minimumOf(page.schema, schemas) === 0 ? 0 : 1 }
    : offset
      ? { name: offset.name, kind: 'offset' as const, first: 0 }
      : undefined;
  for (const media of success.content) {
    if (!media.schema || !/json/i.test(media.contentType)) continue;
    if (derefKind(media.schema, schemas).kind === 'array') return { statusKey: success.status, member: undefined, sizeParameter: size.name, place };
    const members = objectMembers(media.schema, schemas);
    if (!members) continue;
    const arrays = [...members].filter(([, schema]) => derefKind(schema, schemas).kind === 'array').map(([name]) => name);
    const member = ITEM_MEMBERS.map((wanted) => arrays.find((name) => name.toLowerCase() === wanted)).find((name) => name !== undefined) ?? (arrays.length === 1 ? arrays[0] : undefined);
    if (member !== undefined) return { statusKey: success.status, member, sizeParameter: size.name, place };
  }
  return undefined;
}

function minimumOf(node: SchemaNode, schemas: ReadonlyMap<string, SchemaNode>): number | undefined {
  const target = derefKind(node, schemas);
  return target.kind === 'number' ? target.minimum : undefined;
}

/** What a request asks of the list: how many items, from which one. */
export interface ListWindow {
  readonly size: number;
  readonly start: number;
}

function wholeNumber(value: unknown): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text === null || text === '') return undefined;
  const number = Number(text);
  return Number.isInteger(number) && number >= 0 ? number : undefined;
}

/** The window a request asks for, or undefined when it names no page size (the list is left as made). */
export function requestedWindow(listed: ListedOperation, query: Readonly<Record<string, unknown>>): ListWindow | undefined {
  const size = wholeNumber(query[listed.sizeParameter]);
  if (size === undefined) return undefined;
  const place = listed.place === undefined ? undefined : wholeNumber(query[listed.place.name]);
  if (place === undefined || listed.place === undefined) return { size, start: 0 };
  const start = listed.place.kind === 'offset' ? place : Math.max(0, place - listed.place.first) * size;
  return { size, start };
}

/** The items of `body`'s list, or undefined when it holds none where expected. */
export function listItems(listed: ListedOperation, body: unknown): unknown[] | undefined {
  if (listed.member === undefined) return Array.isArray(body) ? body : undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const items = (body as Record<string, unknown>)[listed.member];
  return Array.isArray(items) ? items : undefined;
}

/** `body` with its list replaced by `items`. */
export function withItems(listed: ListedOperation, body: unknown, items: unknown[]): unknown {
  if (listed.member === undefined) return items;
  return { ...(body as Record<string, unknown>), [listed.member]: items };
}

/**
 * The page of `body` the window asks for. `fromExample`: the list is the spec's, cut at the
 * window. Otherwise it is generated: `more(k)` gives the k-th further list of the same kind
 * (from 1), whose items fill the page up to its size.
 */
export function pageOfList(listed: ListedOperation, body: unknown, window: ListWindow, fromExample: boolean, more: (k: number) => unknown[] | undefined): unknown {
  const items = listItems(listed, body);
  if (items === undefined) return body;
  if (fromExample) return withItems(listed, body, items.slice(window.start, window.start + window.size));
  const wanted = Math.min(window.size, MAX_GENERATED_ITEMS);
  const page = items.slice(0, wanted);
  // Each further list comes from its own seed; a few empty ones in a row end the search.
  for (let k = 1, empty = 0; page.length < wanted && k <= wanted && empty < 8; k++) {
    const extra = more(k) ?? [];
    empty = extra.length === 0 ? empty + 1 : 0;
    page.push(...extra.slice(0, wanted - page.length));
  }
  return withItems(listed, body, page);
}
