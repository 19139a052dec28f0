/**
 * The operations of one Path Item: its fixed method fields (`get` ... `trace`, and OpenAPI
 * 3.2's `query`) and the 3.2 `additionalOperations` map (any other method, keyed by its
 * token as sent). Shared by `paths` and `webhooks`.
 */
import { METHODS as NODE_METHODS } from 'node:http';
import { escapePointerToken, isRecord } from './json-pointer.js';
import { FIXED_METHODS, type Diagnostic, type HttpMethod, type JsonPointer } from './types.js';

export interface PathItemOperation {
  method: HttpMethod;
  /** The Operation Object (not yet checked to be one). */
  raw: unknown;
  pointer: JsonPointer;
}

/** RFC 9110 §5.6.2: a method is a token. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Members of a Path Item Object other than its operations. */
export const PATH_ITEM_MEMBERS = new Set(['$ref', 'summary', 'description', 'servers', 'parameters', 'additionalOperations']);

export function isFixedMethod(key: string): boolean {
  return (FIXED_METHODS as readonly string[]).includes(key);
}

export function pathItemOperations(item: Record<string, unknown>, itemPointer: JsonPointer, diagnostics: Diagnostic[]): PathItemOperation[] {
  const found: PathItemOperation[] = [];
  for (const method of FIXED_METHODS) {
    if (item[method] !== undefined) found.push({ method, raw: item[method], pointer: `${itemPointer}/${method}` });
  }
  const additional = item['additionalOperations'];
  if (additional === undefined) return found;
  const mapPointer = `${itemPointer}/additionalOperations`;
  if (!isRecord(additional)) {
    diagnostics.push({ severity: 'error', code: 'invalid-additional-operations', pointer: mapPointer, message: '"additionalOperations" must map method names to Operation Objects' });
    return found;
  }
  for (const [method, raw] of Object.entries(additional)) {
    const pointer = `${mapPointer}/${escapePointerToken(method)}`;
    const problem = methodProblem(method);
    if (problem) {
      diagnostics.push({ severity: 'error', code: 'invalid-method', pointer, message: problem });
      continue;
    }
    if (!NODE_METHODS.includes(method)) {
      diagnostics.push({
        severity: 'warning',
        code: 'method-not-routable',
        pointer,
        message: `Node's HTTP server does not accept the method ${method}: the generated client sends it, but a server built on the generated router never receives it`,
      });
    }
    found.push({ method, raw, pointer });
  }
  return found;
}

/** Why a key of `additionalOperations` cannot name an operation, or undefined when it can. */
function methodProblem(method: string): string | undefined {
  if (!TOKEN.test(method)) return `"${method}" is not an HTTP method name (RFC 9110 allows letters, digits and !#$%&'*+.^_\`|~-)`;
  const fixed = FIXED_METHODS.find((name) => name === method.toLowerCase());
  // OpenAPI 3.2: methods with a fixed field must use it.
  if (fixed) return `${method} has its own field: write the operation under "${fixed}", not in "additionalOperations"`;
  // Methods are case-sensitive; the runtimes send and route them in upper case, as HTTP servers expect.
  if (method !== method.toUpperCase()) return `method "${method}" is not in upper case: the generated client and router send and route methods in upper case (write "${method.toUpperCase()}")`;
  return undefined;
}
