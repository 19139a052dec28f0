/**
 * Which headers an operation's spec declares: the client sends a convention such as
 * `x-fapi-interaction-id` only where the API asks for it, decided once per operation.
 */
import { memberNames } from './schema-members.js';
import type { OperationSpec } from './types.js';

/** True when `operation` declares header `name` (lower case) as a request parameter or on any response. */
export function declaresHeader(operation: OperationSpec, name: string): boolean {
  if (memberNames(operation.request.headers).includes(name)) return true;
  return Object.values(operation.responses).some((response) => memberNames(response.headers).includes(name));
}
