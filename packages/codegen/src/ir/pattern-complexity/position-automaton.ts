/**
 * The position (Glushkov) automaton of a pattern, epsilon-free, with two additions a
 * backtracking engine needs:
 *
 * - Each transition counts the distinct ways the engine can take it (capped at 2): in `(a*)*`
 *   the step from `a` to `a` is taken through the inner or the outer loop, two paths the engine
 *   explores separately although they end in the same position.
 * - Zero-width assertions ride on the transitions as flags: `^` (only before the first
 *   character), `$` (only at the end), anything else (`\b`, lookarounds, backreferences) as a
 *   condition the analysis assumes can hold.
 *
 * Iterations of `*` and `+` that match nothing are not paths: V8 leaves a loop whose iteration
 * matched the empty string. Counted repeats are unrolled exactly up to a size bound, and beyond
 * it over-approximated by an unbounded loop (more paths, never fewer).
 */
import type { AST } from '@eslint-community/regexpp';
import { atomRanges, maxCharacter, type Ranges } from './char-ranges.js';

export const AT_START = 1;
export const AT_END = 2;
export const CONDITION = 4;
const FLAG_BITS = 8;

/** key -> number of distinct paths (1 or 2: "more than one" is all the analysis needs). */
type Paths = Map<number, number>;

interface Fragment {
  /** Positions a match of the fragment can begin with, keyed `position * 8 + flags`. */
  readonly first: Paths;
  /** Positions it can end with, keyed `position * 8 + flags` (the flags passed after it). */
  readonly last: Paths;
  /** Ways to match the empty string, keyed by the flags passed. */
  readonly empty: Paths;
}

/** A lookaround's body: its cost is paid each time the engine evaluates it. */
export interface LookaroundBody {
  readonly alternatives: AST.Alternative[];
  /** Evaluated once per match attempt at the start of an anchored pattern, not at every step. */
  readonly once: boolean;
}

export interface PositionAutomaton {
  /** State 0 is the start; states 1..n are positions; `searchState` (when present) is the unanchored search's loop. */
  readonly labels: ReadonlyArray<Ranges | undefined>;
  readonly successors: ReadonlyArray<ReadonlyArray<{ readonly to: number; readonly paths: number }>>;
  /** A match ends successfully as soon as the engine is here (no `$` or condition left to check). */
  readonly acceptsHere: readonly boolean[];
  /** A match may end here before the end of the input (its conditions assumed to hold). */
  readonly mayEndBeforeEnd: readonly boolean[];
  /** A match may end here at the end of the input. */
  readonly mayEndAtEnd: readonly boolean[];
  readonly searchState: number | undefined;
  readonly lookarounds: readonly LookaroundBody[];
  /** Whether some character set or repeat was over-approximated. */
  readonly approximate: boolean;
}

/** Positions one unrolled counted repeat may add before it is over-approximated. */
const UNROLL_LIMIT = 256;
/** Positions the whole automaton may hold before every further repeat is over-approximated. */
const TOTAL_LIMIT = 1500;

function add(paths: Paths, key: number, count: number): void {
  paths.set(key, Math.min(2, (paths.get(key) ?? 0) + count));
}

const EMPTY: Fragment = { first: new Map(), last: new Map(), empty: new Map([[0, 1]]) };

class Builder {
  readonly labels: Ranges[] = [];
  /** Positions whose "a match may end here" is not exact (inside an over-approximated repeat). */
  readonly endUnknown: boolean[] = [];
  readonly follow = new Map<number, Paths>();
  readonly lookarounds: LookaroundBody[] = [];
  approximate = false;
  private approximating = 0;
  private anyCharacter = 0;

  constructor(private readonly unicode: boolean) {}

  position(ranges: Ranges): Fragment {
    const position = this.labels.length + 1;
    this.labels.push(ranges);
    this.endUnknown.push(this.approximating > 0);
    return { first: new Map([[position * FLAG_BITS, 1]]), last: new Map([[position * FLAG_BITS, 1]]), empty: new Map() };
  }

  private link(from: Paths, to: Paths): void {
    for (const [lastKey, lastCount] of from) {
      const source = Math.floor(lastKey / FLAG_BITS);
      const flagsAfter = lastKey % FLAG_BITS;
      let targets = this.follow.get(source);
      if (!targets) this.follow.set(source, (targets = new Map()));
      for (const [firstKey, firstCount] of to) add(targets, firstKey | flagsAfter, lastCount * firstCount);
    }
  }

  concat(a: Fragment, b: Fragment): Fragment {
    this.link(a.last, b.first);
    const first = new Map(a.first);
    for (const [flags, count] of a.empty) for (const [key, c] of b.first) add(first, key | flags, count * c);
    const last = new Map(b.last);
    for (const [flags, count] of b.empty) for (const [key, c] of a.last) add(last, key | flags, count * c);
    const empty: Paths = new Map();
    for (const [fa, ca] of a.empty) for (const [fb, cb] of b.empty) add(empty, fa | fb, ca * cb);
    return { first, last, empty };
  }

