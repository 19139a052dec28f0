/**
 * Validation of received values with the generated validators, taking zod's check-only path
 * when it gives the same answer as `safeParse`.
 *
 * The generated validators give each schema a check-only function in
 * `schema._zod.bag.validator` (the generated check function, or the one zod's compiler leaves
 * on first use): it answers "valid" without building the parsed copy. That copy equals the
 * input exactly when the schema changes no value (no transform, default, catch, coercion, key
 * stripping...), which `keepsInput` finds out once per schema by walking its definition.
 * Otherwise, or when the check fails (to get the issues), `safeParse` runs as before. Schemas
 * are read structurally, as in types.ts: no zod import, whichever copy built the validators.
 */
import type { IssueLike, SchemaLike } from './types.js';

/** What zod's compiled functions return for a value they reject (a registered symbol). */
const INVALID = Symbol.for('zod.compile.invalid');

type Checked = { ok: true; value: unknown } | { ok: false; issues: readonly IssueLike[] };

interface Internals {
  def?: Record<string, unknown> & { type?: unknown; checks?: unknown };
  bag?: { validator?: unknown };
}

const internalsOf = (schema: unknown): Internals | undefined =>
  schema !== null && (typeof schema === 'object' || typeof schema === 'function') ? ((schema as { _zod?: Internals })._zod ?? undefined) : undefined;

/** Types whose parse returns its input as is (unless coerced). */
const LEAVES = new Set([
  'string',
  'number',
  'boolean',
  'bigint',
  'symbol',
  'undefined',
  'null',
  'any',
  'unknown',
  'never',
  'void',
  'date',
  'nan',
  'literal',
  'enum',
  'template_literal',
  'custom',
  'file',
]);

/** Wrappers that return their inner type's output. */
const WRAPPERS = new Set(['optional', 'nullable', 'nonoptional']);

function checksKeepInput(checks: unknown): boolean {
  if (checks === undefined) return true;
  if (!Array.isArray(checks)) return false;
  // `overwrite` (trim, toLowerCase...) replaces the value; every other check only reports.
  return checks.every((check) => internalsOf(check)?.def?.['check'] !== 'overwrite');
}

/** Depth bound of the walk: deeper schemas are simply not taken as input-preserving. */
const MAX_DEPTH = 64;

function walk(schema: unknown, path: Set<unknown>, depth: number): boolean {
  const def = internalsOf(schema)?.def;
  if (!def || typeof def.type !== 'string' || depth > MAX_DEPTH) return false;
  // A reference cycle adds nothing the rest of the walk does not see.
  if (path.has(schema)) return true;
  if (!checksKeepInput(def.checks)) return false;
  path.add(schema);
  try {
    const child = (s: unknown): boolean => walk(s, path, depth + 1);
    const type = def.type;
    if (LEAVES.has(type)) return !def['coerce'];
    if (WRAPPERS.has(type)) return child(def['innerType']);
    switch (type) {
      case 'array':
        return child(def['element']);
      case 'object': {
        // No catchall means "strip": unknown keys are dropped from the output.
        const catchall = def['catchall'];
        const shape = def['shape'];
        if (catchall === undefined || !child(catchall) || shape === null || typeof shape !== 'object') return false;
        return Object.values(shape as Record<string, unknown>).every(child);
      }
      case 'union': {
        const options = def['options'];
        return Array.isArray(options) && options.every(child);
      }
      case 'intersection':
        return child(def['left']) && child(def['right']);
      case 'tuple': {
        const items = def['items'];
        return Array.isArray(items) && items.every(child) && (def['rest'] === undefined || def['rest'] === null || child(def['rest']));
      }
      case 'record':
        return child(def['keyType']) && child(def['valueType']);
      case 'pipe':
        // A codec is a pipe with transforms of its own.
        return def['transform'] === undefined && child(def['in']) && child(def['out']);
      case 'lazy':
        return typeof def['getter'] === 'function' && child((def['getter'] as () => unknown)());
      default:
        // transform, default, prefault, catch, readonly, success, map, set, promise, function...
        return false;
    }
  } finally {
    path.delete(schema);
  }
}

const keeps = new WeakMap<object, boolean>();

/**
 * True when parsing with `schema` returns a value equal to its input (so a successful check
 * may hand out the input itself). False whenever it cannot tell.
 */
export function keepsInput(schema: unknown): boolean {
  if (schema === null || (typeof schema !== 'object' && typeof schema !== 'function')) return false;
  let answer = keeps.get(schema);
  if (answer === undefined) {
    try {
      answer = walk(schema, new Set(), 0);
    } catch {
      answer = false;
    }
    keeps.set(schema, answer);
  }
  return answer;
}

/**
 * Validates `value`: the parsed value, or zod's issues. Same answer as `safeParse`, cheaper
 * when the schema is compiled and changes nothing.
 */
export function checkValue(schema: SchemaLike, value: unknown): Checked {
  const validator = internalsOf(schema)?.bag?.validator;
  if (typeof validator === 'function' && keepsInput(schema) && (validator as (input: unknown) => unknown)(value) !== INVALID) {
    return { ok: true, value };
  }
  // Not compiled yet (this call compiles it), not input-preserving, or invalid: the full parse.
  const parsed = schema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, issues: parsed.error.issues };
}
