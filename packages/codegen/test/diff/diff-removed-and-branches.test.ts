/**
 * What `codegen diff` says of a removed operation (404, or 405 where its path keeps other
 * methods) and where it points for a member of an object merged from `allOf` branches.
 */
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import { diffApis, type ApiChange } from '../../src/diff/diff-apis.js';

const ir = (document: unknown) => buildIR({ source: 'x.yaml', document: document as Record<string, unknown>, diagnostics: [] }).api;
const ok = { '200': { description: 'ok' } };

function museum(options: { withDelete: boolean; withList: boolean; branch: Record<string, unknown> }) {
  return {
    openapi: '3.0.3',
    info: { title: 'Museum', version: '1' },
    paths: {
      '/events/{eventId}': {
        get: {
          operationId: 'getEvent',
          parameters: [{ name: 'eventId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' } } } } },
        },
        ...(options.withDelete ? { delete: { operationId: 'deleteEvent', parameters: [{ name: 'eventId', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } } : {}),
      },
      ...(options.withList ? { '/tickets': { get: { operationId: 'listTickets', responses: ok } } } : {}),
    },
    components: {
      schemas: {
        Base: { type: 'object', properties: { id: { type: 'string' } } },
        Event: { allOf: [{ $ref: '#/components/schemas/Base' }, options.branch] },
      },
    },
  };
}

const branchBefore = { type: 'object', properties: { title: { type: 'string' }, dropped: { type: 'string' } } };
const branchAfter = { type: 'object', required: ['title'], properties: { title: { type: 'string' }, added: { type: 'string' } } };
const diff = diffApis(ir(museum({ withDelete: true, withList: true, branch: branchBefore })), ir(museum({ withDelete: false, withList: false, branch: branchAfter })));

function find(location: string, path?: string, description?: string): ApiChange {
  const found = diff.changes.find((c) => c.location === location && c.path === path && (description === undefined || c.description.startsWith(description)));
  if (!found) throw new Error(`no change at ${location} ${path ?? ''}: ${diff.changes.map((c) => `${c.location} ${c.path ?? ''} ${c.description}`).join('; ')}`);
  return found;
}

describe('a removed operation', () => {
  it('gets 405 where other methods remain on its path', () => {
    expect(find('operation deleteEvent').why).toBe('operation removed: a client calling it gets 405 (other methods remain on its path)');
  });

  it('is still served where the same method and path remain under another operationId, so neither 404 nor 405', () => {
    const before = museum({ withDelete: true, withList: false, branch: branchBefore });
    const after = museum({ withDelete: true, withList: false, branch: branchBefore }) as { paths: Record<string, Record<string, { operationId: string }>> };
    after.paths['/events/{eventId}']!['delete']!.operationId = 'removeEvent';
    const renamed = diffApis(ir(before), ir(after)).changes.find((c) => c.location === 'operation deleteEvent');
    expect(renamed?.why).toBe('operation removed: its method and path are still served, as operation removeEvent; clients calling it by name (generated code) must use the new name');
  });

  it('gets 404 where its path is gone', () => {
    expect(find('operation listTickets').why).toBe('operation removed: a client calling it gets 404');
  });
});

describe('a member of an allOf branch', () => {
  const branch = '#/components/schemas/Event/allOf/1';

  it('made required points at the member in its branch, not at the whole schema', () => {
    expect(find('schema Event', 'title', 'now required').pointers).toEqual({ from: `${branch}/properties/title`, to: `${branch}/properties/title` });
  });

  it('added or removed points at the branch on the other side', () => {
    expect(find('schema Event', 'added', 'member added').pointers).toEqual({ from: branch, to: `${branch}/properties/added` });
    expect(find('schema Event', 'dropped', 'member removed').pointers).toEqual({ from: `${branch}/properties/dropped`, to: branch });
  });
});
