/**
 * The characters one atom of a pattern matches, as sorted disjoint code-point ranges. Exact for
 * literal characters, classes, ranges, `.`, `\d`, `\w`, `\s` (the patterns are compiled without
 * the `i` and `s` flags) and Unicode property escapes (read from V8's own tables, once per
 * property); what is left (set operations of the `v` flag) is over-approximated by every
 * character, which can only make the analysis see more overlap, never less.
 */
import type { AST } from '@eslint-community/regexpp';

/** Inclusive `[low, high]` pairs, sorted, disjoint and not adjacent. */
export type Ranges = ReadonlyArray<readonly [number, number]>;

/** The largest character: a code point with `u`, a UTF-16 code unit without it. */
export function maxCharacter(unicode: boolean): number {
  return unicode ? 0x10ffff : 0xffff;
}

export function normalize(ranges: Array<readonly [number, number]>): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: Array<[number, number]> = [];
  for (const [low, high] of sorted) {
    const last = out[out.length - 1];
    if (last && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else out.push([low, high]);
  }
  return out;
}

export function complement(ranges: Ranges, max: number): Ranges {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [low, high] of ranges) {
    if (low > next) out.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= max) out.push([next, max]);
  return out;
}

const DIGIT: Ranges = [[0x30, 0x39]];
const WORD: Ranges = normalize([[0x30, 0x39], [0x41, 0x5a], [0x5f, 0x5f], [0x61, 0x7a]]);
// ECMA-262 WhiteSpace and LineTerminator.
const SPACE: Ranges = normalize([
  [0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff],
]);
const LINE_TERMINATORS: Ranges = normalize([[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]]);

/** The ranges of an atom, and whether they are an over-approximation. */
export interface AtomRanges {
  readonly ranges: Ranges;
  readonly approximate: boolean;
}

type Atom = AST.Character | AST.CharacterClass | AST.CharacterSet | AST.CharacterClassRange | AST.ExpressionCharacterClass | AST.ClassStringDisjunction;

export function atomRanges(node: Atom, unicode: boolean): AtomRanges {
  const max = maxCharacter(unicode);
  switch (node.type) {
    case 'Character':
      return { ranges: [[node.value, node.value]], approximate: false };
    case 'CharacterClassRange':
      return { ranges: [[node.min.value, node.max.value]], approximate: false };
    case 'CharacterSet': {
      if (node.kind === 'any') return { ranges: complement(LINE_TERMINATORS, max), approximate: false };
      if (node.kind === 'property') {
        if (node.strings) return { ranges: [[0, max]], approximate: true };
        const ranges = propertyRanges(node.key, node.value);
        return { ranges: node.negate ? complement(ranges, max) : ranges, approximate: false };
      }
      const base = node.kind === 'digit' ? DIGIT : node.kind === 'word' ? WORD : SPACE;
      return { ranges: node.negate ? complement(base, max) : base, approximate: false };
    }
    case 'CharacterClass': {
      const parts = node.elements.map((element) => atomRanges(element, unicode));
      const approximate = parts.some((part) => part.approximate);
      const union = normalize(parts.flatMap((part) => [...part.ranges]));
      // The complement of an over-approximation would be an under-approximation: take everything.
      if (node.negate) return approximate ? { ranges: [[0, max]], approximate } : { ranges: complement(union, max), approximate };
      return { ranges: union, approximate };
    }
    default:
      // Set operations and string disjunctions (the `v` flag, which patterns are never compiled with).
      return { ranges: [[0, max]], approximate: true };
  }
}

/** Every code point but the surrogates, in order: the text a property escape is scanned over. */
let allCodePoints: string | undefined;
const properties = new Map<string, Ranges>();

/**
 * The code points of `\p{key=value}` as V8 knows them (its Unicode version is the one the
 * generated code runs with), found by one scan of all code points: each run of matches is a range.
 */
function propertyRanges(key: string, value: string | null): Ranges {
  const name = value === null ? key : `${key}=${value}`;
  const known = properties.get(name);
  if (known) return known;
  if (allCodePoints === undefined) {
    const parts: string[] = [];
    for (let point = 0; point <= 0x10ffff; point++) if (point < 0xd800 || point > 0xdfff) parts.push(String.fromCodePoint(point));
    allCodePoints = parts.join('');
  }
  const ranges: Array<[number, number]> = [];
  for (const match of allCodePoints.matchAll(new RegExp(`\\p{${name}}+`, 'gu'))) {
    const run = match[0];
    const last = run.codePointAt(run.length - 1)! >= 0xdc00 && run.length > 1 ? run.codePointAt(run.length - 2)! : run.codePointAt(run.length - 1)!;
    ranges.push([run.codePointAt(0)!, last]);
  }
  // Lone surrogates, left out of the text so that no two of them pair up.
  const single = new RegExp(`^\\p{${name}}$`, 'u');
  for (let point = 0xd800; point <= 0xdfff; point++) if (single.test(String.fromCodePoint(point))) ranges.push([point, point]);
  const result = normalize(ranges);
  properties.set(name, result);
  return result;
}
