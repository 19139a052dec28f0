import { describe, expect, it } from 'vitest';
import { compareWithKnown, documentFor, knownFrom, rebaseRefs, type FileResult } from './index.mjs';

describe('conformance harness: documents', () => {
  it('rebases fragment references onto the component and leaves references with a URI part', () => {
    const schema = { $ref: '#', items: [{ $ref: '#/$defs/a' }, { $ref: 'other.json#/x' }, { $ref: '#anchor' }], $defs: { a: { $ref: 'http://example.com/s' } } };
    expect(rebaseRefs(schema, 'S3')).toStrictEqual({
      $ref: '#/components/schemas/S3',
      items: [{ $ref: '#/components/schemas/S3/$defs/a' }, { $ref: 'other.json#/x' }, { $ref: '#anchor' }],
      $defs: { a: { $ref: 'http://example.com/s' } },
    });
  });

  it('keeps a property named $ref that is not a reference, and __proto__ as data', () => {
    const schema = JSON.parse('{ "properties": { "$ref": { "type": "string" }, "__proto__": { "type": "number" } } }') as unknown;
    const rebased = rebaseRefs(schema, 'S0') as { properties: Record<string, unknown> };
    expect(Object.keys(rebased.properties)).toStrictEqual(['$ref', '__proto__']);
    expect(Object.getPrototypeOf(rebased.properties)).toBe(Object.prototype);
  });

  it('names each group S<index> in a minimal document', () => {
    expect(documentFor({ openapi: '3.1.0', groups: [{ index: 2, schema: true }] })).toStrictEqual({
      openapi: '3.1.0',
      info: { title: 'Conformance', version: '1' },
      paths: {},
      components: { schemas: { S2: true } },
    });
  });
});

describe('conformance harness: expectations', () => {
  const result = (tests: Array<[number, number, 'pass' | 'wrong' | 'refused']>, refused: number[] = []): FileResult => ({
    draft: '2020-12',
    file: 'k.json',
    openapi: '3.1.0',
    allowedRefusal: false,
    descriptions: [],
    refusedGroups: refused.map((group) => ({ group, codes: ['unsupported-keyword'], messages: ['m'] })),
    tests: tests.map(([group, test, outcome]) => ({ group, test, outcome, description: '', valid: true, ...(outcome === 'wrong' ? { answers: { zod: false } } : {}) })),
  });

  it('holds when the run matches the list', () => {
    const run = [result([[0, 0, 'wrong'], [0, 1, 'pass'], [1, 0, 'refused']], [1])];
    expect(compareWithKnown({ results: run, known: knownFrom(run) })).toStrictEqual([]);
  });

  it('fails on a test newly wrong and on a group newly refused', () => {
    const known = knownFrom([result([[0, 0, 'pass'], [1, 0, 'pass']])]);
    const problems = compareWithKnown({ results: [result([[0, 0, 'wrong'], [1, 0, 'refused']], [1])], known });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('group 1: newly refused (unsupported-keyword)');
    expect(problems[1]).toContain('group 0 test 0: newly wrong');
  });

  it('fails on listed entries that now pass, asking to remove them', () => {
    const known = knownFrom([result([[0, 0, 'wrong'], [1, 0, 'refused']], [1])]);
    const problems = compareWithKnown({ results: [result([[0, 0, 'pass'], [1, 0, 'pass']])], known });
    expect(problems).toHaveLength(2);
    for (const problem of problems) expect(problem).toContain('remove it from known.json');
  });

  it('reports a listed wrong test whose group is now refused once, as the group', () => {
    const known = knownFrom([result([[0, 0, 'wrong']])]);
    const problems = compareWithKnown({ results: [result([[0, 0, 'refused']], [0])], known });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('group 0: newly refused');
  });
});
