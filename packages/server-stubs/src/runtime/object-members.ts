/**
 * The members of an object schema. Generated validators are zod objects, whose `shape` names
 * each member's schema; several places decide by those names (error shapes, declared headers,
 * declared parameters), so they read them one way, here.
 */
import type { z } from 'zod';

/** The member schemas of `schema` by name, or undefined when it is not an object schema. */
export function objectMembers(schema: unknown): Readonly<Record<string, z.ZodType>> | undefined {
  const shape = (schema as { shape?: unknown } | undefined)?.shape;
  return shape !== null && typeof shape === 'object' ? (shape as Record<string, z.ZodType>) : undefined;
}
