/**
 * Which headers an operation's spec declares: the router applies a convention such as
 * `x-fapi-interaction-id` only where the API asks for it, decided once per router.
 */
import type { z } from 'zod';
import { objectMembers } from './object-members.js';
import type { OperationSchemas } from './types.js';

/** Member names of an object schema (the generated header schemas are objects). */
function memberNames(schema: z.ZodType): readonly string[] {
  return Object.keys(objectMembers(schema) ?? {});
}

/** True when `op` declares header `name` (lower case) as a request parameter or on any response. */
export function declaresHeader(op: OperationSchemas, name: string): boolean {
  if (memberNames(op.request.headers).includes(name)) return true;
  return Object.values(op.responses).some((response) => memberNames(response.headers).includes(name));
}
