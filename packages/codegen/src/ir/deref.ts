import type { SchemaNode } from './types.js';
import type { SchemaContext } from './schema-to-ir.js';

/**
 * Follows `ref` nodes to the schema they name. Returns undefined for a reference cycle
 * (the caller must then stay conservative).
 */
export function deref(node: SchemaNode, ctx: SchemaContext, depth = 0): SchemaNode | undefined {
  let current: SchemaNode | undefined = node;
  let hops = 0;
  while (current && current.kind === 'ref') {
    if (hops++ > 64 || depth > 64) return undefined;
    const target = ctx.resolveComponent(current.name);
    if (!target) return undefined;
    current = node.nullable && !target.nullable ? { ...target, nullable: true } : target;
  }
  return current;
}
