/**
 * How the time a backtracking engine (V8's Irregexp) spends matching a `pattern` grows with
 * the length of the input. JSON Schema matches a pattern as a search (unanchored unless the
 * pattern anchors itself), so the search's own loop over start positions counts too.
 *
 * This module is the one place that answers "is this pattern safe for V8?"; emitters and the
 * runtimes route every pattern it does not call linear to a matcher whose time is linear in
 * the input.
 */

/** The shape of an input that drives the backtracking: `prefix + pump.repeat(n) + suffix`. */
export interface PatternAttack {
  readonly prefix: string;
  readonly pump: string;
  readonly suffix: string;
}

export type PatternComplexity =
  | { readonly kind: 'linear' }
  | { readonly kind: 'polynomial'; readonly degree: number; readonly attack: PatternAttack }
  | { readonly kind: 'exponential'; readonly attack: PatternAttack };

/** Whether V8's engine may spend more than linear time on some input. */
export function isSuperLinear(complexity: PatternComplexity): boolean {
  return complexity.kind !== 'linear';
}

/**
 * The complexity of `source` compiled with `flags` (`'u'` where the pattern is valid with the
 * Unicode flag, `''` where only without it; see pattern.ts).
 *
 * PLACEHOLDER until the analysis lands: any quantifier inside a quantified group, and any
 * unbounded quantifier in a pattern not anchored at its start, are reported as super-linear.
 * It errs towards super-linear, never towards linear, for the shapes it reads.
 */
export function classifyPattern(source: string, flags: 'u' | ''): PatternComplexity {
  void flags;
  const attack: PatternAttack = { prefix: '', pump: 'a', suffix: '!' };
  if (/\([^)]*[*+}][^)]*\)[*+{]/.test(source)) return { kind: 'exponential', attack };
  if (!source.startsWith('^') && /[*+]|\{\d+,\}/.test(source)) return { kind: 'polynomial', degree: 2, attack };
  if (/[*+].*[*+]/.test(source)) return { kind: 'polynomial', degree: 2, attack };
  return { kind: 'linear' };
}
