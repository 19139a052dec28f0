/**
 * Seeded randomness for generated values: the same seed gives the same sequence on every
 * platform and Node version (integer arithmetic only, no `Math.random`).
 */

export interface Random {
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One of `items` (which must not be empty). */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** An independent generator derived from this one and `label` (does not advance this one). */
  fork(label: string | number): Random;
}

/** FNV-1a over the text of `parts`: a 32-bit seed that names where a value is made. */
export function seedOf(...parts: ReadonlyArray<string | number>): number {
  let hash = 0x811c9dc5;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: small, fast and good enough for test data (not for secrets). */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const random: Random = {
    next,
    int(min, max) {
      if (max < min) throw new RangeError(`int(${min}, ${max}): empty range`);
      return min + Math.floor(next() * (max - min + 1));
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('pick: no items');
      return items[Math.floor(next() * items.length)]!;
    },
    chance(p) {
      return next() < p;
    },
    fork(label) {
      return seededRandom(seedOf(state, label));
    },
  };
  return random;
}