  union(a: Fragment, b: Fragment): Fragment {
    const merge = (x: Paths, y: Paths) => {
      const out = new Map(x);
      for (const [key, count] of y) add(out, key, count);
      return out;
    };
    return { first: merge(a.first, b.first), last: merge(a.last, b.last), empty: merge(a.empty, b.empty) };
  }

  /** `e*` (atLeastOnce false) or `e+`: one more non-empty iteration may follow any iteration. */
  loop(body: Fragment, atLeastOnce: boolean): Fragment {
    this.link(body.last, body.first);
    return { first: body.first, last: body.last, empty: atLeastOnce ? body.empty : new Map([[0, 1]]) };
  }

  optional(body: Fragment): Fragment {
    const empty = new Map(body.empty);
    add(empty, 0, 1);
    return { first: body.first, last: body.last, empty };
  }

  alternatives(alternatives: readonly AST.Alternative[]): Fragment {
    let result: Fragment | undefined;
    for (const alternative of alternatives) {
      let sequence = EMPTY;
      for (const element of alternative.elements) sequence = this.concat(sequence, this.element(element));
      result = result ? this.union(result, sequence) : sequence;
    }
    return result ?? EMPTY;
  }

  element(node: AST.Element): Fragment {
    switch (node.type) {
      case 'Character':
      case 'CharacterClass':
      case 'CharacterSet':
      case 'ExpressionCharacterClass': {
        const { ranges, approximate } = atomRanges(node, this.unicode);
        if (approximate) this.approximate = true;
        return this.position(this.anyCharacter > 0 ? [[0, maxCharacter(this.unicode)]] : ranges);
      }
      case 'Group':
      case 'CapturingGroup': {
        // A modifier group (`(?i:...)`) changes what its atoms match: take every character.
        const modified = node.type === 'Group' && node.modifiers !== null;
        if (modified) {
          this.anyCharacter++;
          this.approximate = true;
        }
        const fragment = this.alternatives(node.alternatives);
        if (modified) this.anyCharacter--;
        return fragment;
      }
      case 'Assertion':
        if (node.kind === 'start') return { ...EMPTY, empty: new Map([[this.anyCharacter > 0 ? CONDITION : AT_START, 1]]) };
        if (node.kind === 'end') return { ...EMPTY, empty: new Map([[this.anyCharacter > 0 ? CONDITION : AT_END, 1]]) };
        if (node.kind === 'lookahead' || node.kind === 'lookbehind') this.lookarounds.push({ alternatives: node.alternatives, once: evaluatedOnce(node) });
        return { ...EMPTY, empty: new Map([[CONDITION, 1]]) };
      case 'Backreference': {
        // It matches what its group captured: any text, as far as this analysis knows.
        this.approximate = true;
        this.approximating++;
        const anyText = this.loop(this.position([[0, maxCharacter(this.unicode)]]), false);
        this.approximating--;
        return { ...anyText, empty: new Map([[CONDITION, 1]]) };
      }
      case 'Quantifier':
        return this.repeat(node.element, node.min, node.max);
    }
  }

  repeat(element: AST.QuantifiableElement, min: number, max: number): Fragment {
    if (max === 0) return EMPTY;
    if (max === Infinity && min <= 1) return this.loop(this.element(element), min === 1);
    if (min === 0 && max === 1) return this.optional(this.element(element));
    if (min === 1 && max === 1) return this.element(element);
    const copies = max === Infinity ? min + 1 : max;
    // Each copy counts at least one: unrolling copies that add no position (`(?:)`, `(?:^)`)
    // still costs one step each, and a count may be 2^53.
    const size = Math.max(estimateSize(element), 1) * copies;
    if (size > UNROLL_LIMIT || this.labels.length + size > TOTAL_LIMIT) {
      // Every path of e{min,max} is a path of e{0|1,}: more paths, never fewer.
      this.approximate = true;
      this.approximating++;
      const fragment = this.loop(this.element(element), min >= 1);
      this.approximating--;
      return fragment;
    }
    let fragment = EMPTY;
    for (let i = 0; i < min; i++) fragment = this.concat(fragment, this.element(element));
    if (max === Infinity) return this.concat(fragment, this.loop(this.element(element), false));
    // The optional iterations nest, (e(e(e)?)?)?, as the engine takes them: one path per count.
    let optional: Fragment | undefined;
    for (let i = min; i < max; i++) optional = this.optional(optional ? this.concat(this.element(element), optional) : this.element(element));
    return optional ? this.concat(fragment, optional) : fragment;
  }
}

