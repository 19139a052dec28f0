/**
 * `codegen diff` on OpenAPI 3.1 webhooks. A webhook travels the other way round: the API
 * writes the delivery and its users' receivers read it, so a delivery that may carry more
 * breaks receivers (clients) and one that carries less breaks the API (server); a receiver's
 * answer is the mirror image. Component schemas used by a webhook are reached through it.
 */
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import { diffApis } from '../../src/diff/diff-apis.js';
import { formatDiffText } from '../../src/diff/format-diff.js';

const ORDER = (statusEnum: string[], extra: Record<string, unknown> = {}) => ({
  type: 'object',
  required: ['id', 'status'],
  properties: { id: { type: 'string' }, status: { type: 'string', enum: statusEnum }, ...extra },
});

const ANSWER = (maxLength: number) => ({ type: 'object', properties: { note: { type: 'string', maxLength } } });

function api(webhooks: Record<string, unknown>, schemas: Record<string, unknown> = {}) {
  return buildIR({
    source: 'x.yaml',
    document: { openapi: '3.1.0', info: { title: 'Shop', version: '1' }, paths: {}, webhooks, components: { schemas } },
    diagnostics: [],
  }).api;
}

function orderEvent(body: Record<string, unknown>, answer: Record<string, unknown> = ANSWER(10), headers: unknown[] = []) {
  return {
    post: {
      parameters: headers,
      requestBody: { required: true, content: { 'application/json': { schema: body } } },
      responses: { '200': { description: 'received', content: { 'application/json': { schema: answer } } } },
    },
  };
}

const REF = { $ref: '#/components/schemas/Order' };

describe('diff of webhooks', () => {
  it('calls a delivery that may carry more breaking for receivers, and one that carries less breaking for the API', () => {
    const wider = diffApis(api({ orderPlaced: orderEvent(ORDER(['new'])) }), api({ orderPlaced: orderEvent(ORDER(['new', 'paid'])) }));
    const change = wider.changes.find((c) => c.kind === 'request-schema')!;
    expect(change.location).toBe('webhook orderPlaced request application/json');
    expect(change.breaking).toEqual({ client: true, server: false });
    expect(change.why).toContain('in webhook deliveries: a receiver that checks deliveries strictly rejects what the API may now send');
    expect(change.reaches).toEqual([{ operationId: 'orderPlaced', method: 'POST', path: 'webhook orderPlaced', place: 'request body application/json' }]);

    const narrower = diffApis(api({ orderPlaced: orderEvent(ORDER(['new', 'paid'])) }), api({ orderPlaced: orderEvent(ORDER(['new'])) }));
    expect(narrower.changes.find((c) => c.kind === 'request-schema')!.breaking).toEqual({ client: false, server: true });
  });

  it("treats the receiver's answer as a request: one that accepts less breaks receivers", () => {
    const diff = diffApis(api({ orderPlaced: orderEvent(ORDER(['new']), ANSWER(10)) }), api({ orderPlaced: orderEvent(ORDER(['new']), ANSWER(5)) }));
    const change = diff.changes.find((c) => c.kind === 'response-schema')!;
    expect(change.location).toBe('webhook orderPlaced 200 application/json');
    expect(change.breaking).toEqual({ client: true, server: false });
    expect(change.why).toContain('in answers to webhooks: a receiver answering what was valid before is refused');
  });

  it('reports a webhook removed (breaking receivers) and one added (breaking the API), and a new required header', () => {
    const before = api({ orderPlaced: orderEvent(ORDER(['new'])), orderShipped: orderEvent(ORDER(['new'])) });
    const header = [{ name: 'X-Signature', in: 'header', required: true, schema: { type: 'string' } }];
    const after = api({ orderPlaced: orderEvent(ORDER(['new']), ANSWER(10), header), orderRefunded: orderEvent(ORDER(['new'])) });
    const diff = diffApis(before, after);
    const byKind = (kind: string) => diff.changes.filter((c) => c.kind === kind).map((c) => [c.location, c.breaking]);
    expect(byKind('webhook-removed')).toEqual([['webhook orderShipped', { client: true, server: false }]]);
    expect(byKind('webhook-added')).toEqual([['webhook orderRefunded', { client: false, server: true }]]);
    // A header the API now always sends: receivers are told, the API must send it.
    expect(byKind('parameter-added')).toEqual([['webhook orderPlaced parameter header x-signature', { client: false, server: true }]]);
  });

  it('counts a component schema read only by a webhook as read in deliveries, and names the webhook it reaches', () => {
    const diff = diffApis(api({ orderPlaced: orderEvent(REF) }, { Order: ORDER(['new']) }), api({ orderPlaced: orderEvent(REF) }, { Order: ORDER(['new', 'paid']) }));
    const change = diff.changes.find((c) => c.location === 'schema Order')!;
    expect(change.breaking).toEqual({ client: true, server: false });
    expect(change.reaches).toEqual([{ operationId: 'orderPlaced', method: 'POST', path: 'webhook orderPlaced', place: 'request body application/json' }]);
    expect(formatDiffText(diff)).toContain('reaches POST webhook orderPlaced: request body application/json');
  });

  it('reports nothing when the webhooks are the same', () => {
    const same = () => api({ orderPlaced: orderEvent(REF) }, { Order: ORDER(['new']) });
    expect(diffApis(same(), same()).changes).toEqual([]);
  });
});
