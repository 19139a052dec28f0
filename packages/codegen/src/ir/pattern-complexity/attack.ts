/**
 * The end of an attack input: after the pumped part, a suffix that makes the whole search fail,
 * so the engine has to try every path before it gives up. Decided on the automaton, never by
 * running the pattern (which is what could take forever): the automaton's language contains
 * the pattern's (its approximations only add words), so an input it refuses, V8 refuses too.
 */
import type { Ranges } from './char-ranges.js';
import type { PositionAutomaton } from './position-automaton.js';

const SUFFIX_CANDIDATES = ['!', '\u0000', ' ', '\n', '-', '.', '@', '/', '_', '0', 'a', 'A', '"', '\uffff', '!!', '\u0000\u0000'];

function contains(ranges: Ranges, point: number): boolean {
  return ranges.some(([low, high]) => low <= point && point <= high);
}

function pointsOf(input: string, unicode: boolean): number[] {
  return unicode ? Array.from(input, (c) => c.codePointAt(0)!) : Array.from({ length: input.length }, (_, i) => input.charCodeAt(i));
}

function step(automaton: PositionAutomaton, current: Set<number>, point: number): Set<number> {
  const next = new Set<number>();
  for (const s of current) for (const e of automaton.successors[s]!) if (contains(automaton.labels[e.to]!, point)) next.add(e.to);
  return next;
}

/** Whether the search for the automaton's pattern finds no match anywhere in `input`. */
export function refuses(automaton: PositionAutomaton, input: string, unicode: boolean): boolean {
  const points = pointsOf(input, unicode);
  let current = new Set([0]);
  const endsHere = (states: Set<number>, atEnd: boolean) => [...states].some((s) => (atEnd ? automaton.mayEndAtEnd[s] : automaton.mayEndBeforeEnd[s]));
  if (endsHere(current, points.length === 0)) return false;
  for (const [index, point] of points.entries()) {
    current = step(automaton, current, point);
    if (endsHere(current, index === points.length - 1)) return false;
    if (current.size === 0) return true;
  }
  return true;
}

/** Whether every match begun before the end of `input` has died by its last character. */
function stopsEveryMatch(automaton: PositionAutomaton, input: string, unicode: boolean): boolean {
  let current = new Set([0]);
  for (const point of pointsOf(input, unicode)) current = step(automaton, current, point);
  return [...current].every((s) => s === automaton.searchState);
}

export function failingSuffix(automaton: PositionAutomaton, unicode: boolean, prefix: string, pump: string, alphabet: readonly string[]): string {
  const fails = (suffix: string) => [1, 2, 3].every((n) => refuses(automaton, prefix + pump.repeat(n) + suffix, unicode));
  if (fails('')) return '';
  for (const candidate of [...SUFFIX_CANDIDATES, ...alphabet]) if (fails(candidate)) return candidate;
  // Every such input matches somewhere (`\s*$` matches the empty text at the end): the engine
  // still tries the costly paths first, as long as the suffix stops each match begun in the
  // pumped text.
  for (const candidate of [...SUFFIX_CANDIDATES, ...alphabet]) if ([1, 2, 3].every((n) => stopsEveryMatch(automaton, prefix + pump.repeat(n) + candidate, unicode))) return candidate;
  return '';
}
