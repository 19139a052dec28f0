/**
 * The members of an object schema. Generated validators are zod objects, whose `shape` names
 * each member's schema; several places decide by those names (error shapes, declared headers,
 * declared parameters, problem details), so both ends read them one way, here. The shape is
 * read structurally: nothing here imports zod at run time, so any copy of zod the
 * validators were built with fits.
 */
import type { z } from 'zod';

/** The member schemas of `schema` by name, or undefined when it is not an object schema. */
export function objectMembers(schema: unknown): Readonly<Record<string, z.ZodType>> | undefined {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape !== null && typeof shape === 'object' ? (shape as Record<string, z.ZodType>) : undefined;
}

/**
 * Names of the members `schema` declares; none when it is not an object schema (or absent).
 *
 * @example
 * memberNames(z.object({ title: z.string(), status: z.int() })) // → ['title', 'status']
 */
export function memberNames(schema: unknown): readonly string[] {
  return Object.keys(objectMembers(schema) ?? {});
}
