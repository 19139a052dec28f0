/**
 * Strings that a JSON Schema `pattern` accepts. A pattern is an ECMA-262 regular expression
 * matched as a search, so a string the whole pattern produces is always a valid answer.
 *
 * The pattern is parsed into a small tree and a string is built from it with seeded choices.
 * What the tree cannot promise by construction (lookarounds, word boundaries, anchors in odd
 * places) is settled by testing the result against the real RegExp and trying again with
 * forked randomness, a bounded number of times.
 */
import { patternTest, type PatternTest } from '../validators/linear-regex.js';
import { isWordChar, Parser, PatternSyntaxError, startsWithCaret, type CharPart, type Node, type Range } from '../validators/regex-syntax.js';
import { type Random } from './random.js';

/** The pattern cannot be sampled: invalid, impossible, or built of what this sampler does not read. */
export class PatternSampleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatternSampleError';
  }
}

export interface PatternSampleOptions {
  random: Random;
  /** Repetitions beyond the minimum for unbounded quantifiers (*, +, {n,}); default 4. */
  maxExtraRepeat?: number;
  /** Length bounds in code points the caller wants (best effort; the caller re-checks). */
  minLength?: number;
  maxLength?: number;
}

const DEFAULT_MAX_EXTRA_REPEAT = 4;
const MAX_ATTEMPTS = 50;
/** After this many attempts a match of the wrong length is returned rather than searched on. */
const LENGTH_ATTEMPTS = 12;
/** From this attempt on, length hints are dropped: a match of any length beats an error. */
const DROP_LENGTHS_AT = 25;
/** `{2,1000}` is sampled near its minimum unless a length asks for more: huge values read badly. */
const BOUNDED_EXTRA_CAP = 64;
/** Longer outputs are refused rather than built: a schema value this long is no test datum. */
const MAX_OUTPUT = 100_000;

/**
 * A string that `new RegExp(pattern, 'u').test(s)` accepts (or without the u flag when the
 * pattern is not valid with it), or throws PatternSampleError naming what it cannot handle.
 * The same pattern, options and seed give the same string.
 */
export function sampleFromPattern(pattern: string, options: PatternSampleOptions): string {
  const { regex, unicode } = compilePattern(pattern);
  const parser = new Parser(pattern, unicode);
  const root = parseOrFail(parser, pattern);
  const ctx: Context = {
    unicode,
    maxExtra: Math.max(0, options.maxExtraRepeat ?? DEFAULT_MAX_EXTRA_REPEAT),
    groups: parser.groups,
    names: parser.names,
    spans: new WeakMap(),
    visiting: new Set(),
  };
  if (spanOf(root, ctx).min > MAX_OUTPUT) fail(pattern, `its shortest match is longer than ${MAX_OUTPUT} characters`);

  let fallback: string | undefined;
  let reason = 'no string was produced';
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const random = attempt === 0 ? options.random : options.random.fork(`pattern-attempt-${attempt}`);
    const lengths = attempt < DROP_LENGTHS_AT ? lengthHints(options) : { lo: 0, hi: Infinity };
    const built = buildOnce(root, ctx, random, lengths, attemptStyle(attempt));
    if (built instanceof DeadEnd) {
      reason = built.reason;
      continue;
    }
    const matched = settle(built, regex, random, lengths);
    if (matched === undefined) {
      reason = `the pattern does not match the generated ${JSON.stringify(built)} (a lookaround or word boundary failed)`;
      continue;
    }
    if (fitsLengths(matched, lengthHints(options))) return matched;
    fallback ??= matched;
    if (attempt + 1 >= LENGTH_ATTEMPTS) return fallback;
  }
  if (fallback !== undefined) return fallback;
  return fail(pattern, `${reason}, after ${MAX_ATTEMPTS} attempts`);
}

function parseOrFail(parser: Parser, pattern: string): Node {
  try {
    return parser.parse();
  } catch (error) {
    if (error instanceof PatternSyntaxError) return fail(pattern, error.reason);
    throw error;
  }
}

