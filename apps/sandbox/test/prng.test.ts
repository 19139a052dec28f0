import { describe, expect, it } from 'vitest';
import { hashString, mulberry32, streamFor } from '../src/data/prng.js';

describe('seeded random streams', () => {
  it('repeat for a seed and differ between seeds', () => {
    const draw = (seed: number) => {
      const rng = mulberry32(seed);
      return Array.from({ length: 20 }, () => rng.next());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    for (const value of draw(123)) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
    }
  });

  it('keep helpers within their bounds', () => {
    const rng = mulberry32(99);
    const ints = Array.from({ length: 2000 }, () => rng.int(-1, 1));
    expect(new Set(ints)).toEqual(new Set([-1, 0, 1]));
    expect(rng.hex(12)).toMatch(/^[0-9a-f]{12}$/);
    expect(rng.digits(16)).toMatch(/^\d{16}$/);
    expect(() => rng.pick([])).toThrow();
    const picks = new Set(Array.from({ length: 200 }, () => rng.weighted([['a', 1], ['b', 0], ['c', 3]] as const)));
    expect(picks).toEqual(new Set(['a', 'c']));
  });

  it('derive independent, stable streams from labels', () => {
    expect(hashString('abc')).toBe(hashString('abc'));
    expect(hashString('abc')).not.toBe(hashString('abd'));
    expect(streamFor(1, 'x').next()).toBe(streamFor(1, 'x').next());
    expect(streamFor(1, 'x').next()).not.toBe(streamFor(1, 'y').next());
    expect(streamFor(1, 'x').next()).not.toBe(streamFor(2, 'x').next());
  });
});
