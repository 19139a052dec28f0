/** A query parameter the spec defines once, sent several times, is refused with a message that says so. */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators, specWithSchemas, type LoadedValidators } from '../helpers/generated.js';

const SPEC = {
  ...specWithSchemas({ Sort: { type: 'string', enum: ['asc', 'desc'] } }),
  paths: {
    '/things': {
      get: {
        operationId: 'ListThings',
        parameters: [
          { name: 'q', in: 'query', schema: { type: 'string' } },
          { name: 'must', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } },
          { name: 'sort', in: 'query', schema: { $ref: '#/components/schemas/Sort' } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
        ],
        responses: { '204': { description: 'none' } },
      },
    },
  },
};

type Issues = { success: boolean; data?: unknown; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };

describe('a repeated query parameter', () => {
  let query: { safeParse(value: unknown): Issues; shape: Record<string, { _zod: { optin?: string } }> };
  beforeAll(async () => {
    const mod: LoadedValidators = await loadValidators(SPEC);
    query = (mod.operations['ListThings'] as { request: { query: typeof query } }).request.query;
  });

  it('says the spec defines it once, for text, numbers and referenced enums', () => {
    const result = query.safeParse({ must: 'x', q: ['a', 'b'], page: ['1', '2'], sort: ['asc', 'desc', 'asc'] });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toStrictEqual([
      ['q', 'given 2 times; the spec defines this parameter once'],
      ['page', 'given 2 times; the spec defines this parameter once'],
      ['sort', 'given 3 times; the spec defines this parameter once'],
    ]);
  });

  it('still reads single values, and arrays the spec defines as arrays', () => {
    expect(query.safeParse({ must: 'x', q: 'a', page: '2', sort: 'asc', tag: ['x', 'y'] })).toStrictEqual({ success: true, data: { must: 'x', q: 'a', page: 2, sort: 'asc', tag: ['x', 'y'] } });
    expect(query.safeParse({ must: 'x' }).success).toBe(true);
    expect(query.safeParse({ must: 'x', page: '0' }).error!.issues[0]!.message).not.toContain('times');
  });

  it("keeps a required parameter required and an optional one optional, for whatever reads a member's optionality", () => {
    expect(query.safeParse({}).error!.issues.map((i) => i.path.join('.'))).toStrictEqual(['must']);
    // zod's object types and other tools decide optional members by `optin`.
    expect(query.shape['must']!._zod.optin).toBeUndefined();
    expect(query.shape['q']!._zod.optin).toBe('optional');
  });
});