function fail(pattern: string, reason: string): never {
  throw new PatternSampleError(`cannot sample a string for pattern ${JSON.stringify(pattern)}: ${reason}`);
}

/** The pattern as validators compile it: with the u flag where it is valid with it. */
function compilePattern(pattern: string): { regex: PatternTest; unicode: boolean } {
  try {
    new RegExp(pattern, 'u');
  } catch {
    // Many schemas are written for the legacy grammar (`[\w-]`, `\-`): try that next.
    try {
      new RegExp(pattern);
    } catch (error) {
      return fail(pattern, `it is not a valid regular expression (${(error as Error).message})`);
    }
    return { regex: patternTest(pattern), unicode: false };
  }
  return { regex: patternTest(pattern), unicode: true };
}

interface Lengths {
  lo: number;
  hi: number;
}

function lengthHints(options: PatternSampleOptions): Lengths {
  const lo = Math.min(Math.max(0, options.minLength ?? 0), MAX_OUTPUT);
  const hi = options.maxLength === undefined ? Infinity : Math.max(0, options.maxLength);
  return { lo, hi };
}

function fitsLengths(value: string, { lo, hi }: Lengths): boolean {
  const length = codePoints(value);
  return length >= lo && length <= hi;
}

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

// ---------------------------------------------------------------------------------------------
// Lengths

interface Span {
  min: number;
  max: number;
}

interface Context {
  unicode: boolean;
  maxExtra: number;
  groups: Map<number, Extract<Node, { type: 'group' }>>;
  names: Map<string, number[]>;
  spans: WeakMap<Node, Span>;
  /** Groups whose span is being computed: a reference inside its own group matches empty. */
  visiting: Set<number>;
}

const ZERO: Span = { min: 0, max: 0 };

/** The shortest and longest output of a node, in characters, for sharing out length hints. */
function spanOf(node: Node, ctx: Context): Span {
  let span = ctx.spans.get(node);
  if (!span) {
    span = computeSpan(node, ctx);
    ctx.spans.set(node, span);
  }
  return span;
}

function computeSpan(node: Node, ctx: Context): Span {
  switch (node.type) {
    case 'literal':
    case 'set':
      return { min: 1, max: 1 };
    case 'seq':
      return node.items.reduce<Span>((sum, item) => {
        const s = spanOf(item, ctx);
        return { min: sum.min + s.min, max: sum.max + s.max };
      }, ZERO);
    case 'alt': {
      const spans = node.options.map((option) => spanOf(option, ctx));
      return { min: Math.min(...spans.map((s) => s.min)), max: Math.max(...spans.map((s) => s.max)) };
    }
    case 'group':
      return groupSpan(node, ctx);
    case 'repeat': {
      const body = spanOf(node.body, ctx);
      return { min: node.min === 0 ? 0 : node.min * body.min, max: node.max === 0 || body.max === 0 ? 0 : node.max * body.max };
    }
    case 'backref':
      return backrefSpan(node, ctx);
    case 'look':
      // Measured for when its text is written out; it adds nothing to the match.
      spanOf(node.body, ctx);
      return ZERO;
    case 'anchor':
      return ZERO;
  }
}

function groupSpan(node: Extract<Node, { type: 'group' }>, ctx: Context): Span {
  if (node.index === undefined) return spanOf(node.body, ctx);
  ctx.visiting.add(node.index);
  try {
    return spanOf(node.body, ctx);
  } finally {
    ctx.visiting.delete(node.index);
  }
}

/** A reference inside the group it names matches empty there: the group is not set yet. */
function backrefSpan(node: Extract<Node, { type: 'backref' }>, ctx: Context): Span {
  const indices = referencedGroups(node, ctx).filter((index) => !ctx.visiting.has(index));
  if (indices.length === 0) return ZERO;
  const spans = indices.map((index) => spanOf(ctx.groups.get(index)!, ctx));
  return { min: Math.min(...spans.map((s) => s.min)), max: Math.max(...spans.map((s) => s.max)) };
}

