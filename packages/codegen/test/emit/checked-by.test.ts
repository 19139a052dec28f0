/**
 * Schemas in a reference cycle: zod's compiler cannot take them, so they keep zod's parser and
 * get their check function and writer through `rt.checkedBy`. These tests hold `validate` to
 * zod's answers on such schemas, and show that the check (not zod's parser) answers valid
 * values: without it, every `validate` of a recursive schema would walk the value with zod.
 */
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { jsonWriterOf } from '@bank-data-sharing/wire';
import { loadValidators, type LoadedValidators } from '../helpers/generated.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const SCHEMAS = {
  // Closed, so that an extra member deep in the tree is a reason to refuse it.
  Tree: { type: 'object', additionalProperties: false, required: ['value'], properties: { value: { type: 'integer' }, children: { type: 'array', items: ref('Tree') } } },
  // A cycle through two schemas, open objects.
  Node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, branch: ref('Branch') } },
  Branch: { type: 'object', required: ['nodes'], properties: { nodes: { type: 'array', items: ref('Node') } } },
};

/** Tree answers 200 on an operation: writers are generated for bodies only. */
const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Cycles', version: '1.0.0' },
  paths: {
    '/tree': { get: { operationId: 'getTree', responses: { '200': { description: 'ok', content: { 'application/json': { schema: ref('Tree') } } } } } },
  },
  components: { schemas: SCHEMAS },
};

/** A Tree `depth` levels deep whose deepest node is `leaf`. */
function chain(depth: number, leaf: Record<string, unknown> = { value: 0 }): Record<string, unknown> {
  let node = leaf;
  for (let i = 1; i < depth; i++) node = { value: i, children: [node] };
  return node;
}

const CASES: Array<[keyof typeof SCHEMAS, unknown]> = [
  ['Tree', { value: 1 }],
  ['Tree', { value: 1, children: [] }],
  ['Tree', { value: 1, children: [{ value: 2 }, { value: 3, children: [{ value: 4 }] }] }],
  ['Tree', chain(40)],
  // A wrong type at depth 3, the rest of the tree being valid.
  ['Tree', chain(3, { value: '3' })],
  ['Tree', chain(3, { value: 3.5 })],
  ['Tree', { value: 1, children: [{ value: 2 }, { value: 3, children: [{ value: 4 }, { value: null }] }] }],
  ['Tree', chain(40, { value: 0, children: [null] })],
  // Extra members on the closed object, at the root and nested.
  ['Tree', { value: 1, extra: true }],
  ['Tree', chain(3, { value: 0, note: 'x' })],
  ['Tree', { value: 1, children: {} }],
  ['Tree', { children: [] }],
  ['Tree', null],
  ['Tree', [{ value: 1 }]],
  ['Node', { name: 'a' }],
  ['Node', { name: 'a', extra: 1, branch: { nodes: [{ name: 'b', branch: { nodes: [] } }] } }],
  ['Node', { name: 'a', branch: { nodes: [{ name: 'b', branch: { nodes: [{ name: 1 }] } }] } }],
  ['Node', { name: 'a', branch: { nodes: [{ name: 'b', branch: {} }] } }],
  ['Branch', { nodes: [{ name: 'a', branch: { nodes: [{ name: 'b' }] } }] }],
  ['Branch', { nodes: [{ name: 'a', branch: { nodes: 'b' } }] }],
];

type Validating = { validate(value: unknown): boolean; safeParse(value: unknown): { success: boolean }; _zod: { run: (...args: unknown[]) => unknown } };

describe('validate on schemas in a reference cycle', () => {
  let v: LoadedValidators;
  const schema = (name: string) => v.schemas[name] as unknown as Validating;
  beforeAll(async () => {
    v = await loadValidators(DOCUMENT);
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('answers as zod parses, and as the check function does', () => {
    const checks = v['checks'] as Record<string, (value: unknown) => boolean>;
    const answers = CASES.map(([name, value]) => [name, value, schema(name).validate(value), schema(name).safeParse(value).success, checks[name]!(value)]);
    const differing = answers.filter(([, , validated, parsed, checked]) => validated !== parsed || checked !== parsed);
    expect(differing).toStrictEqual([]);
    // Not vacuous: each schema has values accepted and values refused.
    for (const name of Object.keys(SCHEMAS)) {
      expect([name, new Set(answers.filter(([n]) => n === name).map(([, , validated]) => validated)).size]).toStrictEqual([name, 2]);
    }
  });

  it("answers valid values with the check function, without zod's parser", () => {
    for (const name of Object.keys(SCHEMAS)) {
      const target = schema(name);
      const valid = CASES.filter(([n, value]) => n === name && target.safeParse(value).success).map(([, value]) => value);
      expect([name, valid.length > 0]).toStrictEqual([name, true]);
      // zod's parser of a schema is `_zod.run`, which its lazy references call too: a spy on it
      // sees any walk of the value by zod, nested ones included.
      const run = vi.spyOn(target._zod, 'run');
      for (const value of valid) {
        run.mockClear();
        expect(target.validate(value)).toBe(true);
        expect([name, value, run.mock.calls.length]).toStrictEqual([name, value, 0]);
      }
    }
  });

  it("leaves the last word to zod's parser when the check says no", () => {
    const target = schema('Tree');
    const run = vi.spyOn(target._zod, 'run');
    expect(target.validate(chain(3, { value: '3' }))).toBe(false);
    expect(run).toHaveBeenCalled();
  });

  it('has its writer, the exported one, attached', () => {
    const writer = jsonWriterOf(v.schemas['Tree']);
    expect(writer).toBeTypeOf('function');
    expect(writer).toBe(v['writeTree']);
    expect(writer!(chain(3))).toBe(JSON.stringify(chain(3)));
    // Checking as it writes: the same refusal as validate's at depth 3.
    expect(writer!(chain(3, { value: '3' }))).toBeUndefined();
  });
});
