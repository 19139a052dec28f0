import type { SchemaNode } from './types.js';

/** Component schemas by name: a finished map, or the IR builder's lookup while it is building them. */
export type ComponentLookup = Pick<ReadonlyMap<string, SchemaNode>, 'get'>;

/**
 * What a schema is, through references and through a JSON Schema runtime node's shape, for
 * emitters that ask what kind of value it holds (a number to decode from text, an object whose
 * members are files...): the shape is at least as wide as the schema, so its kind is the value's.
 */
export function derefKind(node: SchemaNode, components: ComponentLookup): SchemaNode {
  let current = node;
  for (let i = 0; (current.kind === 'ref' || current.kind === 'json') && i < 32; i++) {
    current = current.kind === 'json' ? current.shape : (components.get(current.name) ?? { kind: 'any', pointer: current.pointer });
  }
  return current;
}