function referencedGroups(node: Extract<Node, { type: 'backref' }>, ctx: Context): number[] {
  if (node.name !== undefined) return ctx.names.get(node.name) ?? [];
  return node.index !== undefined && ctx.groups.has(node.index) ? [node.index] : [];
}

// ---------------------------------------------------------------------------------------------
// Building a string

/** This way through the pattern cannot match: try again with other choices. */
class DeadEnd {
  constructor(readonly reason: string) {}
}

/** How an attempt builds: later attempts vary what the first ones assume. */
interface Style {
  /** Write positive lookaheads out in place: `x(?=\d)` needs the digit there. */
  writeLookaheads: boolean;
  /** Draw from punctuation and other scripts as readily as from letters: `[^a]\ba` needs a non-word character. */
  wide: boolean;
}

function attemptStyle(attempt: number): Style {
  return { writeLookaheads: attempt % 3 === 2, wide: attempt >= 5 && attempt % 2 === 1 };
}

function buildOnce(root: Node, ctx: Context, random: Random, lengths: Lengths, style: Style): string | DeadEnd {
  const builder = new Builder(ctx, random, style);
  try {
    builder.emit(root, lengths.lo, lengths.hi);
  } catch (error) {
    if (error instanceof DeadEnd) return error;
    throw error;
  }
  return builder.out.join('');
}

class Builder {
  /** One entry per character: a code point with the u flag, a code unit without. */
  readonly out: string[] = [];
  private readonly captures = new Map<number, readonly string[]>();
  private ended = false;
  /** Left by `\b` / `\B`: whether the next character must be a word character. */
  private wantWord: boolean | undefined;

  constructor(
    private readonly ctx: Context,
    private readonly random: Random,
    private readonly style: Style,
  ) {}

  /** Appends an output of `node`, aiming for a length in [lo, hi]. */
  emit(node: Node, lo: number, hi: number): void {
    // After `$` only empty output can still match.
    if (this.ended) lo = hi = 0;
    switch (node.type) {
      case 'seq':
        return this.emitSeq(node, lo, hi);
      case 'alt':
        return this.emitAlt(node, lo, hi);
      case 'literal':
        this.wantWord = undefined;
        return this.push(String.fromCodePoint(node.cp));
      case 'set':
        return this.push(String.fromCodePoint(this.pickChar(node.parts)));
      case 'group':
        return this.emitGroup(node, lo, hi);
      case 'repeat':
        return this.emitRepeat(node, lo, hi);
      case 'backref':
        return this.emitBackref(node);
      case 'anchor':
        return this.emitAnchor(node.kind);
      case 'look':
        return this.emitLook(node);
    }
  }

  private push(char: string): void {
    if (this.ended) throw new DeadEnd('a character is required after the end anchor $');
    if (this.out.length >= MAX_OUTPUT) throw new PatternSampleError(`a generated string grew past ${MAX_OUTPUT} characters`);
    this.out.push(char);
  }

  private emitSeq(node: Extract<Node, { type: 'seq' }>, lo: number, hi: number): void {
    const spans = node.items.map((item) => spanOf(item, this.ctx));
    // What the items after each one need at least and can give at most.
    const restMin: number[] = [];
    const restMax: number[] = [];
    let sumMin = 0;
    let sumMax = 0;
    for (let i = spans.length - 1; i >= 0; i--) {
      restMin[i] = sumMin;
      restMax[i] = sumMax;
      sumMin += spans[i]!.min;
      sumMax += spans[i]!.max;
    }
    const start = this.out.length;
    node.items.forEach((item, i) => {
      const produced = this.out.length - start;
      const span = spans[i]!;
      let itemLo = Math.max(span.min, lo - produced - restMax[i]!);
      let itemHi = Math.min(span.max, hi - produced - restMin[i]!);
      // Both ends cannot be met: stay short, as a maximum is usually the stricter bound.
      if (itemHi < itemLo) itemLo = itemHi = Math.max(span.min, Math.min(itemHi, itemLo));
      this.emit(item, itemLo, itemHi);
    });
  }

