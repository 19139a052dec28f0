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
  | { readonly kind: 'polynomial'; readonly degree: number; readonly attack: PatternAttack }
  | { readonly kind: 'exponential'; readonly attack: PatternAttack };

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
  let pattern: AST.Pattern;
  try {
    new RegExp(source, flags);
    pattern = new RegExpParser({ ecmaVersion: 2025 }).parsePattern(source, 0, source.length, { unicode: flags === 'u' });
  } catch {
    return { kind: 'linear' };
  }
  const unicode = flags === 'u';
  const { automaton, alphabet, cost: own } = costOf(pattern.alternatives, unicode, true);
  const cost = own.degree <= 1 ? (countedBlowup(pattern, flags) ?? own) : own;
  if (cost.degree <= 1) return { kind: 'linear' };
  const pump = cost.pump === '' ? 'a' : cost.pump;
  const attack: PatternAttack = { prefix: cost.prefix, pump, suffix: failingSuffix(automaton, unicode, cost.prefix, pump, alphabet.representatives) };
  return cost.degree === Infinity ? { kind: 'exponential', attack } : { kind: 'polynomial', degree: cost.degree, attack };
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
 * its own (`(?:a|a){n}`: each copy has two paths), or it can match empty where at least
 * COMBINATORIAL_COUNT copies are required (`(?:a?){n}`: which copies take the characters is a
 * choice, as iterations below the minimum may be empty). Reported exponential, with the pump
 * of the element's own ambiguity.
 */
function countedBlowup(pattern: AST.Pattern, flags: 'u' | ''): Cost | undefined {
  let found: Cost | undefined;
  const visit = (node: AST.Node): void => {
    if (found) return;
    if (node.type === 'Quantifier') {
      const raw = node.element.raw;
      const required = nullable(node.element) ? node.min : 0;
      const copies = node.max === Infinity ? node.min : node.max;
      const probe = required >= COMBINATORIAL_COUNT ? `^(?:(?:${raw})+)*$` : copies >= COMBINATORIAL_COUNT ? `^(?:${raw})*$` : undefined;
      if (probe !== undefined) {
        const inner = classifyPattern(probe, flags);
        if (inner.kind === 'exponential') {
          found = { degree: Infinity, prefix: '', pump: inner.attack.pump };
          return;
        }
      }
      visit(node.element);
      return;
    }
    if ('alternatives' in node) for (const alternative of node.alternatives) visit(alternative);
    else if (node.type === 'Alternative') for (const element of node.elements) visit(element);
  };
  visit(pattern);
  return found;
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
