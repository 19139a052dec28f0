/**
 * The `pattern`s that V8's backtracking engine could spend super-linear time on, made safe to
 * run on any input. The generator decides per pattern (see the README's security section):
 * patterns V8 matches in linear time stay plain RegExps; the others become one of these.
 *
 * Both are RegExps with the pattern's own `source` and `flags`, so zod's `.regex()` checks,
 * its messages and its JSON Schema export read them as before, and a consumer's `.shape`,
 * `.extend` or `.pick` keeps them. Operations that build a new RegExp from one (`split`, ...)
 * get a plain RegExp (`Symbol.species`).
 */
import { LinearMatcher } from './linear-regex.js';

/** `test` in time linear in the input (no backtracking), with V8's answer. */
export class LinearRegExp extends RegExp {
  static override get [Symbol.species](): RegExpConstructor {
    return RegExp;
  }

  readonly #written: string;
  #matcher: LinearMatcher | undefined;

  constructor(source: string, flags: 'u' | '') {
    super(source, flags);
    this.#written = source;
  }

  override test(input: string): boolean {
    // Built on first use: importing a module of schemas costs nothing per pattern.
    this.#matcher ??= new LinearMatcher(this.#written, this.unicode ? 'u' : '');
    return this.#matcher.test(String(input));
  }

  /**
   * No match is found in linear time. A match's details (captures, index) come from V8's
   * engine, which may backtrack: prefer `test`, as the validators do.
   */
  override exec(input: string): RegExpExecArray | null {
    return this.test(input) ? super.exec(input) : null;
  }
}

/**
 * A pattern no linear engine can match (a backreference or a lookaround) whose backtracking
 * grows faster than the input: V8 matches it only on values of at most `maxLength` UTF-16
 * units, a bound the generator derived from how fast the work grows. Longer values are
 * refused as not matching, with a message that says why (see `boundedPatternMessage`).
 */
export class BoundedRegExp extends RegExp {
  static override get [Symbol.species](): RegExpConstructor {
    return RegExp;
  }

  constructor(
    source: string,
    flags: 'u' | '',
    readonly maxLength: number,
  ) {
    super(source, flags);
  }

  override test(input: string): boolean {
    const value = String(input);
    return value.length <= this.maxLength && super.test(value);
  }

  override exec(input: string): RegExpExecArray | null {
    const value = String(input);
    return value.length <= this.maxLength ? super.exec(value) : null;
  }
}

export function linear(source: string, flags: 'u' | ''): LinearRegExp {
  return new LinearRegExp(source, flags);
}

export function bounded(source: string, flags: 'u' | '', maxLength: number): BoundedRegExp {
  return new BoundedRegExp(source, flags, maxLength);
}

/** The message of a bounded pattern's failure: what it wants, and the bound that refused a long value. */
export function boundedPatternMessage(source: string, maxLength: number): string {
  return `must match the pattern ${source}; a value longer than ${maxLength} characters is refused without matching, as this pattern's matching time grows faster than the value's length`;
}