  private emitAlt(node: Extract<Node, { type: 'alt' }>, lo: number, hi: number): void {
    const viable = node.options.filter((option) => this.viable(option));
    const candidates = viable.length > 0 ? viable : node.options;
    const fitting = candidates.filter((option) => {
      const span = spanOf(option, this.ctx);
      return span.min <= hi && span.max >= lo;
    });
    this.emit(this.random.pick(fitting.length > 0 ? fitting : candidates), lo, hi);
  }

  /** Options that cannot match here are skipped before they waste an attempt. */
  private viable(option: Node): boolean {
    if (this.out.length > 0 && startsWithCaret(option)) return false;
    return !(this.ended && spanOf(option, this.ctx).min > 0);
  }

  private emitGroup(node: Extract<Node, { type: 'group' }>, lo: number, hi: number): void {
    const start = this.out.length;
    this.emit(node.body, lo, hi);
    if (node.index !== undefined) this.captures.set(node.index, this.out.slice(start));
  }

  private emitRepeat(node: Extract<Node, { type: 'repeat' }>, lo: number, hi: number): void {
    const body = spanOf(node.body, this.ctx);
    let count = this.ended ? node.min : this.repeatCount(node, body, lo, hi);
    // A body that takes no character gives the same at each copy (`(?:){4000000000}`,
    // `(?:\b){n}`): one copy stands for all, instead of a loop as long as the count.
    if (body.max === 0) count = Math.min(count, 1);
    const start = this.out.length;
    for (let done = 0; done < count; done++) {
      // Each iteration starts with the groups inside it unset, as the matcher has them.
      for (const index of node.captures) this.captures.delete(index);
      const produced = this.out.length - start;
      const left = count - done - 1;
      const itemLo = Math.max(body.min, lo - produced - left * body.max);
      const itemHi = Math.max(body.min, Math.min(body.max, hi - produced - left * body.min));
      this.emit(node.body, Math.min(itemLo, itemHi), itemHi);
    }
  }

  /** A repetition count within the quantifier, near its minimum, that can give a length in [lo, hi]. */
  private repeatCount(node: Extract<Node, { type: 'repeat' }>, body: Span, lo: number, hi: number): number {
    const soft = node.max === Infinity ? node.min + this.ctx.maxExtra : Math.min(node.max, node.min + BOUNDED_EXTRA_CAP);
    let low = node.min;
    let high = node.max;
    if (body.min > 0) high = Math.min(high, Math.floor(hi / body.min));
    if (lo > 0) low = Math.max(low, body.max === 0 ? Infinity : Math.ceil(lo / body.max));
    if (low > high) return high < node.min ? node.min : high;
    return this.random.int(low, Math.min(high, Math.max(soft, low)));
  }

  private emitBackref(node: Extract<Node, { type: 'backref' }>): void {
    this.wantWord = undefined;
    // A group that has not taken part matches the empty string.
    const index = referencedGroups(node, this.ctx).find((i) => this.captures.has(i));
    for (const char of index === undefined ? [] : this.captures.get(index)!) this.push(char);
  }

  private emitAnchor(kind: Extract<Node, { type: 'anchor' }>['kind']): void {
    if (kind === 'start') {
      if (this.out.length > 0) throw new DeadEnd('the start anchor ^ comes after a character');
    } else if (kind === 'end') {
      this.ended = true;
    } else {
      const last = this.out[this.out.length - 1];
      const previousIsWord = last !== undefined && isWordChar(last.codePointAt(0)!);
      this.wantWord = kind === 'boundary' ? !previousIsWord : previousIsWord;
    }
  }

  /**
   * Lookarounds are left to the final test, except a positive lookbehind at the very start
   * (its text is written out in front, where a search finds it) and, when asked, positive
   * lookaheads (their text written in place; right when what follows may be empty).
   */
  private emitLook(node: Extract<Node, { type: 'look' }>): void {
    if (node.negative || this.ended) return;
    if (node.behind ? this.out.length === 0 : this.style.writeLookaheads) this.emit(node.body, 0, Infinity);
  }

