/**
 * How a `pattern` is compiled. JSON Schema wants ECMA-262 regular expressions with Unicode
 * semantics (the `u` flag: `.` and classes match code points). Many published files hold
 * patterns that are valid ECMA-262 only without `u` (an escaped `:` or `-` outside a class,
 * a lone `{`, `\"`): those are compiled without it, as the publisher's own tools read them.
 */
import type { Diagnostic, JsonPointer } from './types.js';

/** `u` when the pattern is valid with the Unicode flag, `''` when only without it, undefined when invalid either way. */
export function patternFlags(source: string): 'u' | '' | undefined {
  try {
    new RegExp(source, 'u');
    return 'u';
  } catch {
    try {
      new RegExp(source);
      return '';
    } catch {
      return undefined;
    }
  }
}

/** Why the pattern is no ECMA-262 regular expression even without the `u` flag (the engine's own words). */
function patternError(source: string): string {
  try {
    new RegExp(source);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * What the generator says of a pattern (of `pattern` or a `patternProperties` key) at
 * `pointer`: a note when it is compiled without `u`, an error when it is no regular expression,
 * nothing when it is valid with `u`.
 */
export function patternDiagnostic(source: string, pointer: JsonPointer): Diagnostic | undefined {
  const flags = patternFlags(source);
  if (flags === 'u') return undefined;
  if (flags === '') {
    return {
      severity: 'info',
      code: 'pattern-without-unicode',
      pointer,
      message: `pattern ${JSON.stringify(source)} is not valid with the u flag; it is compiled without it (code points outside the BMP count as two characters)`,
    };
  }
  return {
    severity: 'error',
    code: 'invalid-pattern',
    pointer,
    message: `pattern ${JSON.stringify(source)} is not a valid ECMA-262 regular expression, with or without the u flag: ${patternError(source)}`,
  };
}
