/**
 * `codegen diff` on what OpenAPI 3.2 adds: a streamed item schema (its changes named as item
 * changes, breaking by direction), a body that becomes or stops being a sequence, and QUERY
 * and additional-method operations added or moved.
 */
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import { diffApis } from '../../src/diff/diff-apis.js';

const QUOTE = (extra: Record<string, unknown> = {}) => ({ type: 'object', required: ['symbol'], properties: { symbol: { type: 'string', maxLength: 5 }, ...extra } });

function api(paths: Record<string, unknown>) {
  return buildIR({ source: 'x.yaml', document: { openapi: '3.2.0', info: { title: 'Feed', version: '1' }, paths }, diagnostics: [] }).api;
}

const history = (content: Record<string, unknown>) => ({ '/history': { get: { operationId: 'history', responses: { '200': { description: 'ok', content } } } } });
const upload = (content: Record<string, unknown>) => ({ '/import': { post: { operationId: 'upload', requestBody: { required: true, content }, responses: { '204': { description: 'done' } } } } });

describe('diff of OpenAPI 3.2 additions', () => {
  it('names a changed response item schema, breaking for clients when items may carry more', () => {
    const diff = diffApis(api(history({ 'application/jsonl': { itemSchema: QUOTE() } })), api(history({ 'application/jsonl': { itemSchema: QUOTE({ symbol: { type: 'string', maxLength: 9 } }) } })));
    const item = diff.changes.find((c) => c.kind === 'response-item-schema')!;
    expect(item.location).toBe('operation history 200 application/jsonl items');
    expect(item.breaking).toEqual({ client: true, server: false });
    expect(item.reaches).toEqual([{ operationId: 'history', method: 'GET', path: '/history', place: 'response 200 body application/jsonl' }]);
  });

  it('names a changed request item schema, breaking for clients when items may carry less', () => {
    const diff = diffApis(api(upload({ 'application/jsonl': { itemSchema: QUOTE({ symbol: { type: 'string', maxLength: 9 } }) } })), api(upload({ 'application/jsonl': { itemSchema: QUOTE() } })));
    const item = diff.changes.find((c) => c.kind === 'request-item-schema')!;
    expect(item.location).toBe('operation upload request application/jsonl items');
    expect(item.breaking).toEqual({ client: true, server: false });
  });

  it('calls a body that becomes a sequence, or stops being one, breaking for both sides', () => {
    const whole = api(history({ 'application/json': { schema: { type: 'array', items: QUOTE() } } }));
    const items = api(history({ 'application/json': { itemSchema: QUOTE() } }));
    for (const [from, to, description] of [
      [whole, items, 'body is now a sequence of items (itemSchema)'],
      [items, whole, 'body is no longer a sequence of items (itemSchema)'],
    ] as const) {
      const change = diffApis(from, to).changes.find((c) => c.kind === 'response-sequence-changed')!;
      expect(change.description).toBe(description);
      expect(change.breaking).toEqual({ client: true, server: true });
      expect(change.pointers).toEqual({ from: '#/paths/~1history/get/responses/200/content/application~1json', to: '#/paths/~1history/get/responses/200/content/application~1json' });
    }
  });

  it('reports a QUERY operation added, and one that moved to an additional method', () => {
    const before = api({ '/q': { post: { operationId: 'search', responses: { '200': { description: 'ok' } } } } });
    const after = api({ '/q': { query: { operationId: 'search', responses: { '200': { description: 'ok' } } }, additionalOperations: { PURGE: { operationId: 'purge', responses: { '204': { description: 'gone' } } } } } });
    const changes = diffApis(before, after).changes;
    expect(changes.find((c) => c.description === 'POST /q → QUERY /q')?.breaking).toEqual({ client: true, server: true });
    expect(changes.find((c) => c.location === 'operation purge')?.kind).toBe('operation-added');
  });
});

describe('diff of a query string described as one value', () => {
  const search = (maxItems: number) =>
    api({ '/s': { get: { operationId: 'search', parameters: [{ name: 'q', in: 'querystring', content: { 'application/json': { schema: { type: 'object', properties: { symbols: { type: 'array', maxItems } } } } } }], responses: { '200': { description: 'ok' } } } } });

  it('reports a narrower JSON query string schema as breaking for clients', () => {
    const changes = diffApis(search(10), search(5)).changes;
    const change = changes.find((c) => c.kind === 'parameter-schema')!;
    expect(change.location).toContain('querystring q');
    expect(change.breaking).toEqual({ client: true, server: false });
  });
});
