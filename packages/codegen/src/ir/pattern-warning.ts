/**
 * The warning for a pattern whose matching time in a backtracking engine grows faster than the
 * input (pattern-complexity.ts): it names the class and an input shape that shows it, and says
 * what the generated code does about it (its route, pattern-route.ts): matched by the
 * linear-time engine, or, where no linear engine takes it, refused beyond a length.
 */
import type { PatternAttack, PatternComplexity } from './pattern-complexity.js';
import { patternRoute } from './pattern-route.js';
import type { Diagnostic, JsonPointer } from './types.js';

/** The codes of the warning: matched in linear time, or bounded in length. */
const WARNING_CODES: ReadonlySet<string> = new Set(['super-linear-pattern', 'pattern-length-bounded']);

/** The class of a pattern as the generated validators compile it (undefined when it is no regular expression). */
export function patternComplexity(source: string): PatternComplexity | undefined {
  return patternRoute(source)?.complexity;
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
  return superLinearPatternWarning(source)?.message;
}

function superLinearPatternWarning(source: string): { code: string; message: string } | undefined {
  const route = patternRoute(source);
  if (!route || route.kind === 'native') return undefined;
  const { complexity } = route;
  if (complexity.kind === 'linear') return undefined;
  const growth = complexity.kind === 'exponential' ? 'doubles with each repetition' : `grows as n^${complexity.degree}`;
  const found = `pattern ${JSON.stringify(source)} is ${complexityName(complexity)} in a backtracking engine such as JavaScript's RegExp: on an input shaped ${attackShape(complexity.attack)} its time ${growth}`;
  if (route.kind === 'linear') return { code: 'super-linear-pattern', message: `${found}; it is matched by the linear-time engine` };
  return {
    code: 'pattern-length-bounded',
    message: `${found}; no linear-time engine takes it (${route.why}), so values longer than ${route.maxLength} characters are refused as invalid`,
  };
}

/**
 * A warning when the pattern at `pointer` is super-linear in a backtracking engine (code
 * `super-linear-pattern`, or `pattern-length-bounded` where values are refused beyond a
 * length); undefined otherwise.
 */
export function superLinearPatternDiagnostic(source: string, pointer: JsonPointer): Diagnostic | undefined {
  const warning = superLinearPatternWarning(source);
  return warning === undefined ? undefined : { severity: 'warning', code: warning.code, pointer, message: warning.message };
}

/**
 * One warning per pattern position: a schema read along two paths (its IR node and the JSON
 * Schema table) reports its patterns once. Keeps the first, in document order; in place.
 */
export function dropRepeatedPatternWarnings(diagnostics: Diagnostic[]): void {
  const seen = new Set<string>();
  let kept = 0;
  for (const diagnostic of diagnostics) {
    if (WARNING_CODES.has(diagnostic.code)) {
      if (seen.has(diagnostic.pointer)) continue;
      seen.add(diagnostic.pointer);
    }
    diagnostics[kept++] = diagnostic;
  }
  diagnostics.length = kept;
}
