/**
 * Parses untrusted JSON without giving it a way to crash, hang or pollute: nesting depth is
 * bounded before parsing (so no later recursive walk can overflow the stack), and
 * `__proto__` members are refused (a later `Object.assign` or spread could otherwise
 * replace a prototype).
 */

/** JSON text refused: malformed, nested too deep, or holding a `__proto__` member. */
export class UnsafeInputError extends Error {
  constructor(
    message: string,
    /** JSON path of the offending member, when there is one. */
    readonly path?: string,
  ) {
    super(message);
    this.name = 'UnsafeInputError';
  }
}

/** Deepest JSON nesting accepted unless a limit is given (the router's `limits.depth` default). */
export const DEFAULT_MAX_DEPTH = 64;

/** Depth of arrays and objects in JSON text, ignoring brackets inside strings. Stops early. */
function exceedsDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * Throws when any object in `value` has an own `__proto__` member. Iterative, so it is safe
 * on any depth; call it on values that did not come from `parseJsonSafely`.
 *
 * @example
 * assertNoProtoKeys(JSON.parse('{"a":{"__proto__":{}}}')) // throws UnsafeInputError (path $.a)
 */
export function assertNoProtoKeys(value: unknown, maxDepth = DEFAULT_MAX_DEPTH): void {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '$', depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) throw new UnsafeInputError(`nesting deeper than ${maxDepth} levels`, path);
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(current, '__proto__')) throw new UnsafeInputError('member "__proto__" is not allowed', path);
    for (const key of Object.keys(current)) {
      stack.push({ value: (current as Record<string, unknown>)[key], path: `${path}.${key}`, depth: depth + 1 });
    }
  }
}

/**
 * `JSON.parse` for untrusted text: throws `UnsafeInputError` for malformed JSON, nesting
 * deeper than `maxDepth`, or a `__proto__` member anywhere.
 *
 * @example
 * parseJsonSafely('{"Data":{"Status":"Revoked"}}') // → { Data: { Status: 'Revoked' } }
 * parseJsonSafely('[[[[1]]]]', 2) // throws UnsafeInputError: nesting deeper than 2 levels
 */
export function parseJsonSafely(text: string, maxDepth = DEFAULT_MAX_DEPTH): unknown {
  if (exceedsDepth(text, maxDepth)) throw new UnsafeInputError(`nesting deeper than ${maxDepth} levels`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UnsafeInputError(`malformed JSON: ${(error as Error).message}`);
  }
  assertNoProtoKeys(value, maxDepth + 1);
  return value;
}
