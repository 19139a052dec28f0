/**
 * The order operations are tested in: producers first, so that the values their answers hand
 * out (harvest.ts) are there when an operation needs them. By path, a collection before its
 * items (`/x` before `/x/{id}`); by method, creation (POST) before reading, reading before
 * changing (PUT, PATCH), deleting last (the deepest items first). Then an operation that needs
 * a value (a required path or query parameter) which another operation's success answer
 * declares (a member of that name, or the `id` of a collection's items) goes after it.
 */
import type { OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
import { nameKey } from './names.js';
import { PathTemplates } from './path-templates.js';

/** Methods that create or only read: their answers are what later requests are made from. */
const PRODUCERS = new Set(['post', 'get', 'head', 'query']);

function phase(op: OperationIR): number {
  if (op.method === 'delete') return 3;
  if (op.method === 'put' || op.method === 'patch') return 2;
  return 1;
}

const level = (op: OperationIR) => op.parameters.filter((p) => p.in === 'path').length;

/** The base order: phase, then level (deletes deepest first), then POST first, then the file's order. */
function baseOrder(operations: readonly OperationIR[]): OperationIR[] {
  const key = (op: OperationIR) => [phase(op), phase(op) === 3 ? -level(op) : level(op), op.method === 'post' ? 0 : 1] as const;
  return operations
    .map((op, index) => ({ op, index, key: key(op) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2] || a.index - b.index)
    .map(({ op }) => op);
}

/** Member names (as keys) a schema declares, through references, at any depth. */
function memberKeys(node: SchemaNode | undefined, components: ReadonlyMap<string, SchemaNode>, out: Set<string>, seen: Set<string>, depth = 0): void {
  if (!node || depth > 12) return;
  switch (node.kind) {
    case 'ref':
      if (seen.has(node.name)) return;
      seen.add(node.name);
      memberKeys(components.get(node.name), components, out, seen, depth + 1);
      return;
    case 'object':
      for (const property of node.properties) {
        out.add(nameKey(property.name));
        memberKeys(property.schema, components, out, seen, depth + 1);
      }
      return;
    case 'array':
      memberKeys(node.items, components, out, seen, depth + 1);
      return;
    case 'union':
      for (const variant of node.variants) memberKeys(variant, components, out, seen, depth + 1);
      return;
    case 'intersection':
      for (const part of node.parts) memberKeys(part, components, out, seen, depth + 1);
      return;
    case 'json':
      memberKeys(node.shape, components, out, seen, depth + 1);
      return;
    default:
      return;
  }
}

/** The keys of the values an operation's success answers declare. */
function gives(op: OperationIR, components: ReadonlyMap<string, SchemaNode>, templates: PathTemplates): Set<string> {
  const out = new Set<string>();
  if (!PRODUCERS.has(op.method)) return out;
  const success = op.responses.filter((r) => r.status.startsWith('2'));
  for (const response of success) for (const media of response.content) memberKeys(media.schema, components, out, new Set());
  // The `id` of a collection's items, or a created item's `Location`, names its item path's parameter.
  const located = success.some((r) => r.headers.some((h) => h.name.toLowerCase() === 'location'));
  if (out.has('id') || located || op.method === 'post') for (const name of templates.itemParameters(op.path)) out.add(nameKey(name));
  return out;
}

const needed = (p: ParameterIR) => p.in === 'path' || (p.in === 'query' && p.required);

/**
 * The operations in the order to test them. `given` tells whether the user gives a
 * parameter's value (`--set`): such a parameter waits for no producer.
 */
export function runOrder(operations: readonly OperationIR[], components: ReadonlyMap<string, SchemaNode>, given: (param: ParameterIR) => boolean = () => false): OperationIR[] {
  const templates = new PathTemplates(operations);
  const base = baseOrder(operations);
  const produced = new Map(base.map((op) => [op, gives(op, components, templates)]));
  // What an operation waits for: values it needs that another operation declares.
  const waits = new Map(
    base.map((op) => {
      const keys = op.parameters.filter((p) => needed(p) && !given(p)).map((p) => nameKey(p.name));
      return [op, new Set(keys.filter((key) => base.some((other) => other !== op && produced.get(other)!.has(key))))];
    }),
  );
  const remaining = [...base];
  const ordered: OperationIR[] = [];
  const available = new Set<string>();
  while (remaining.length > 0) {
    // The first in the base order whose values are all available, within the phase at hand (a
    // change never goes before a read for that); in a cycle, the first.
    const current = phase(remaining[0]!);
    let index = remaining.findIndex((op) => phase(op) === current && [...waits.get(op)!].every((key) => available.has(key)));
    if (index === -1) index = 0;
    const [next] = remaining.splice(index, 1);
    ordered.push(next!);
    for (const key of produced.get(next!)!) available.add(key);
  }
  return ordered;
}
