/**
 * The automaton's labels split into disjoint classes of characters (minterms): two labels
 * share a character exactly when they share a class, so overlap is decided exactly on small
 * bit sets, and each class has one representative character to spell attack inputs with.
 */
import type { Ranges } from './char-ranges.js';

export interface Alphabet {
  /** Per state, the classes its label covers (undefined for the start state). */
  readonly classesOf: ReadonlyArray<Uint32Array | undefined>;
  /** One character of each class. */
  readonly representatives: readonly string[];
  /** Classes ordered by how readable their representative is (letters first), for spelling words. */
  readonly preference: readonly number[];
}

export function buildAlphabet(labels: ReadonlyArray<Ranges | undefined>): Alphabet {
  const cuts = new Set<number>();
  for (const label of labels) for (const [low, high] of label ?? []) cuts.add(low).add(high + 1);
  const bounds = [...cuts].sort((a, b) => a - b);
  // Class i is [bounds[i], bounds[i+1] - 1]; keep only those some label covers.
  const classes: Array<[number, number]> = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const low = bounds[i]!;
    const high = bounds[i + 1]! - 1;
    if (labels.some((label) => label?.some(([l, h]) => l <= low && high <= h))) classes.push([low, high]);
  }
  const words = Math.max(1, Math.ceil(classes.length / 32));
  const classesOf = labels.map((label) => {
    if (!label) return undefined;
    const bits = new Uint32Array(words);
    classes.forEach(([low, high], index) => {
      if (label.some(([l, h]) => l <= low && high <= h)) bits[index >>> 5]! |= 1 << (index & 31);
    });
    return bits;
  });
  const points = classes.map(([low, high]) => representative(low, high));
  const preference = points.map((_, i) => i).sort((a, b) => readability(points[a]!) - readability(points[b]!) || a - b);
  return { classesOf, representatives: points.map((point) => String.fromCodePoint(point)), preference };
}

function readability(point: number): number {
  if (point >= 0x61 && point <= 0x7a) return 0;
  if (point >= 0x30 && point <= 0x39) return 1;
  if (point >= 0x41 && point <= 0x5a) return 2;
  if (point >= 0x21 && point <= 0x7e) return 3;
  return point === 0x20 ? 4 : 5;
}

/** The most readable class shared by all the sets, or -1. */
export function readableClass(preference: readonly number[], ...sets: Uint32Array[]): number {
  for (const c of preference) if (sets.every((set) => (set[c >>> 5]! >>> (c & 31)) & 1)) return c;
  return -1;
}

/** A readable character of `[low, high]`: a letter, a digit, printable ASCII, or the lowest. */
function representative(low: number, high: number): number {
  for (const [from, to] of [[0x61, 0x7a], [0x30, 0x39], [0x41, 0x5a], [0x21, 0x7e], [0x20, 0x20]] as const) {
    if (low <= to && high >= from) return Math.max(low, from);
  }
  return low;
}

/** The lowest class shared by all the sets, or -1. */
export function sharedClass(...sets: Uint32Array[]): number {
  const words = sets[0]!.length;
  for (let w = 0; w < words; w++) {
    let bits = 0xffffffff;
    for (const set of sets) bits &= set[w]!;
    if (bits !== 0) return w * 32 + (31 - Math.clz32(bits & -bits));
  }
  return -1;
}
