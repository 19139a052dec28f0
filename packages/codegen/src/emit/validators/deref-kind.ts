import type { SchemaNode } from '../../ir/types.js';

/**
 * What a schema is, through references and through a JSON Schema runtime node's shape, for
 * emitters that ask what kind of value it holds (a number to decode from text, an object whose
 * members are files...): the shape is at least as wide as the schema, so its kind is the value's.
 */
export function derefKind(node: SchemaNode, components: ReadonlyMap<string, SchemaNode>): SchemaNode {
  let current = node;
  for (let i = 0; (current.kind === 'ref' || current.kind === 'json') && i < 32; i++) {
    current = current.kind === 'json' ? current.shape : (components.get(current.name) ?? { kind: 'any', pointer: current.pointer });
  }
  return current;
}
