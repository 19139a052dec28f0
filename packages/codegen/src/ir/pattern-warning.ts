/**
 * The warning for a pattern whose matching time in a backtracking engine grows faster than the
 * input (pattern-complexity.ts): it names the class and an input shape that shows it, and says
 * what the generated code does about it.
 */
import { classifyPattern, type PatternAttack, type PatternComplexity } from './pattern-complexity.js';
import { patternFlags } from './pattern.js';
import type { Diagnostic, JsonPointer } from './types.js';

/** Classes already computed, by flags and source: the same pattern recurs across a file. */
const known = new Map<string, PatternComplexity>();
const KNOWN_LIMIT = 10_000;

/** The class of a pattern as the generated validators compile it (undefined when it is no regular expression). */
export function patternComplexity(source: string): PatternComplexity | undefined {
  const flags = patternFlags(source);
  if (flags === undefined) return undefined;
  const key = `${flags}/${source}`;
  let complexity = known.get(key);
  if (!complexity) {
    complexity = classifyPattern(source, flags);
    if (known.size >= KNOWN_LIMIT) known.clear();
    known.set(key, complexity);
  }
  return complexity;
}

/** `"ab" + "c" × n + "!"`: the attack input as a reader can build it. */
export function attackShape(attack: PatternAttack): string {
  return [attack.prefix && JSON.stringify(attack.prefix), `${JSON.stringify(attack.pump)} × n`, attack.suffix && JSON.stringify(attack.suffix)].filter(Boolean).join(' + ');
}

/** The class in words: "exponential" or "polynomial (degree 3)". */
export function complexityName(complexity: PatternComplexity): string {
  return complexity.kind === 'polynomial' ? `polynomial (degree ${complexity.degree})` : complexity.kind;
}

/** What the warning says of a super-linear pattern; undefined for a linear one (or no regular expression). */
export function superLinearPatternMessage(source: string): string | undefined {
  const complexity = patternComplexity(source);
  if (!complexity || complexity.kind === 'linear') return undefined;
  const growth = complexity.kind === 'exponential' ? 'doubles with each repetition' : `grows as n^${complexity.degree}`;
  return (
    `pattern ${JSON.stringify(source)} is ${complexityName(complexity)} in a backtracking engine such as JavaScript's RegExp: ` +
    `on an input shaped ${attackShape(complexity.attack)} its time ${growth}; it is matched by the linear-time engine`
  );
}

/** A warning when the pattern at `pointer` is super-linear in a backtracking engine; undefined otherwise. */
export function superLinearPatternDiagnostic(source: string, pointer: JsonPointer): Diagnostic | undefined {
  const message = superLinearPatternMessage(source);
  return message === undefined ? undefined : { severity: 'warning', code: 'super-linear-pattern', pointer, message };
}

/**
 * One warning per pattern position: a schema read along two paths (its IR node and the JSON
 * Schema table) reports its patterns once. Keeps the first, in document order; in place.
 */
export function dropRepeatedPatternWarnings(diagnostics: Diagnostic[]): void {
  const seen = new Set<string>();
  let kept = 0;
  for (const diagnostic of diagnostics) {
    if (diagnostic.code === 'super-linear-pattern') {
      if (seen.has(diagnostic.pointer)) continue;
      seen.add(diagnostic.pointer);
    }
    diagnostics[kept++] = diagnostic;
  }
  diagnostics.length = kept;
}
