/** The order operations are tested in: producers before the operations that need their values. */
import { describe, expect, it } from 'vitest';
import type { OperationIR, ResponseIR, SchemaNode } from '../../../src/ir/types.js';
import { runOrder } from '../../../src/server-test/run-order.js';
import { obj, operation, param, prop, str } from './fixtures.js';

const ok = (schema?: SchemaNode, status = '200'): ResponseIR => ({ status, description: 'ok', headers: [], content: schema ? [{ contentType: 'application/json', schema, examples: [] } as never] : [] });
const names = (ops: OperationIR[]) => ops.map((op) => op.operationId);
const noComponents = new Map<string, SchemaNode>();

describe('runOrder', () => {
  it('puts a collection before its items, POST before reading, changes after reads and DELETE last, deepest first', () => {
    const itemId = param('itemId', 'path', str());
    const partId = param('partId', 'path', str());
    const ops = [
      operation({ operationId: 'deleteItem', method: 'delete', path: '/items/{itemId}', parameters: [itemId] }),
      operation({ operationId: 'deletePart', method: 'delete', path: '/items/{itemId}/parts/{partId}', parameters: [itemId, partId] }),
      operation({ operationId: 'patchItem', method: 'patch', path: '/items/{itemId}', parameters: [itemId] }),
      operation({ operationId: 'getPart', path: '/items/{itemId}/parts/{partId}', parameters: [itemId, partId] }),
      operation({ operationId: 'getItem', path: '/items/{itemId}', parameters: [itemId] }),
      operation({ operationId: 'addPart', method: 'post', path: '/items/{itemId}/parts', parameters: [itemId] }),
      operation({ operationId: 'listItems', path: '/items' }),
      operation({ operationId: 'createItem', method: 'post', path: '/items' }),
    ];
    expect(names(runOrder(ops, noComponents))).toEqual(['createItem', 'listItems', 'addPart', 'getItem', 'getPart', 'patchItem', 'deletePart', 'deleteItem']);
  });

  it("moves an operation after the one whose answer declares the value it needs, through references and under another spelling", () => {
    const components = new Map<string, SchemaNode>([['Consent', obj([prop('ConsentId', str(), true), prop('BaseConsentId', str())])]]);
    const byBase = operation({ operationId: 'consentsByBase', path: '/consents', parameters: [param('base-consent-id', 'query', str(), true)], responses: [ok()] });
    const one = operation({ operationId: 'getConsent', path: '/consents/{consentId}', parameters: [param('consentId', 'path', str())], responses: [ok({ kind: 'ref', name: 'Consent', pointer: '#/x' })] });
    const listAll = operation({ operationId: 'listConsents', path: '/all-consents', responses: [ok({ kind: 'array', items: obj([prop('consent_id', str())]), pointer: '#/x' })] });
    expect(names(runOrder([byBase, one, listAll], components))).toEqual(['listConsents', 'getConsent', 'consentsByBase']);
    // A value the user gives (--set) waits for no producer.
    const given = (p: { name: string }) => p.name === 'base-consent-id';
    expect(names(runOrder([byBase, one, listAll], components, given))).toEqual(['consentsByBase', 'listConsents', 'getConsent']);
  });

  it('never moves a change before a read to reach a value, and breaks a cycle in the base order', () => {
    const a = operation({ operationId: 'a', path: '/a', parameters: [param('b', 'query', str(), true)], responses: [ok(obj([prop('a', str())]))] });
    const b = operation({ operationId: 'b', path: '/b', parameters: [param('a', 'query', str(), true)], responses: [ok(obj([prop('b', str())]))] });
    const change = operation({ operationId: 'change', method: 'put', path: '/c' });
    expect(names(runOrder([change, a, b], noComponents))).toEqual(['a', 'b', 'change']);
  });
});
