import type { SchemaNode } from '../ir/types.js';

/**
 * How a change moves the set of valid values: `narrower` rejects values that were valid,
 * `wider` accepts values that were not, `changed` does both (or cannot be ordered, such as
 * two different patterns).
 */
export type Direction = 'narrower' | 'wider' | 'changed' | 'compatible';

/** Looks up component schemas on each side, to compare a reference with an inline schema. */
export interface SchemaResolver {
  before: (name: string) => SchemaNode | undefined;
  after: (name: string) => SchemaNode | undefined;
  /** Pairs of differently named components already compared on this path (cycles). */
  visiting?: Set<string>;
}

export interface SchemaChange {
  /** Field path inside the schema, e.g. `Data.Transaction[].Amount`. Empty for the root. */
  path: string;
  direction: Direction;
  description: string;
  /** JSON pointers of what changed in the older and the newer document. */
  from?: string;
  to?: string;
  /** The change said for a reader, when the description alone does not say why it matters. */
  fact?: string;
}

function describe(node: SchemaNode): string {
  if (node.kind === 'ref') return `$ref ${node.name}`;
  if (node.kind === 'number') return node.integer ? 'integer' : 'number';
  return node.kind;
}

/** `{ [key]: value }`, or nothing for an undefined value (the change's pointers are optional). */
function optional<K extends 'from' | 'to'>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: string };
}

function join(path: string, member: string): string {
  return path ? `${path}.${member}` : member;
}

function bound(
  changes: SchemaChange[],
  path: string,
  label: string,
  before: number | undefined,
  after: number | undefined,
  largerIsNarrower: boolean,
): void {
  if (before === after) return;
  let direction: Direction;
  if (before === undefined) direction = 'narrower';
  else if (after === undefined) direction = 'wider';
  else direction = after > before === largerIsNarrower ? 'narrower' : 'wider';
  changes.push({ path, direction, description: `${label} ${before ?? 'none'} → ${after ?? 'none'}` });
}

function setChange(changes: SchemaChange[], path: string, label: string, before: readonly unknown[] | undefined, after: readonly unknown[] | undefined): void {
  if (before === undefined && after === undefined) return;
  if (before === undefined) {
    changes.push({ path, direction: 'narrower', description: `${label} added: ${after!.map((v) => JSON.stringify(v)).join(', ')}` });
    return;
  }
  if (after === undefined) {
    changes.push({ path, direction: 'wider', description: `${label} removed` });
    return;
  }
  const added = after.filter((v) => !before.includes(v));
  const removed = before.filter((v) => !after.includes(v));
  if (added.length > 0) changes.push({ path, direction: 'wider', description: `${label} values added: ${added.map((v) => JSON.stringify(v)).join(', ')}` });
  if (removed.length > 0) changes.push({ path, direction: 'narrower', description: `${label} values removed: ${removed.map((v) => JSON.stringify(v)).join(', ')}` });
}

/**
 * The object a member's schema is declared in: `#/…/Event/allOf/1/properties/title` →
 * `#/…/Event/allOf/1`. An object merged from `allOf` branches has the pointer of the whole
 * schema; its members keep the pointer of the branch they sit in.
 */
