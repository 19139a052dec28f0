/**
 * A schema the JSON Schema runtime validates (`kind: 'json'`) is compared by its shape, so that
 * `codegen diff` still reports what changed inside it between two versions.
 */
import { describe, expect, it } from 'vitest';
import { diffSchemas } from '../../src/diff/diff-schemas.js';
import type { SchemaNode } from '../../src/ir/types.js';

const POINTER = '#/components/schemas/Code';

function validatedByRuntime(shape: SchemaNode): SchemaNode {
  return { kind: 'json', pointer: POINTER, shape };
}

describe('diffSchemas on schemas the JSON Schema runtime validates', () => {
  it('reports a change inside the shape, with its direction', () => {
    const before = validatedByRuntime({ kind: 'string', maxLength: 10, pointer: POINTER });
    const after = validatedByRuntime({ kind: 'string', maxLength: 5, pointer: POINTER });
    expect(diffSchemas(before, after).map(({ direction, description }) => ({ direction, description }))).toStrictEqual([
      { direction: 'narrower', description: 'maxLength 10 → 5' },
    ]);
  });

  it('reports nothing when the shapes are the same', () => {
    const shape: SchemaNode = { kind: 'number', integer: true, minimum: 1, pointer: POINTER };
    expect(diffSchemas(validatedByRuntime(shape), validatedByRuntime({ ...shape }))).toStrictEqual([]);
  });
});
