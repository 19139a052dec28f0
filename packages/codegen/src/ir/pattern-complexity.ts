/**
 * How the time a backtracking engine (V8's Irregexp) spends matching a `pattern` grows with
 * the length of the input. JSON Schema matches a pattern as a search (unanchored unless the
 * pattern anchors itself), so the search's own loop over start positions counts too.
 *
 * This module is the one place that answers "is this pattern safe for V8?"; emitters and the
 * runtimes route every pattern it does not call linear to a matcher whose time is linear in
 * the input.
 *
 * The analysis (see pattern-complexity/ambiguity.ts) reads the pattern with an ECMA-262 parser,
 * builds its position automaton, and looks for the ambiguity that makes a failing match
 * backtrack: two loops over one word at one state (exponential) or chains of loops linked by a
 * common word (polynomial, the chain's length being the degree). Where it cannot be exact
 * (Unicode property escapes, backreferences, lookarounds, huge counted repeats, a spent step
 * budget) it over-approximates: it may call a linear pattern super-linear, never the reverse.
 */
import { RegExpParser, type AST } from '@eslint-community/regexpp';
import { buildAlphabet, type Alphabet } from './pattern-complexity/alphabet.js';
import { analyzeAmbiguity, type Ambiguity, type Word } from './pattern-complexity/ambiguity.js';
import { failingSuffix } from './pattern-complexity/attack.js';
import { buildAutomaton, type PositionAutomaton } from './pattern-complexity/position-automaton.js';

/** The shape of an input that drives the backtracking: `prefix + pump.repeat(n) + suffix`. */
export interface PatternAttack {
  readonly prefix: string;
  readonly pump: string;
  readonly suffix: string;
}

export type PatternComplexity =
  | { readonly kind: 'linear' }
  | { readonly kind: 'polynomial'; readonly degree: number; readonly attack: PatternAttack; readonly branching?: number }
  | { readonly kind: 'exponential'; readonly attack: PatternAttack; readonly branching?: number };

/** Whether V8's engine may spend more than linear time on some input. */
export function isSuperLinear(complexity: PatternComplexity): boolean {
  return complexity.kind !== 'linear';
}

/** The worst case of a piece of pattern: how a failing match's cost grows, with its witness. */
interface Cost {
  /** 0: bounded; 1: linear; k: n^k; Infinity: exponential. */
  readonly degree: number;
  readonly prefix: string;
  readonly pump: string;
}

/**
 * The complexity of `source` compiled with `flags` (`'u'` where the pattern is valid with the
 * Unicode flag, `''` where only without it; see pattern.ts). A source that is no regular
 * expression with these flags is reported linear: it is refused elsewhere and never matched.
 */
export function classifyPattern(source: string, flags: 'u' | ''): PatternComplexity {
  return classify(source, flags, true);
}

/** `counted`: whether to look for the ambiguity of counted repeats too (not in its own probes, which hold the same repeats). */
function classify(source: string, flags: 'u' | '', counted: boolean): PatternComplexity {
  let pattern: AST.Pattern;
  try {
    new RegExp(source, flags);
    pattern = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode: flags === 'u' });
  } catch {
    return { kind: 'linear' };
  }
  const unicode = flags === 'u';
  const { automaton, alphabet, cost: own } = costOf(pattern.alternatives, unicode, true);
  const cost = own.degree <= 1 && counted ? (countedBlowup(pattern, flags) ?? own) : own;
  if (cost.degree <= 1) return { kind: 'linear' };
  const pump = cost.pump === '' ? 'a' : cost.pump;
  const attack: PatternAttack = { prefix: cost.prefix, pump, suffix: failingSuffix(automaton, unicode, cost.prefix, pump, alphabet.representatives) };
  const branching = branchingOf(automaton);
  return cost.degree === Infinity ? { kind: 'exponential', attack, branching } : { kind: 'polynomial', degree: cost.degree, attack, branching };
}

/**
 * The most ways the engine has to take one step from one state (the paths to all successors,
 * whatever the character): the backtracking tree over n characters has at most this to the n
 * leaves, which is what bounds the length a backtracking engine may be given. Where the
 * automaton was over-approximated (huge counted repeats) the count is not known, and a large
 * one is assumed.
 */
function branchingOf(automaton: PositionAutomaton): number {
  let most = 1;
  for (const successors of automaton.successors) most = Math.max(most, successors.reduce((sum, next) => sum + next.paths, 0));
  return automaton.approximate ? Math.max(most, 64) : most;
}

function costOf(alternatives: readonly AST.Alternative[], unicode: boolean, search: boolean): { cost: Cost; automaton: PositionAutomaton; alphabet: Alphabet } {
  const automaton = buildAutomaton(alternatives, unicode, search);
  const alphabet = buildAlphabet(automaton.labels);
  const spell = (word: Word | undefined) => (word ?? []).map((c) => alphabet.representatives[c] ?? '').join('');
  const main = own(analyzeAmbiguity(automaton, alphabet), spell);
  let worst = main;
  for (const lookaround of automaton.lookarounds) {
    const { cost: body } = costOf(lookaround.alternatives, unicode, false);
    if (body.degree === 0) continue;
    // Evaluated once (right after a leading `^`) it adds its cost; anywhere else the engine may
    // evaluate it at each step it takes, and the costs multiply.
    const degree = lookaround.once ? body.degree : Math.max(main.degree, 1) + body.degree;
    if (degree > worst.degree) worst = { degree, prefix: body.prefix, pump: body.pump };
  }
  return { cost: worst, automaton, alphabet };
}