/** Positions one copy of a node adds, unrolled as `repeat` would (an upper bound is enough). */
function estimateSize(node: AST.Node): number {
  switch (node.type) {
    case 'Character':
    case 'CharacterClass':
    case 'CharacterSet':
    case 'ExpressionCharacterClass':
    case 'Backreference':
      return 1;
    case 'Group':
    case 'CapturingGroup':
    case 'Pattern':
      return node.alternatives.reduce((sum, alternative) => sum + estimateSize(alternative), 0);
    case 'Alternative':
      return node.elements.reduce((sum, element) => sum + estimateSize(element), 0);
    case 'Quantifier': {
      const copies = node.max === Infinity ? node.min + 1 : node.max;
      return Math.min(Math.max(estimateSize(node.element), 1) * Math.max(copies, 1), UNROLL_LIMIT + 1);
    }
    default:
      return 0;
  }
}

/** A lookaround right after a leading `^` (and other assertions) is evaluated once per match. */
function evaluatedOnce(node: AST.LookaroundAssertion): boolean {
  const alternative = node.parent;
  if (alternative.type !== 'Alternative' || alternative.parent.type !== 'Pattern') return false;
  const before = alternative.elements.slice(0, alternative.elements.indexOf(node));
  return before.some((e) => e.type === 'Assertion' && e.kind === 'start') && before.every((e) => e.type === 'Assertion' && e.kind !== 'end' && e.kind !== 'word');
}

/**
 * The automaton of `alternatives` (a pattern, or a lookaround's body). `search` adds the loop
 * over start positions of an unanchored search (the body of a lookaround is tried at one place).
 */
export function buildAutomaton(alternatives: readonly AST.Alternative[], unicode: boolean, search: boolean): PositionAutomaton {
  const builder = new Builder(unicode);
  const root = builder.alternatives(alternatives);
  const count = builder.labels.length;
  const reachableFromSearch = [...root.first].some(([key]) => (key & AT_START) === 0);
  const searchState = search && reachableFromSearch ? count + 1 : undefined;
  const stateCount = count + 1 + (searchState === undefined ? 0 : 1);

  const successors: Array<Array<{ to: number; paths: number }>> = Array.from({ length: stateCount }, () => []);
  const addEdges = (from: number, keys: Paths, fromStart: boolean) => {
    const merged = new Map<number, number>();
    for (const [key, paths] of keys) {
      const flags = key % FLAG_BITS;
      if (flags & AT_END) continue; // no character follows the end of the input
      if (flags & AT_START && !fromStart) continue; // `^` holds only before the first character
      const to = Math.floor(key / FLAG_BITS);
      merged.set(to, Math.min(2, (merged.get(to) ?? 0) + paths));
    }
    for (const [to, paths] of [...merged].sort((a, b) => a[0] - b[0])) successors[from]!.push({ to, paths });
  };
  addEdges(0, root.first, true);
  for (let position = 1; position <= count; position++) addEdges(position, builder.follow.get(position) ?? new Map(), false);
  if (searchState !== undefined) {
    successors[0]!.push({ to: searchState, paths: 1 });
    successors[searchState]!.push({ to: searchState, paths: 1 });
    addEdges(searchState, root.first, false);
  }

  const acceptsHere = new Array<boolean>(stateCount).fill(false);
  acceptsHere[0] = [...root.empty.keys()].some((flags) => (flags & (AT_END | CONDITION)) === 0);
  if (searchState !== undefined) acceptsHere[searchState] = root.empty.has(0);
  for (const [key] of root.last) {
    const position = Math.floor(key / FLAG_BITS);
    if (key % FLAG_BITS === 0 && !builder.endUnknown[position - 1]) acceptsHere[position] = true;
  }
  // Where a match may end at all, conditions assumed to hold: the language read this way
  // contains the pattern's, so an input it refuses the pattern refuses too.
  const mayEndBeforeEnd = new Array<boolean>(stateCount).fill(false);
  const mayEndAtEnd = new Array<boolean>(stateCount).fill(false);
  const ends = (state: number, flags: number) => {
    if (flags & AT_START && state !== 0) return;
    mayEndAtEnd[state] = true;
    if (!(flags & AT_END)) mayEndBeforeEnd[state] = true;
  };
  for (const [flags] of root.empty) {
    ends(0, flags);
    if (searchState !== undefined) ends(searchState, flags);
  }
  for (const [key] of root.last) ends(Math.floor(key / FLAG_BITS), key % FLAG_BITS);
  const any: Ranges = [[0, maxCharacter(unicode)]];
  const labels: Array<Ranges | undefined> = [undefined, ...builder.labels];
  if (searchState !== undefined) labels.push(any);
  return { labels, successors, acceptsHere, mayEndBeforeEnd, mayEndAtEnd, searchState, lookarounds: builder.lookarounds, approximate: builder.approximate };
}