  private pickChar(parts: readonly CharPart[]): number {
    const want = this.wantWord;
    this.wantWord = undefined;
    let fallback: number | undefined;
    const tries = want === undefined ? 1 : 12;
    for (let attempt = 0; attempt < tries; attempt++) {
      const cp = this.pickFromPart(this.pickPart(parts), want);
      if (cp === undefined) continue;
      if (want === undefined || isWordChar(cp) === want) return cp;
      fallback ??= cp;
    }
    if (fallback !== undefined) return fallback;
    throw new DeadEnd('a character class matches no character');
  }

  /** Parts weigh by size up to a cap, so `[\w-]` is mostly letters yet `[+-]` is even. */
  private pickPart(parts: readonly CharPart[]): CharPart {
    if (parts.length === 0) throw new DeadEnd('an empty character class matches nothing');
    const weights = parts.map((part) => (part.kind === 'ranges' ? Math.min(part.size, 26) : 26));
    let roll = this.random.next() * weights.reduce((a, b) => a + b, 0);
    for (let i = 0; i < parts.length; i++) {
      roll -= weights[i]!;
      if (roll < 0) return parts[i]!;
    }
    return parts[parts.length - 1]!;
  }

  private pickFromPart(part: CharPart, want: boolean | undefined): number | undefined {
    if (part.kind === 'test') return this.pickAmong(candidatesFor(part.source, this.ctx.unicode, this.style.wide), want);
    part.preferred ??= preferredIn(part.ranges);
    if (part.preferred.length > 0 && this.random.chance(this.style.wide ? 0.5 : 0.9)) return this.pickAmong(part.preferred, want);
    return this.pickInRanges(part);
  }

  private pickAmong(candidates: readonly number[], want: boolean | undefined): number | undefined {
    if (candidates.length === 0) return undefined;
    const suitable = want === undefined ? candidates : candidates.filter((cp) => isWordChar(cp) === want);
    return this.random.pick(suitable.length > 0 ? suitable : candidates);
  }

  /** Uniform over the ranges; lone surrogates are avoided with the u flag, where they could pair up. */
  private pickInRanges(part: Extract<CharPart, { kind: 'ranges' }>): number | undefined {
    let cp: number | undefined;
    for (let attempt = 0; attempt < 6; attempt++) {
      let roll = this.random.int(0, part.size - 1);
      for (const [from, to] of part.ranges) {
        const size = Math.max(0, to - from + 1);
        if (roll < size) {
          cp = from + roll;
          break;
        }
        roll -= size;
      }
      if (cp === undefined || !this.ctx.unicode || cp < 0xd800 || cp > 0xdfff) return cp;
    }
    return cp;
  }
}


// ---------------------------------------------------------------------------------------------
// Readable characters

const codesOf = (text: string): number[] => Array.from(text, (c) => c.codePointAt(0)!);

