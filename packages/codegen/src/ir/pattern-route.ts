/**
 * How the generated code matches each pattern, decided once at generation:
 * - `native`: V8's RegExp, where the classifier finds its time linear in the input (fastest);
 * - `linear`: the linear matcher (templates/validators/linear-regex.ts), for every other
 *   pattern it can express;
 * - `bounded`: V8's RegExp on values up to a length derived from how fast its work grows, for
 *   a super-linear pattern with a backreference or lookaround (no linear engine matches
 *   those); longer values are refused as invalid.
 */
import { classifyPattern, type PatternComplexity } from './pattern-complexity.js';
import { linearMatchable, linearMatcher } from './linear-engine.js';
import { patternFlags } from './pattern.js';

export type PatternRoute =
  | { readonly kind: 'native'; readonly flags: 'u' | ''; readonly complexity: PatternComplexity }
  | { readonly kind: 'linear'; readonly flags: 'u' | ''; readonly complexity: PatternComplexity }
  | { readonly kind: 'bounded'; readonly flags: 'u' | ''; readonly maxLength: number; readonly why: string; readonly complexity: PatternComplexity };

/**
 * About this many backtracking steps are allowed on one value (a few milliseconds of V8's
 * time): a polynomial of degree d gets the length whose d-th power is this, an exponential the
 * length whose power of its branching (the ways it has to take one step) is.
 */
const STEP_BUDGET = 1_000_000;

/** The longest value a bounded pattern is matched on. */
export function lengthBound(complexity: PatternComplexity): number {
  // At most `branching` ways per character: the tree of tries over n characters has up to
  // branching^n leaves (2^n for the common `(a+)*`, 4^n for `(a|a|a|a)*`).
  if (complexity.kind === 'exponential') return Math.max(1, Math.floor(Math.log(STEP_BUDGET) / Math.log(Math.max(2, complexity.branching ?? 2))));
  if (complexity.kind === 'polynomial') return Math.floor(STEP_BUDGET ** (1 / Math.max(1, complexity.degree)));
  return Infinity;
}

/**
 * Routes already decided, by source: the same pattern recurs across a file and across the
 * targets of one run. A route is a pure function of the source, so the cache cannot go stale;
 * it is cleared when full so that a long watch session cannot grow it without end.
 */
const ROUTES = new Map<string, PatternRoute | undefined>();
const ROUTES_LIMIT = 10_000;

/** The route of a pattern; undefined when it is no regular expression (reported elsewhere). */
export function patternRoute(source: string): PatternRoute | undefined {
  if (ROUTES.has(source)) return ROUTES.get(source);
  if (ROUTES.size >= ROUTES_LIMIT) ROUTES.clear();
  const flags = patternFlags(source);
  let route: PatternRoute | undefined;
  if (flags !== undefined) {
    const complexity = classifyPattern(source, flags);
    if (complexity.kind === 'linear') route = { kind: 'native', flags, complexity };
    else {
      const matchable = linearMatchable(source, flags);
      route = matchable === true ? { kind: 'linear', flags, complexity } : { kind: 'bounded', flags, maxLength: lengthBound(complexity), why: matchable, complexity };
    }
  }
  ROUTES.set(source, route);
  return route;
}

/** Whether a value matches a pattern, as the generated validators will decide it. */
export interface PatternTest {
  test(value: string): boolean;
}

/**
 * The pattern as the generator itself tests examples, defaults and enum values against it: by
 * its route, so that no value in a file can stall the generator; undefined when it is no
 * regular expression.
 */
export function patternTester(source: string): PatternTest | undefined {
  const route = patternRoute(source);
  if (route === undefined) return undefined;
  if (route.kind === 'native') return new RegExp(source, route.flags);
  if (route.kind === 'linear') return linearMatcher(source, route.flags);
  const regex = new RegExp(source, route.flags);
  const maxLength = route.maxLength;
  return { test: (value) => value.length <= maxLength && regex.test(value) };
}
