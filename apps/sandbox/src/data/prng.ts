/**
 * A tiny seeded pseudo-random number generator (mulberry32) with the few helpers the
 * generator needs. The sandbox never touches Math.random: the same seed must always
 * give the same data, on every machine and every Node version.
 */

/** 32-bit FNV-1a hash of a string; used to derive independent streams from labels. */
export function hashString(text: string, basis = 0x811c9dc5): number {
  let hash = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** A deterministic random stream. */
export interface Rng {
  /** Float in [0, 1). */
  next(): number;
  /** Integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
  /** True with the given probability. */
  chance(probability: number): boolean;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One element, chosen with the given relative weights. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** A string of `length` lowercase hexadecimal digits. */
  hex(length: number): string;
  /** A string of `length` decimal digits (leading zeros allowed). */
  digits(length: number): string;
}

/** Creates a mulberry32 stream from a 32-bit seed. */
export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick() needs a non-empty list');
      return items[int(0, items.length - 1)] as T;
    },
    weighted<T>(items: readonly (readonly [T, number])[]): T {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      const last = items[items.length - 1];
      if (last === undefined) throw new Error('weighted() needs a non-empty list');
      return last[0];
    },
    hex: (length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += int(0, 15).toString(16);
      return out;
    },
    digits: (length) => {
      let out = '';
      for (let i = 0; i < length; i++) out += String(int(0, 9));
      return out;
    },
  };
}

/**
 * A stream for one labelled part of the data set. Deriving a stream per part (customer,
 * account, transactions of an account, ...) keeps identifiers stable when an unrelated
 * option changes: asking for fewer transactions per day must not rename the accounts.
 */
export function streamFor(seed: number, label: string): Rng {
  return mulberry32(hashString(label, hashString(String(seed >>> 0))));
}
