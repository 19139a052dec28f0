/**
 * Where a multipart boundary's randomness comes from. `crypto.getRandomValues` when the runtime
 * has it; Math.random otherwise (an engine or sandbox without Web Crypto), where a boundary must
 * still be valid (RFC 2046 characters, 1 to 70 of them) and new for each body, since a repeated
 * one is a boundary content could hold.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isMultipartBoundary, MultipartMixedEncoder, newMultipartBoundary } from '../src/index.js';

/** The shape every boundary this package makes has: a prefix and 28 alphanumerics, 32 in all. */
const SHAPE = /^bds-[0-9A-Za-z]{28}$/;

/**
 * Runs `body` with `globalThis.crypto` replaced by `standIn` (undefined: no crypto at all). The
 * original is put back by its property descriptor, since Node defines it as a getter, which a
 * plain assignment back would not restore.
 */
function withCrypto<T>(standIn: unknown, body: () => T): T {
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  Object.defineProperty(globalThis, 'crypto', { value: standIn, configurable: true, writable: true, enumerable: true });
  try {
    return body();
  } finally {
    if (original) Object.defineProperty(globalThis, 'crypto', original);
    else delete (globalThis as { crypto?: unknown }).crypto;
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('multipart boundaries without crypto.getRandomValues', () => {
  const WITHOUT = [
    ['no globalThis.crypto', undefined],
    ['a crypto without getRandomValues', { randomUUID: () => '00000000-0000-4000-8000-000000000000' }],
  ] as const;

  it.each(WITHOUT)('%s: still valid, and a different one each call', (_name, standIn) => {
    const random = vi.spyOn(Math, 'random');
    const made = withCrypto(standIn, () => Array.from({ length: 40 }, () => newMultipartBoundary()));
    expect(random).toHaveBeenCalled();
    for (const boundary of made) {
      expect(boundary).toMatch(SHAPE);
      expect(isMultipartBoundary(boundary)).toBe(true);
      expect(boundary.length).toBeLessThanOrEqual(70);
    }
    expect(new Set(made).size).toBe(made.length);
  });

  it.each(WITHOUT)('%s: the characters come from Math.random', (_name, standIn) => {
    // Pinned to its lowest and highest values, Math.random decides every character: the first
    // and the last character of the alphabet a byte of 0 and of 255 map to.
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(withCrypto(standIn, () => newMultipartBoundary())).toBe(`bds-${'0'.repeat(28)}`);
    vi.spyOn(Math, 'random').mockReturnValue(0.999_999);
    expect(withCrypto(standIn, () => newMultipartBoundary())).toBe(`bds-${'7'.repeat(28)}`);
  });

  it('an encoder made without crypto writes a body its own boundary can be read by', () => {
    const [first, second] = withCrypto(undefined, () => [new MultipartMixedEncoder(), new MultipartMixedEncoder()]);
    expect(first!.boundary).toMatch(SHAPE);
    expect(second!.boundary).not.toBe(first!.boundary);
    expect(first!.contentType()).toBe(`multipart/mixed; boundary=${first!.boundary}`);
  });

  it('puts crypto back afterwards', () => {
    const before = globalThis.crypto;
    withCrypto(undefined, () => expect(globalThis.crypto).toBeUndefined());
    expect(globalThis.crypto).toBe(before);
    expect(typeof globalThis.crypto.getRandomValues).toBe('function');
  });
});

describe('multipart boundaries with crypto.getRandomValues', () => {
  it('draws the randomness from getRandomValues, not Math.random', () => {
    const random = vi.spyOn(Math, 'random');
    const values = vi.spyOn(globalThis.crypto, 'getRandomValues');
    const made = Array.from({ length: 40 }, () => newMultipartBoundary());
    expect(values).toHaveBeenCalledTimes(made.length);
    expect(random).not.toHaveBeenCalled();
    for (const boundary of made) expect(isMultipartBoundary(boundary) && SHAPE.test(boundary)).toBe(true);
    expect(new Set(made).size).toBe(made.length);
  });

  it('builds the boundary from the bytes getRandomValues gives', () => {
    // Byte 10 is the alphabet's "A": a boundary of nothing but those shows whose bytes were used.
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
      if (array instanceof Uint8Array) array.fill(10);
      return array;
    });
    expect(newMultipartBoundary()).toBe(`bds-${'A'.repeat(28)}`);
  });
});