function holderOf(memberPointer: string | undefined, name: string): string | undefined {
  const suffix = `/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return memberPointer?.endsWith(suffix) ? memberPointer.slice(0, -suffix.length) : undefined;
}

/** `place` (below `fromRoot`) at the same place below `toRoot`, the other version's root. */
function samePlace(place: string | undefined, fromRoot: string | undefined, toRoot: string | undefined): string | undefined {
  if (place === undefined || fromRoot === undefined || toRoot === undefined) return undefined;
  if (place === fromRoot) return toRoot;
  return place.startsWith(`${fromRoot}/`) ? `${toRoot}${place.slice(fromRoot.length)}` : undefined;
}

/**
 * Compares two schema nodes field by field. References to component schemas are compared by
 * name only: the components themselves are compared once, on their own.
 */
export function diffSchemas(before: SchemaNode, after: SchemaNode, path = '', depth = 0, resolver?: SchemaResolver): SchemaChange[] {
  const changes: SchemaChange[] = [];
  if (depth > 32) return changes;
  // A reference on one side only (`allOf: [$ref]` against an inline object): compare what it names.
  if (resolver && (before.kind === 'ref') !== (after.kind === 'ref')) {
    const b = before.kind === 'ref' ? resolver.before(before.name) : before;
    const a = after.kind === 'ref' ? resolver.after(after.name) : after;
    if (b && a) return diffSchemas(b, a, path, depth + 1, resolver);
  }
  if (!!before.nullable !== !!after.nullable) {
    changes.push({ path, direction: after.nullable ? 'wider' : 'narrower', description: after.nullable ? 'now nullable' : 'no longer nullable' });
  }
  if (before.kind !== after.kind || (before.kind === 'number' && after.kind === 'number' && before.integer !== after.integer)) {
    // integer → number widens; anything else is a different type.
    const widened = before.kind === 'number' && after.kind === 'number' && before.integer && !after.integer;
    changes.push({ path, direction: widened ? 'wider' : 'changed', description: `type ${describe(before)} → ${describe(after)}` });
    for (const change of changes) {
      change.from ??= before.pointer;
      change.to ??= after.pointer;
    }
    return changes;
  }
  switch (before.kind) {
    case 'ref': {
      const a = after as typeof before;
      if (a.name === before.name) break;
      // Renamed component: compare what the two names hold, once per pair on a path.
      const pair = `${before.name}\u0000${a.name}`;
      const b = resolver?.before(before.name);
      const n = resolver?.after(a.name);
      if (!resolver || !b || !n || resolver.visiting?.has(pair)) {
        changes.push({ path, direction: 'changed', description: `$ref ${before.name} → ${a.name}` });
        break;
      }
      changes.push({ path, direction: 'compatible', description: `schema renamed ${before.name} → ${a.name}` });
      const visiting = resolver.visiting ?? new Set<string>();
      visiting.add(pair);
      changes.push(...diffSchemas(b, n, path, depth + 1, { ...resolver, visiting }));
      visiting.delete(pair);
      break;
    }
    case 'string': {
      const a = after as typeof before;
      bound(changes, path, 'minLength', before.minLength, a.minLength, true);
      bound(changes, path, 'maxLength', before.maxLength, a.maxLength, false);
      const bp = (before.patterns ?? []).join(' && ');
      const ap = (a.patterns ?? []).join(' && ');
      if (bp !== ap) {
        const direction: Direction = !bp ? 'narrower' : !ap ? 'wider' : 'changed';
        changes.push({ path, direction, description: `pattern ${bp ? JSON.stringify(bp) : 'none'} → ${ap ? JSON.stringify(ap) : 'none'}` });
      }
      if (before.format !== a.format) {
        const direction: Direction = !before.format ? 'narrower' : !a.format ? 'wider' : 'changed';
        changes.push({ path, direction, description: `format ${before.format ?? 'none'} → ${a.format ?? 'none'}` });
      }
      setChange(changes, path, 'enum', before.enum, a.enum);
      break;
    }
    case 'number': {
      const a = after as typeof before;
      bound(changes, path, 'minimum', before.minimum, a.minimum, true);
      bound(changes, path, 'maximum', before.maximum, a.maximum, false);
      bound(changes, path, 'exclusiveMinimum', before.exclusiveMinimum, a.exclusiveMinimum, true);
      bound(changes, path, 'exclusiveMaximum', before.exclusiveMaximum, a.exclusiveMaximum, false);
      if (before.format !== a.format) changes.push({ path, direction: 'changed', description: `format ${before.format ?? 'none'} → ${a.format ?? 'none'}` });
      if (before.multipleOf !== a.multipleOf) changes.push({ path, direction: 'changed', description: `multipleOf ${before.multipleOf ?? 'none'} → ${a.multipleOf ?? 'none'}` });
      setChange(changes, path, 'enum', before.enum, a.enum);
      break;
    }
    case 'boolean':
      setChange(changes, path, 'enum', before.enum, (after as typeof before).enum);
      break;
    case 'literal':
      setChange(changes, path, 'allowed values', before.values, (after as typeof before).values);
      break;
    case 'array': {
      const a = after as typeof before;
      bound(changes, path, 'minItems', before.minItems, a.minItems, true);
      bound(changes, path, 'maxItems', before.maxItems, a.maxItems, false);
      if (!!before.uniqueItems !== !!a.uniqueItems) {
        changes.push({ path, direction: a.uniqueItems ? 'narrower' : 'wider', description: a.uniqueItems ? 'items must now be unique' : 'items no longer unique' });
      }
      changes.push(...diffSchemas(before.items, a.items, `${path}[]`, depth + 1, resolver));
      break;
    }
    case 'object': {
      const a = after as typeof before;
      const afterProps = new Map(a.properties.map((p) => [p.name, p]));
      const beforeProps = new Map(before.properties.map((p) => [p.name, p]));
      for (const p of before.properties) {
        const q = afterProps.get(p.name);
        const at = join(path, p.name);
        if (!q) {
          changes.push({
            path: at,
            direction: a.additional === 'forbid' ? 'changed' : 'wider',
            description: `member removed${p.required ? ' (was required)' : ''}`,
            from: p.schema.pointer,
            // The branch it was removed from, where the object is merged from `allOf`.
            ...optional('to', samePlace(holderOf(p.schema.pointer, p.name), before.pointer, a.pointer)),
            ...(a.additional === 'forbid' ? { fact: 'member removed from a closed object' } : {}),
          });
          continue;
        }
        if (p.required !== q.required) {
          // The member itself, not the object: in an object merged from `allOf`, that is the whole schema.
          changes.push({
            path: at,
            direction: q.required ? 'narrower' : 'wider',
            description: q.required ? 'now required' : 'no longer required',
            ...optional('from', p.schema.pointer),
            ...optional('to', q.schema.pointer),
          });
        }
        changes.push(...diffSchemas(p.schema, q.schema, at, depth + 1, resolver));
      }
      for (const q of a.properties) {
        if (beforeProps.has(q.name)) continue;
        // An optional member added to an open object was already allowed: nothing breaks.
        // To a closed object it is new: readers that validate strictly reject it.
        const direction: Direction = q.required ? 'narrower' : before.additional === 'forbid' ? 'wider' : 'compatible';
        changes.push({
          path: join(path, q.name),
          direction,
          description: `member added${q.required ? ' (required)' : ' (optional)'}`,
          to: q.schema.pointer,
          // The branch it was added to, where the object is merged from `allOf`.
          ...optional('from', samePlace(holderOf(q.schema.pointer, q.name), a.pointer, before.pointer)),
          ...(!q.required && before.additional === 'forbid' ? { fact: 'optional member added to a closed object (additionalProperties: false)' } : {}),
        });
      }
      const ba = typeof before.additional === 'object' ? 'schema' : before.additional;
      const aa = typeof a.additional === 'object' ? 'schema' : a.additional;
      if (ba !== aa) {
        const direction: Direction = aa === 'forbid' ? 'narrower' : aa === 'allow' ? 'wider' : 'changed';
        changes.push({ path, direction, description: `additional members ${ba === 'forbid' ? 'forbidden' : ba === 'allow' ? 'allowed' : 'checked'} → ${aa === 'forbid' ? 'forbidden' : aa === 'allow' ? 'allowed' : 'checked'}` });
      }
      break;
    }
    case 'union':
    case 'intersection': {
      const bs = before.kind === 'union' ? before.variants : before.parts;
      const a = after as typeof before;
      const as = a.kind === 'union' ? a.variants : a.parts;
      if (bs.length !== as.length) {
        const direction: Direction = before.kind === 'union' ? (as.length > bs.length ? 'wider' : 'narrower') : as.length > bs.length ? 'narrower' : 'wider';
        changes.push({ path, direction, description: `${before.kind === 'union' ? 'variants' : 'allOf parts'} ${bs.length} → ${as.length}` });
      } else {
        bs.forEach((b, i) => changes.push(...diffSchemas(b, as[i]!, `${path}<${i}>`, depth + 1, resolver)));
      }
      break;
    }
    case 'json': {
      // Validated by the JSON Schema runtime: compared by the shape of its type.
      const a = after as typeof before;
      changes.push(...diffSchemas(before.shape, a.shape, path, depth + 1, resolver));
      break;
    }
    default:
      break;
  }
  // Changes found below this node already name their own places.
  for (const change of changes) {
    change.from ??= before.pointer;
    change.to ??= after.pointer;
  }
  return changes;
}
