/**
 * The hub-to-LFI paging contract, recognised from the spec: an operation with `page` and
 * `page-size` query parameters whose 200 answer is `{ data: [...], meta: { totalPages, ... } }`.
 * Its scaffolded stub then says how to answer with `lfiPage` (and the contract's order rule
 * when the records are transactions or statements), from the server stubs' runtime.
 */
import type { ApiIR, OperationIR, SchemaNode } from '../ir/types.js';

export interface PagingHint {
  /** Prose for the stub's comment. */
  text: string;
  /** Lines of code, kept as they are. */
  code: string[];
}

/** Order rules of the runtime, by the record members that identify them. */
const ORDERS = [
  { rule: 'transactionOrder', key: 'BookingDateTime', tie: 'TransactionId' },
  { rule: 'statementOrder', key: 'OpeningDate', tie: 'StatementId' },
] as const;

function resolve(node: SchemaNode | undefined, api: ApiIR, hops = 0): SchemaNode | undefined {
  if (node === undefined || hops > 32) return undefined;
  if (node.kind === 'ref') return resolve(api.schemas.find((s) => s.name === node.name)?.schema, api, hops + 1);
  if (node.kind === 'json') return resolve(node.shape, api, hops + 1);
  return node;
}

function member(node: SchemaNode | undefined, name: string, api: ApiIR): SchemaNode | undefined {
  const object = resolve(node, api);
  if (object?.kind !== 'object') return undefined;
  return resolve(object.properties.find((p) => p.name === name)?.schema, api);
}

function memberNames(node: SchemaNode | undefined, api: ApiIR): string[] {
  const object = resolve(node, api);
  return object?.kind === 'object' ? object.properties.map((p) => p.name) : [];
}

export function pagingHint(op: OperationIR, api: ApiIR): PagingHint | undefined {
  const query = new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  if (!query.has('page') || !query.has('page-size')) return undefined;
  const ok = op.responses.find((r) => r.status === '200');
  const body = ok?.content.find((c) => /json/i.test(c.contentType))?.schema;
  const data = member(body, 'data', api);
  if (data?.kind !== 'array' || !memberNames(member(body, 'meta', api), api).includes('totalPages')) return undefined;
  const fields = memberNames(data.items, api);
  const order = ORDERS.find((o) => fields.includes(o.key) && fields.includes(o.tie));
  const imported = order ? `lfiPage and ${order.rule}` : 'lfiPage';
  const text = [
    'Answer one page of every record that passes the request\'s filters with lfiPage, which counts ',
    '`meta` on the whole filtered set',
    order ? `, ordered by ${order.rule} (${order.key} newest first, ties by ${order.tie} newest first)` : ' (keep the records in one stable order)',
    `; import ${imported} from '@bank-data-sharing/server-stubs/runtime':`,
  ].join('');
  const options = `{ page: query.page, pageSize: query['page-size']${order ? `, order: ${order.rule}` : ''} }`;
  return {
    text,
    code: ['async ({ query }) => {', '  const records = ...; // filtered by the request', `  return { status: 200, body: lfiPage(records, ${options}) };`, '}'],
  };
}
