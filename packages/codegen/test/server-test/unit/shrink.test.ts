/** Shrinking a failing request: what is cut, what never is, and the step bound. */
import { describe, expect, it } from 'vitest';
import type { RequestParts } from '../../../src/mock/sample-request.js';
import { MAX_SHRINK_STEPS, shrinkRequest } from '../../../src/server-test/shrink.js';
import { int, obj, operation, param, parts, prop, snapshot, str } from './fixtures.js';

const op = operation({
  operationId: 'updateItem',
  method: 'put',
  path: '/items/{id}',
  parameters: [
    param('id', 'path', str()),
    param('q', 'query', str(), true),
    param('limit', 'query', int(), false),
    param('X-Trace', 'header', str(), false),
    param('X-Tenant', 'header', str(), true),
    param('session', 'cookie', str(), false),
  ],
  requestBody: { required: true, content: [{ contentType: 'application/json', examples: [], schema: obj([prop('a', int()), prop('b', int()), prop('c', str())]) }] },
});

const base = (): RequestParts =>
  parts({
    path: { id: { value: 'abc' } },
    query: { q: { value: 'find' }, limit: { value: 5 } },
    header: { 'X-Trace': { value: 't-1' }, 'X-Tenant': { value: 'acme' } },
    cookie: { session: { value: 's-1' } },
    body: { contentType: 'application/json', value: { a: 1, b: [1, 2, 3, 4], c: 'x' } },
  });

const bodyValue = (p: RequestParts): unknown => (p.body && 'value' in p.body ? p.body.value : undefined);

describe('shrinkRequest', () => {
  it('cuts every optional parameter and body member while each cut still fails', async () => {
    const tried: RequestParts[] = [];
    const result = await shrinkRequest(op, base(), async (candidate) => {
      tried.push(candidate);
      return true;
    });
    expect(result.parts.path).toEqual({ id: { value: 'abc' } });
    expect(result.parts.query).toEqual({ q: { value: 'find' } });
    expect(result.parts.header).toEqual({ 'X-Tenant': { value: 'acme' } });
    expect(result.parts.cookie).toEqual({});
    expect(result.parts.body).toEqual({ contentType: 'application/json', value: {} });
    // limit, X-Trace, session, then a, b and c: one accepted step each.
    expect(result.steps).toBe(6);
    expect(tried).toHaveLength(6);
  });

  it('never leaves out a required parameter nor a path parameter', async () => {
    const tried: RequestParts[] = [];
    await shrinkRequest(op, base(), async (candidate) => {
      tried.push(candidate);
      return tried.length % 2 === 0;
    });
    expect(tried.length).toBeGreaterThan(0);
    for (const candidate of tried) {
      expect(candidate.query['q']).toEqual({ value: 'find' });
      expect(candidate.header['X-Tenant']).toEqual({ value: 'acme' });
      expect(candidate.path['id']).toEqual({ value: 'abc' });
    }
  });

  it('keeps the request as it was when no cut still fails, and counts every candidate tried', async () => {
    const original = base();
    const before = snapshot(original);
    const result = await shrinkRequest(op, original, async () => false);
    expect(result.parts).toBe(original);
    expect(snapshot(original)).toEqual(before);
    // limit, X-Trace, session, members a, b, c, and b cut to half.
    expect(result.steps).toBe(7);
  });

  it('keeps only the cuts `keep` accepts', async () => {
    const { limit: _limit, ...withoutLimit } = base().query;
    const wanted = JSON.stringify({ ...base(), query: withoutLimit });
    const result = await shrinkRequest(op, base(), async (candidate) => JSON.stringify(candidate) === wanted);
    expect(result.parts.query).toEqual({ q: { value: 'find' } });
    expect(result.parts.header).toEqual({ 'X-Trace': { value: 't-1' }, 'X-Tenant': { value: 'acme' } });
    expect(result.parts.cookie).toEqual({ session: { value: 's-1' } });
    expect(bodyValue(result.parts)).toEqual({ a: 1, b: [1, 2, 3, 4], c: 'x' });
    // Round 1: limit accepted (1). Round 2: X-Trace, session, a, b, c, b halved all refused (6).
    expect(result.steps).toBe(7);
  });

  it('halves lists inside the body', async () => {
    const members = (p: RequestParts) => Object.keys(bodyValue(p) as object).length;
    const result = await shrinkRequest(op, parts({ body: { contentType: 'application/json', value: { a: 1, b: [1, 2, 3, 4] } } }), async (candidate) => members(candidate) === 2);
    expect(bodyValue(result.parts)).toEqual({ a: 1, b: [] });
    // [1,2,3,4] -> [1,2] -> [1] -> []: three rounds of 3 candidates (a, b, halve b), then a and b refused.
    expect(result.steps).toBe(3 * 3 + 2);
  });

  it('halves an array body down to empty', async () => {
    const result = await shrinkRequest(op, parts({ body: { contentType: 'application/json', value: [1, 2, 3, 4, 5, 6, 7, 8] } }), async () => true);
    expect(bodyValue(result.parts)).toEqual([]);
    expect(result.steps).toBe(4);
  });

  it('leaves a raw body alone', async () => {
    const original = parts({ body: { contentType: 'application/json', raw: '{"a":1}' } });
    const result = await shrinkRequest(op, original, async () => true);
    expect(result.parts).toBe(original);
    expect(result.steps).toBe(0);
  });

  it(`stops after ${MAX_SHRINK_STEPS} requests, whether they are kept or not`, async () => {
    const big = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`m${i}`, i]));
    let calls = 0;
    const refused = await shrinkRequest(op, parts({ body: { contentType: 'application/json', value: big } }), async () => {
      calls++;
      return false;
    });
    expect(refused.steps).toBe(MAX_SHRINK_STEPS);
    expect(calls).toBe(MAX_SHRINK_STEPS);

    calls = 0;
    const kept = await shrinkRequest(op, parts({ body: { contentType: 'application/json', value: big } }), async () => {
      calls++;
      return true;
    });
    expect(kept.steps).toBe(MAX_SHRINK_STEPS);
    expect(calls).toBe(MAX_SHRINK_STEPS);
    expect(Object.keys(bodyValue(kept.parts) as object)).toHaveLength(100 - MAX_SHRINK_STEPS);
  });
});