function own(ambiguity: Ambiguity, spell: (word: Word | undefined) => string): Cost {
  switch (ambiguity.kind) {
    case 'exponential':
      return { degree: Infinity, prefix: spell(ambiguity.prefix), pump: spell(ambiguity.pump) };
    case 'polynomial':
      return { degree: ambiguity.degree, prefix: spell(ambiguity.prefix), pump: spell(ambiguity.pump) };
    case 'linear':
      return ambiguity.loop ? { degree: 1, prefix: spell(ambiguity.loop.prefix), pump: spell(ambiguity.loop.pump) } : { degree: 0, prefix: '', pump: '' };
  }
}

/**
 * Counts from which a counted repeat's own ambiguity is taken as exponential. The position
 * automaton sees no loop in `(?:a?){40}` or `(?:a|a){40}`, yet V8 tries every way of spreading
 * a failing value over the copies: C(40, 20) or 2^40 paths, a constant only in name (seconds
 * at a count of 24, paid again at each start position of a search).
 */
const COMBINATORIAL_COUNT = 8;

/**
 * A counted repeat whose copies can share a value in many ways: its element is ambiguous on
 * its own (`(?:a|a){n}`: each copy has two paths), or the pattern requires at least
 * COMBINATORIAL_COUNT copies of things that may match empty (`(?:a?){n}`, `((a?){6}){6}`,
 * `(a?){4}(a?){4}`: which copies take the characters is a choice, as iterations below the
 * minimum may be empty). Reported exponential, with the pump of the element's own ambiguity.
 */
function countedBlowup(pattern: AST.Pattern, flags: 'u' | ''): Cost | undefined {
  let found: Cost | undefined;
  const exponentialPump = (probe: string): string | undefined => {
    const inner = classify(probe, flags, false);
    return inner.kind === 'exponential' ? inner.attack.pump : undefined;
  };
  /** The copies that may match empty a piece requires, multiplied through nesting, added along a sequence. */
  const emptyCopies = (node: AST.Node): number => {
    if (found) return 0;
    switch (node.type) {
      case 'Quantifier': {
        // Copies that take no character leave nothing to spread (`(?:\b){40}`).
        if (node.max === 0 || !consumes(node.element)) return 0;
        const copies = node.max === Infinity ? node.min : node.max;
        if (copies >= COMBINATORIAL_COUNT) {
          const pump = exponentialPump(`^(?:${node.element.raw})*$`);
          if (pump !== undefined) found = { degree: Infinity, prefix: '', pump };
        }
        const inner = emptyCopies(node.element);
        if (nullable(node.element)) return Math.min(node.min, COMBINATORIAL_COUNT) * Math.max(1, inner);
        // A copy that may be skipped is a choice too: `a?a?a?` spreads `aa` in three ways.
        return node.min === 0 && node.max !== Infinity ? Math.max(1, inner) : inner;
      }
      case 'Alternative': {
        let sum = 0;
        for (const element of node.elements) {
          const copies = emptyCopies(element);
          if (found) return 0;
          if (copies >= COMBINATORIAL_COUNT || sum + copies >= COMBINATORIAL_COUNT) {
            // Which copies take the characters is a choice; the pump is what one of them takes.
            const pump = exponentialPump(`^(?:(?:${element.raw})+)*$`);
            if (pump !== undefined) found = { degree: Infinity, prefix: '', pump };
          }
          sum += copies;
        }
        return sum;
      }
      case 'Group':
      case 'CapturingGroup':
      case 'Pattern':
      case 'Assertion':
        return 'alternatives' in node ? Math.max(0, ...node.alternatives.map(emptyCopies)) : 0;
      default:
        return 0;
    }
  };
  emptyCopies(pattern);
  return found;
}

/** Whether a piece of pattern can take a character (a backreference can: its group's text). */
function consumes(node: AST.Node): boolean {
  switch (node.type) {
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
    case 'ExpressionCharacterClass':
    case 'Backreference':
      return true;
    case 'Quantifier':
      return node.max > 0 && consumes(node.element);
    case 'Alternative':
      return node.elements.some(consumes);
    case 'Group':
    case 'CapturingGroup':
    case 'Pattern':
      return node.alternatives.some(consumes);
    default:
      return false;
  }
}

/** Whether a piece of pattern can match the empty word (a backreference can: to an unset group). */
function nullable(node: AST.Node): boolean {
  switch (node.type) {
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
    case 'ExpressionCharacterClass':
      return false;
    case 'Quantifier':
      return node.min === 0 || nullable(node.element);
    case 'Alternative':
      return node.elements.every(nullable);
    case 'Group':
    case 'CapturingGroup':
    case 'Pattern':
      return node.alternatives.some(nullable);
    default:
      return true;
  }
}
