/**
 * How a `pattern` is compiled. JSON Schema wants ECMA-262 regular expressions with Unicode
 * semantics (the `u` flag: `.` and classes match code points). Many published files hold
 * patterns that are valid ECMA-262 only without `u` (an escaped `:` or `-` outside a class,
 * a lone `{`, `\"`): those are compiled without it, as the publisher's own tools read them.
 */

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

/** The pattern compiled as the generated validators compile it; undefined when it is no regular expression. */
export function compilePattern(source: string): RegExp | undefined {
  const flags = patternFlags(source);
  return flags === undefined ? undefined : new RegExp(source, flags);
}

/** Why the pattern is no ECMA-262 regular expression even without the `u` flag (the engine's own words). */
export function patternError(source: string): string {
  try {
    new RegExp(source);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
