/**
 * Which headers an operation's spec declares: a convention such as `x-fapi-interaction-id`
 * is sent, echoed and checked only where the API asks for it. The router decides it once per
 * router, the client once per operation, by this one rule.
 */
import { memberNames } from './object-members.js';

/** The parts of a generated operation that declare headers (the header schemas are objects). */
export interface HeaderDeclarations {
  readonly request: { readonly headers: unknown };
  readonly responses: { readonly [status: string]: { readonly headers: unknown } };
}

/** True when `op` declares header `name` (lower case) as a request parameter or on any response. */
export function declaresHeader(op: HeaderDeclarations, name: string): boolean {
  if (memberNames(op.request.headers).includes(name)) return true;
  return Object.values(op.responses).some((response) => memberNames(response.headers).includes(name));
}
