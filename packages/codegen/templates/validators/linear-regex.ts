/**
 * A matcher whose time is linear in the input, for ECMA-262 patterns without backreferences
 * or lookarounds: the answer of `new RegExp(source, flags).test(input)`, found without
 * backtracking.
 *
 * The pattern is read by the shared reader (regex-syntax.ts) and compiled into a Thompson
 * automaton: one state per character test, zero-width tests (`^ $ \b \B`) and choices. The
 * input is walked once, keeping the set of states alive after each character; sets already
 * met are cached as the states of a deterministic automaton built lazily, so the common case
 * costs one table read per character. Every step is bounded by the automaton's size, never by
 * the input: no input is slow.
 *
 * Exactness: whether a character belongs to a set (`[a-z]`, `\w`, `.`, `\p{L}`, `[^"]`) is
 * decided by V8 itself, testing that one character against the set's own source; literals are
 * compared by code point. Without the `u` flag the input is walked by UTF-16 code units, with
 * it by code points (a lone surrogate is one), as V8 does. A quantifier's rule that an
 * iteration may not match empty changes which captures a match reports, never whether there
 * is one, so a test needs no special case for it.
 */
import { isWordChar, Parser, PatternSyntaxError, startsWithCaret, type Node } from './regex-syntax.js';

/** The pattern cannot be matched by this automaton (a backreference, a lookaround, or too big). */
export class NotLinearError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${reason}`);
    this.name = 'NotLinearError';
  }
}

/**
 * A character costs at most one pass over the automaton's states (when its set of live states
 * is new), so the size is capped: `.{1,100000}` unrolled would make each character slow.
 */
const MAX_STATES = 5_000;
/** Cached sets of states; past this the cache starts afresh (each step stays bounded). */
const MAX_CACHED_SETS = 4_000;
/** Characters past ASCII whose class is remembered; past this the memory starts afresh. */
const MAX_REMEMBERED_CHARS = 10_000;

// State kinds and zero-width tests, as plain numbers (no enums: the copies must stay erasable TypeScript).
const CHAR = 0;
const SPLIT = 1;
const ASSERT = 2;
const MATCH = 3;
type Kind = typeof CHAR | typeof SPLIT | typeof ASSERT | typeof MATCH;

const START = 0;
const END = 1;
const BOUNDARY = 2;
const NOT_BOUNDARY = 3;
type Assertion = typeof START | typeof END | typeof BOUNDARY | typeof NOT_BOUNDARY;

/** A character test: a literal code point or a set decided by the real RegExp. */
type Atom = { readonly cp: number } | { readonly test: RegExp };

/** The automaton: parallel arrays indexed by state. */
interface Automaton {
  readonly kind: Kind[];
  /** For Char: the atom index; for Assert: the assertion. */
  readonly arg: number[];
  /** Successors: one for Char and Assert, any number for Split. */
  readonly out: number[][];
  readonly start: number;
  readonly atoms: Atom[];
}

function build(pattern: string, root: Node, unicode: boolean): Automaton {
  const kind: Kind[] = [];
  const arg: number[] = [];
  const out: number[][] = [];
  const atoms: Atom[] = [];
  const atomIds = new Map<string, number>();
  const add = (k: Kind, a: number, next: number[]): number => {
    if (kind.length >= MAX_STATES) throw new NotLinearError(pattern, `its automaton would need more than ${MAX_STATES} states`);
    kind.push(k);
    arg.push(a);
    out.push(next);
    return kind.length - 1;
  };
  const atom = (key: string, make: () => Atom): number => {
    let id = atomIds.get(key);
    if (id === undefined) {
      id = atoms.push(make()) - 1;
      atomIds.set(key, id);
    }
    return id;
  };
  // Compiled back to front: each node is given the state it continues to.
  const compile = (node: Node, next: number): number => {
    switch (node.type) {
      case 'literal':
        return add(CHAR, atom(`c${node.cp}`, () => ({ cp: node.cp })), [next]);
      case 'set': {
        const source = node.source!;
        return add(CHAR, atom(`s${source}`, () => ({ test: singleCharacter(pattern, source, unicode) })), [next]);
      }
      case 'seq': {
        let entry = next;
        for (let i = node.items.length - 1; i >= 0; i--) entry = compile(node.items[i]!, entry);
        return entry;
      }
      case 'alt':
        return add(
          SPLIT,
          0,
          node.options.map((option) => compile(option, next)),
        );
      case 'group':
        return compile(node.body, next);
      case 'anchor':
        return add(ASSERT, ANCHORS[node.kind], [next]);
      case 'repeat':
        return compileRepeat(node, next);
      case 'backref':
        throw new NotLinearError(pattern, 'it holds a backreference');
      case 'look':
        throw new NotLinearError(pattern, `it holds a ${node.behind ? 'lookbehind' : 'lookahead'}`);
    }
  };
  const compileRepeat = (node: Extract<Node, { type: 'repeat' }>, next: number): number => {
    // A body that adds no state (`(?:)`, `a{0}`) is the empty word however often it repeats;
    // unrolling it would cost its count, up to 2^53, in time and not one state toward the cap.
    if (node.max === 0 || onlyEmpty(node.body)) return next;
    let entry: number;
    if (node.max === Infinity) {
      // The loop: a choice between one more iteration and going on.
      const loop = add(SPLIT, 0, []);
      out[loop] = [compile(node.body, loop), next];
      entry = loop;
    } else {
      // x{2,4} is x x (x (x)?)?: each optional copy may be skipped straight to what follows.
      entry = next;
      for (let i = node.min; i < node.max; i++) entry = add(SPLIT, 0, [compile(node.body, entry), next]);
    }
    for (let i = 0; i < node.min; i++) entry = compile(node.body, entry);
    return entry;
  };
  const match = add(MATCH, 0, []);
  const start = compile(root, match);
  return { kind, arg, out, start, atoms };
}

/** Whether a node compiles to no state at all: it can only match the empty word, and tests nothing. */
function onlyEmpty(node: Node): boolean {
  switch (node.type) {
    case 'seq':
      return node.items.every(onlyEmpty);
    case 'alt':
      return node.options.every(onlyEmpty);
    case 'group':
      return onlyEmpty(node.body);
    case 'repeat':
      return node.max === 0 || onlyEmpty(node.body);
    default:
      return false;
  }
}

/** The set written as `source`, as a RegExp that tests one character. */
function singleCharacter(pattern: string, source: string, unicode: boolean): RegExp {
  try {
    return new RegExp(`^(?:${source})$`, unicode ? 'u' : '');
  } catch {
    // A form that means something else on its own (it could refer to the pattern's groups).
    throw new NotLinearError(pattern, `its character set ${source} cannot be tested on its own`);
  }
}

const ANCHORS: Record<Extract<Node, { type: 'anchor' }>['kind'], Assertion> = {
  start: START,
  end: END,
  boundary: BOUNDARY,
  notBoundary: NOT_BOUNDARY,
};

/** Where the walk stands between two characters, as the zero-width tests see it. */
const AT_START = 1;
const AFTER_WORD = 2;

/** A transition not computed yet, and one into a match (the answer is known). */
const UNKNOWN = -1;
const MATCHED = -2;

const NO_STATES = new Int32Array(0);

/** `test` of one pattern in linear time. */
export class LinearMatcher {
  private readonly automaton: Automaton;
  private readonly unicode: boolean;
  /** The pattern can match only from the input's first position (`^` leads every way through). */
  private readonly anchored: boolean;
  /**
   * The sets of live states met so far (those about to test a character), numbered, with what
   * the walk knows of the last character: a lazily built deterministic automaton.
   */
  private readonly setIds = new Map<string, number>();
  private kernels: Int32Array[] = [];
  private setFlags: number[] = [];
  /** By set, by character class: the next set, MATCHED, or UNKNOWN. */
  private transitions: Int32Array[] = [];
  /** By set: nothing alive and no match can start later (anchored patterns), so the answer is no. */
  private dead: boolean[] = [];
  /** By set: whether a match ends there when the input does (undefined until asked). */
  private acceptsAtEnd: Array<boolean | undefined> = [];
  private initial = UNKNOWN;
  /** Class of each ASCII character (-1 until first met), and of the others met so far. */
  private readonly asciiClass = new Int32Array(128).fill(-1);
  private readonly otherClass = new Map<number, number>();
  private readonly classIds = new Map<string, number>();
  /** By class: which atoms its characters satisfy, and whether they are word characters. */
  private readonly classAtoms: Uint8Array[] = [];
  private readonly classIsWord: boolean[] = [];
  /** Scratch for the closure: a generation stamp per state. */
  private readonly seen: Int32Array;
  private generation = 0;

  constructor(
    readonly source: string,
    readonly flags: 'u' | '',
  ) {
    this.unicode = flags === 'u';
    let root: Node;
    try {
      root = new Parser(source, this.unicode).parse();
    } catch (error) {
      if (error instanceof PatternSyntaxError) throw new NotLinearError(source, error.reason);
      throw error;
    }
    this.automaton = build(source, root, this.unicode);
    this.anchored = startsWithCaret(root);
    this.seen = new Int32Array(this.automaton.kind.length);
  }

  test(input: string): boolean {
    if (this.initial === UNKNOWN) this.initial = this.register(NO_STATES, AT_START);
    let set = this.initial;
    const unicode = this.unicode;
    const length = input.length;
    const asciiClass = this.asciiClass;
    let i = 0;
    while (i < length) {
      let cp = input.charCodeAt(i++);
      if (unicode && cp >= 0xd800 && cp <= 0xdbff && i < length) {
        const trail = input.charCodeAt(i);
        if (trail >= 0xdc00 && trail <= 0xdfff) {
          cp = 0x10000 + ((cp - 0xd800) << 10) + (trail - 0xdc00);
          i++;
        }
      }
      const known = cp < 128 ? asciiClass[cp]! : -1;
      const id = known >= 0 ? known : this.classOf(cp);
      const row = this.transitions[set]!;
      let next = id < row.length ? row[id]! : UNKNOWN;
      if (next === UNKNOWN) {
        const stepped = this.step(set, id);
        next = stepped.next;
        set = stepped.from;
        this.store(set, id, next);
      }
      if (next === MATCHED) return true;
      if (this.dead[next]) return false;
      set = next;
    }
    let accepts = this.acceptsAtEnd[set];
    if (accepts === undefined) accepts = this.acceptsAtEnd[set] = this.closure(set, true, false).matched;
    return accepts;
  }

  private store(set: number, id: number, next: number): void {
    let row = this.transitions[set]!;
    if (id >= row.length) {
      const grown = new Int32Array(Math.max(id + 1, row.length * 2, 8)).fill(UNKNOWN);
      grown.set(row);
      row = this.transitions[set] = grown;
    }
    row[id] = next;
  }

  private classOf(cp: number): number {
    if (cp >= 128) {
      const known = this.otherClass.get(cp);
      if (known !== undefined) return known;
    }
    const char = this.unicode ? String.fromCodePoint(cp) : String.fromCharCode(cp);
    const atoms = this.automaton.atoms;
    const member = new Uint8Array(atoms.length);
    for (let a = 0; a < atoms.length; a++) {
      const atom = atoms[a]!;
      member[a] = ('cp' in atom ? atom.cp === cp : atom.test.test(char)) ? 1 : 0;
    }
    const word = isWordChar(cp);
    const key = `${word ? 'w' : '-'}${member.join('')}`;
    let id = this.classIds.get(key);
    if (id === undefined) {
      id = this.classAtoms.push(member) - 1;
      this.classIsWord.push(word);
      this.classIds.set(key, id);
    }
    if (cp < 128) this.asciiClass[cp] = id;
    else {
      if (this.otherClass.size >= MAX_REMEMBERED_CHARS) this.otherClass.clear();
      this.otherClass.set(cp, id);
    }
    return id;
  }

  /**
   * The set after one character of class `id` (or MATCHED when a match ends before it), and
   * the number of the set it left: renumbered when the cache had to start afresh.
   */
  private step(set: number, id: number): { from: number; next: number } {
    const { matched, live } = this.closure(set, false, this.classIsWord[id]!);
    if (matched) return { from: set, next: MATCHED };
    const { kind, arg, out } = this.automaton;
    const member = this.classAtoms[id]!;
    const stamp = ++this.generation;
    const next: number[] = [];
    for (const state of live) {
      if (kind[state] !== CHAR || member[arg[state]!] !== 1) continue;
      const to = out[state]![0]!;
      if (this.seen[to] === stamp) continue;
      this.seen[to] = stamp;
      next.push(to);
    }
    next.sort((a, b) => a - b);
    let from = set;
    if (this.kernels.length >= MAX_CACHED_SETS) {
      // Bounded memory: forget every set but the one the walk stands on.
      const kernel = this.kernels[set]!;
      const flags = this.setFlags[set]!;
      this.forget();
      from = this.register(kernel, flags);
    }
    return { from, next: this.register(Int32Array.from(next), this.classIsWord[id] ? AFTER_WORD : 0) };
  }

  private forget(): void {
    this.setIds.clear();
    this.kernels = [];
    this.setFlags = [];
    this.transitions = [];
    this.dead = [];
    this.acceptsAtEnd = [];
    this.initial = UNKNOWN;
  }

  /**
   * The states reachable from the set (and from the start, where a match may begin) through
   * choices and the zero-width tests that hold here; `nextIsWord` is the class of the character
   * after this position, `atEnd` whether there is none.
   */
  private closure(set: number, atEnd: boolean, nextIsWord: boolean): { matched: boolean; live: number[] } {
    const { kind, arg, out, start } = this.automaton;
    const flags = this.setFlags[set]!;
    const atStart = (flags & AT_START) !== 0;
    const afterWord = (flags & AFTER_WORD) !== 0;
    const stamp = ++this.generation;
    const live: number[] = [];
    const stack: number[] = Array.from(this.kernels[set]!);
    if (atStart || !this.anchored) stack.push(start);
    let matched = false;
    while (stack.length > 0) {
      const state = stack.pop()!;
      if (this.seen[state] === stamp) continue;
      this.seen[state] = stamp;
      switch (kind[state]) {
        case CHAR:
          live.push(state);
          break;
        case MATCH:
          matched = true;
          break;
        case SPLIT:
          for (const to of out[state]!) stack.push(to);
          break;
        case ASSERT: {
          let holds = false;
          switch (arg[state] as Assertion) {
            case START:
              holds = atStart;
              break;
            case END:
              holds = atEnd;
              break;
            case BOUNDARY:
              holds = afterWord !== (!atEnd && nextIsWord);
              break;
            case NOT_BOUNDARY:
              holds = afterWord === (!atEnd && nextIsWord);
              break;
          }
          if (holds) stack.push(out[state]![0]!);
          break;
        }
      }
      if (matched) break;
    }
    return { matched, live };
  }

  /** The number of a set of live states, made on first meeting. */
  private register(states: Int32Array, flags: number): number {
    const key = `${flags}:${states.join(',')}`;
    let id = this.setIds.get(key);
    if (id === undefined) {
      id = this.kernels.push(states) - 1;
      this.setFlags.push(flags);
      this.transitions.push(new Int32Array(8).fill(UNKNOWN));
      this.dead.push(this.anchored && states.length === 0 && (flags & AT_START) === 0);
      this.acceptsAtEnd.push(undefined);
      this.setIds.set(key, id);
    }
    return id;
  }
}

/** Whether `source` with `flags` can be matched by LinearMatcher; the reason when it cannot. */
export function linearMatchable(source: string, flags: 'u' | ''): true | string {
  try {
    new LinearMatcher(source, flags);
    return true;
  } catch (error) {
    if (error instanceof NotLinearError) return error.reason;
    throw error;
  }
}

/** What a pattern's test needs. */
export interface PatternTest {
  test(input: string): boolean;
}

/**
 * The pattern compiled as the validators compile it (with `u` where it is valid with it), and
 * tested without backtracking where the linear matcher can express it: for code that tests
 * patterns it has not classified (the mocks' sampler), on values it mostly built itself.
 * Patterns with a backreference or lookaround keep V8's RegExp. Throws when the pattern is
 * no regular expression.
 */
export function patternTest(source: string): PatternTest {
  let flags: 'u' | '' = 'u';
  try {
    new RegExp(source, 'u');
  } catch {
    flags = '';
    new RegExp(source);
  }
  try {
    return new LinearMatcher(source, flags);
  } catch (error) {
    if (error instanceof NotLinearError) return new RegExp(source, flags);
    throw error;
  }
}
