/**
 * The member names an object schema declares, read from zod's `shape` structurally (the
 * runtime does not import zod): what declared-headers.ts and problem-details.ts both ask of
 * a schema.
 */
import type { SchemaLike } from './types.js';

/** Names of the members `schema` declares; none when it is not an object schema (or absent). */
export function memberNames(schema: SchemaLike | undefined): readonly string[] {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape !== null && typeof shape === 'object' ? Object.keys(shape) : [];
}
