/**
 * The mock server's own readers of request text (the `Prefer` header, credentials) on 1 MiB
 * inputs of the shapes that make a naive reading slow: each answers right within a generous
 * safety bound. (The router and wire readers it shares are covered in their packages.)
 */
import { describe, expect, it } from 'vitest';
import { mockAuthorize } from '../../src/mock/credentials.js';
import { parsePrefer } from '../../src/mock/prefer.js';

const SAFETY_BOUND_MS = 2000;
const MiB = 1024 * 1024;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe('the mock server on 1 MiB of request text', () => {
  it('reads a Prefer header of many preferences, quotes and escapes', () => {
    for (const [header, expected] of [
      [`${'respond-async, '.repeat(MiB / 15)}code=404`, { code: 404 }],
      [`example="${'\\"'.repeat(MiB / 2)}"`, { example: '"'.repeat(MiB / 2) }],
      [`${'x="'.repeat(MiB / 3)}, code=500`, {}],
      [`code=404${';a=b'.repeat(MiB / 4)}`, { code: 404 }],
    ] as const) {
      const { value, ms } = timed(() => parsePrefer(header));
      expect(value).toEqual(expected);
      expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });

  it('checks bearer tokens and Basic credentials that fail at their last character', () => {
    const authorize = mockAuthorize([
      { name: 'Bearer', type: 'http', scheme: 'bearer' },
      { name: 'Basic', type: 'http', scheme: 'basic' },
    ] as never);
    for (const [scheme, credential, granted] of [
      ['Bearer', `${'a'.repeat(MiB)}=!`, false],
      ['Bearer', `${'a'.repeat(MiB)}${'='.repeat(MiB)}`, true],
      ['Basic', `${'A'.repeat(MiB)}===`, false],
    ] as const) {
      const { value, ms } = timed(() => authorize({ scheme, schemeType: 'http', credential, requiredScopes: [] }));
      expect(value !== undefined).toBe(granted);
      expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });
});
