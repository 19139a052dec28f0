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
  let query: { safeParse(value: unknown): Issues };
  beforeAll(async () => {
    const mod: LoadedValidators = await loadValidators(SPEC);
    query = (mod.operations['ListThings'] as { request: { query: typeof query } }).request.query;
  });

  it('says the spec defines it once, for text, numbers and referenced enums', () => {
    const result = query.safeParse({ q: ['a', 'b'], page: ['1', '2'], sort: ['asc', 'desc', 'asc'] });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toStrictEqual([
      ['q', 'given 2 times; the spec defines this parameter once'],
      ['page', 'given 2 times; the spec defines this parameter once'],
      ['sort', 'given 3 times; the spec defines this parameter once'],
    ]);
  });

  it('still reads single values, and arrays the spec defines as arrays', () => {
    expect(query.safeParse({ q: 'a', page: '2', sort: 'asc', tag: ['x', 'y'] })).toStrictEqual({ success: true, data: { q: 'a', page: 2, sort: 'asc', tag: ['x', 'y'] } });
    expect(query.safeParse({}).success).toBe(true);
    expect(query.safeParse({ page: '0' }).error!.issues[0]!.message).not.toContain('times');
  });
});
