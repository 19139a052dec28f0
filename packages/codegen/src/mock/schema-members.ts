/** The members an IR schema declares for an object, seen through references and `allOf`. */
import type { SchemaNode } from '../ir/types.js';
import { derefKind } from '../ir/deref-kind.js';

/** How deep `allOf` parts are followed before giving up (a cycle through them). */
const MAX_DEPTH = 16;

/**
 * The declared members of the object `node` describes, by name; undefined when it is not
 * (or not only) an object: a union may be any of its variants, so it declares nothing sure.
 *
 * @example
 * objectMembers({ kind: 'ref', name: 'Page' }, schemas)?.has('Links')
 */
export function objectMembers(node: SchemaNode | undefined, schemas: ReadonlyMap<string, SchemaNode>, depth = 0): Map<string, SchemaNode> | undefined {
  if (!node || depth > MAX_DEPTH) return undefined;
  const target = derefKind(node, schemas);
  switch (target.kind) {
    case 'object':
      return new Map(target.properties.map((p) => [p.name, p.schema]));
    case 'intersection': {
      const out = new Map<string, SchemaNode>();
      let any = false;
      for (const part of target.parts) {
        const members = objectMembers(part, schemas, depth + 1);
        if (!members) continue;
        any = true;
        for (const [name, schema] of members) if (!out.has(name)) out.set(name, schema);
      }
      return any ? out : undefined;
    }
    default:
      return undefined;
  }
}