const ALNUM = codesOf('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
const PRINTABLE = codesOf(' !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
/** A little of many scripts and categories, so that `\p{...}` finds something readable. */
const EXTRA = codesOf(
  'éñüßøåÆçłőŞžĐαβγΓΔΩЖдяБЩԱաאשبع١٣कअ१কกค๑აბ한가あカ中字日አᎠ' +
    'ǅʰªⅫ½²０Ａ‿‐「」«»“”…·¡¿€£¥©®°±×÷∑→★♥' +
    '\u0301\u0308\u0903\u00a0\u2003\u3000\u200b\u00ad\t\n\r\u000b\u000c\u0085\u2028\u2029\ue000\u0378',
);
const ASTRAL = [0x1f600, 0x1f680, 0x1f44d, 0x1d538, 0x10348, 0x20000, 0x1f1fa, 0x1f3fb, 0xe0041, 0xf0000];

/** Letters and digits first, then other printable ASCII, that the ranges hold. */
function preferredIn(ranges: readonly Range[]): number[] {
  const inside = (cp: number): boolean => ranges.some(([from, to]) => cp >= from && cp <= to);
  const alnum = ALNUM.filter(inside);
  return alnum.length > 0 ? alnum : PRINTABLE.filter(inside);
}

const CANDIDATES = new Map<string, number[]>();
const SINGLE_CHAR = new Map<string, RegExp>();
const CACHE_LIMIT = 2000;

/**
 * Characters the set written as `source` (a negated class, `.`, `\D`, `\p{...}`) accepts, by
 * asking the real RegExp: readable ones first, a bounded scan of the code space last.
 */
function candidatesFor(source: string, unicode: boolean, wide: boolean): number[] {
  const key = `${unicode ? 'u' : ''}${wide ? 'w' : ''}\u0000${source}`;
  let found = CANDIDATES.get(key);
  if (!found) {
    const regex = singleChar(source, unicode);
    const accepts = (cp: number): boolean => regex.test(String.fromCodePoint(cp));
    const extra = unicode ? [...EXTRA, ...ASTRAL] : EXTRA;
    // Properties draw from every pool at once: `\p{L}` may as well show a few scripts.
    const tiers = wide || /^\\p/.test(source) ? [[...ALNUM, ...PRINTABLE, ...extra]] : [ALNUM, PRINTABLE, extra];
    found = [];
    for (const tier of tiers) {
      found = tier.filter(accepts);
      if (found.length > 0) break;
    }
    if (found.length === 0) found = scanCodeSpace(accepts, unicode);
    if (CANDIDATES.size >= CACHE_LIMIT) CANDIDATES.clear();
    CANDIDATES.set(key, found);
  }
  return found;
}

function singleChar(source: string, unicode: boolean): RegExp {
  const key = `${unicode ? 'u' : ''}\u0000${source}`;
  let regex = SINGLE_CHAR.get(key);
  if (!regex) {
    try {
      regex = new RegExp(`^(?:${source})$`, unicode ? 'u' : '');
    } catch (error) {
      throw new PatternSampleError(`cannot test the character set ${source} on its own (${(error as Error).message})`);
    }
    if (SINGLE_CHAR.size >= CACHE_LIMIT) SINGLE_CHAR.clear();
    SINGLE_CHAR.set(key, regex);
  }
  return regex;
}

/** The first few accepted characters of the BMP, then of plane 1 with the u flag: bounded work. */
function scanCodeSpace(accepts: (cp: number) => boolean, unicode: boolean): number[] {
  const found: number[] = [];
  const limit = 64;
  const scan = (from: number, to: number): void => {
    for (let cp = from; cp <= to && found.length < limit; cp++) {
      if (unicode && cp >= 0xd800 && cp <= 0xdfff) continue;
      if (accepts(cp)) found.push(cp);
    }
  };
  scan(0, 0xffff);
  if (unicode) {
    scan(0x10000, 0x1ffff);
    for (const cp of [0x20000, 0x30000, 0xe0001, 0xf0000, 0x10fffd]) if (found.length < limit && accepts(cp)) found.push(cp);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Checking the result

/**
 * The built string if the pattern matches it, else a close variant that matches (a letter
 * before or after helps `\B` at an edge); padded with letters toward `lo` where the pattern
 * still matches. Undefined when nothing matches.
 */
function settle(built: string, regex: PatternTest, random: Random, lengths: Lengths): string | undefined {
  let value: string | undefined = regex.test(built) ? built : undefined;
  if (value === undefined) {
    const letter = String.fromCharCode(0x61 + random.int(0, 25));
    value = [`${letter}${built}`, `${built}${letter}`].find((variant) => regex.test(variant));
  }
  if (value === undefined) return undefined;
  const missing = lengths.lo - codePoints(value);
  if (missing <= 0) return value;
  let padding = '';
  for (let i = 0; i < missing; i++) padding += String.fromCharCode(0x61 + random.int(0, 25));
  return [`${value}${padding}`, `${padding}${value}`].find((variant) => regex.test(variant)) ?? value;
}
