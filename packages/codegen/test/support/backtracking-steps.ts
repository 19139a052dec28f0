/**
 * A backtracking matcher that follows ECMA-262's pattern semantics step by step (the
 * continuation-passing matchers of the specification, as V8's Irregexp runs them) and counts
 * the character tests it makes: a deterministic measure of the work a backtracking engine does
 * on an input, where a wall clock would be noisy. Each atom's membership is decided by V8 on
 * the single character, so the character sets are exactly V8's.
 *
 * Covers what attack shapes need: characters, classes, groups, alternation, greedy and lazy
 * quantifiers (with the empty-iteration check), `^`, `$`, `\b`, lookaheads. Backreferences and
 * lookbehinds are refused (the caller leaves those patterns out).
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';

type Continuation = (position: number) => boolean;
type Matcher = (position: number, next: Continuation) => boolean;

export class StepBudgetExceeded extends Error {}

export function countSteps(source: string, flags: 'u' | '', input: string, budget: number): { matched: boolean; steps: number } {
  const chars = flags === 'u' ? Array.from(input) : input.split('');
  let steps = 0;
  const pattern = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode: flags === 'u' });

  const atom = (node: AST.Node): Matcher => {
    const tester = new RegExp(`^(?:${node.raw})$`, flags);
    const cache = new Map<string, boolean>();
    return (position, next) => {
      if (++steps > budget) throw new StepBudgetExceeded();
      const c = chars[position];
      if (c === undefined) return false;
      let ok = cache.get(c);
      if (ok === undefined) cache.set(c, (ok = tester.test(c)));
      return ok && next(position + 1);
    };
  };
  const isWord = (position: number) => {
    const c = chars[position];
    return c !== undefined && /\w/.test(c);
  };
  const disjunction = (alternatives: readonly AST.Alternative[]): Matcher => {
    const compiled = alternatives.map(sequence);
    return (position, next) => compiled.some((m) => m(position, next));
  };
  const sequence = (alternative: AST.Alternative): Matcher =>
    alternative.elements.map(element).reduceRight<Matcher>((rest, m) => (position, next) => m(position, (p) => rest(p, next)), (position, next) => next(position));
  const element = (node: AST.Element): Matcher => {
    switch (node.type) {
      case 'Character':
      case 'CharacterClass':
      case 'CharacterSet':
      case 'ExpressionCharacterClass':
        return atom(node);
      case 'Group':
      case 'CapturingGroup':
        return disjunction(node.alternatives);
      case 'Quantifier':
        return repeat(element(node.element), node.min, node.max, node.greedy);
      case 'Assertion':
        switch (node.kind) {
          case 'start':
            return (position, next) => position === 0 && next(position);
          case 'end':
            return (position, next) => position === chars.length && next(position);
          case 'word':
            return (position, next) => (isWord(position - 1) !== isWord(position)) !== node.negate && next(position);
          case 'lookahead': {
            const body = disjunction(node.alternatives);
            return (position, next) => body(position, () => true) !== node.negate && next(position);
          }
          default:
            throw new Error('lookbehind is not modelled');
        }
      default:
        throw new Error(`${node.type} is not modelled`);
    }
  };
  // RepeatMatcher of ECMA-262 (22.2.2.3.1).
  const repeat = (m: Matcher, min: number, max: number, greedy: boolean): Matcher => {
    const go = (position: number, next: Continuation, count: number): boolean => {
      if (count === max) return next(position);
      const iterate = () => m(position, (p) => (count >= min && p === position ? false : go(p, next, count + 1)));
      if (count < min) return iterate();
      return greedy ? iterate() || next(position) : next(position) || iterate();
    };
    return (position, next) => go(position, next, 0);
  };

  const top = disjunction(pattern.alternatives);
  for (let start = 0; start <= chars.length; start++) if (top(start, () => true)) return { matched: true, steps };
  return { matched: false, steps };
}
