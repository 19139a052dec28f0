import type { SchemaNode } from './types.js';

/** Calls `visit` on every node below `node` (itself included), without following refs. */
export function walkSchema(node: SchemaNode, visit: (node: SchemaNode) => void): void {
  visit(node);
  switch (node.kind) {
    case 'array':
      walkSchema(node.items, visit);
      break;
    case 'object':
      for (const property of node.properties) walkSchema(property.schema, visit);
      if (typeof node.additional === 'object') walkSchema(node.additional, visit);
      break;
    case 'union':
      for (const variant of node.variants) walkSchema(variant, visit);
      break;
    case 'intersection':
      for (const part of node.parts) walkSchema(part, visit);
      break;
    default:
      break;
  }
}

export function referencedNames(node: SchemaNode): Set<string> {
  const names = new Set<string>();
  walkSchema(node, (n) => {
    if (n.kind === 'ref') names.add(n.name);
  });
  return names;
}

/** Names of schemas that take part in a reference cycle (Tarjan's strongly connected components). */
export function findRecursiveSchemas(nodes: Map<string, SchemaNode>): Set<string> {
  const edges = new Map<string, string[]>();
  for (const [name, node] of nodes) edges.set(name, [...referencedNames(node)].filter((n) => nodes.has(n)));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const recursive = new Set<string>();
  let counter = 0;

  const strongConnect = (start: string): void => {
    // Iterative, so that a long chain of references cannot overflow the call stack.
    const work: Array<{ name: string; next: number }> = [{ name: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.name)!;
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ name: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.name, Math.min(low.get(frame.name)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.name, Math.min(low.get(parent.name)!, low.get(frame.name)!));
      if (low.get(frame.name) === index.get(frame.name)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.name);
        const selfLoop = edges.get(frame.name)!.includes(frame.name);
        if (component.length > 1 || selfLoop) for (const m of component) recursive.add(m);
      }
    }
  };
  for (const name of [...nodes.keys()].sort()) if (!index.has(name)) strongConnect(name);
  return recursive;
}
