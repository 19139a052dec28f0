/**
 * Long adversarial input against the sandbox's own readers of request text (date-time query
 * parameters, bearer tokens, consent URLs): each answers right within a generous safety
 * bound, where the readings they replace took minutes.
 */
import { describe, expect, it } from 'vitest';
import { bearerToken } from '../src/auth/tokens.js';
import { instantOf } from '../src/data/datetime.js';
import { withoutTrailingSlashes } from '../src/hub/consent-handlers.js';

const SAFETY_BOUND_MS = 2000;
const KiB = 1024;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe('the sandbox on long request text', () => {
  it('reads a date-time whose fraction is 256 KiB of zeros and a last digit', () => {
    const { value, ms } = timed(() => instantOf(`2025-01-01T00:00:00.${'0'.repeat(256 * KiB)}1+04:00`));
    expect(value).toEqual({ seconds: 1735675200, fraction: `${'0'.repeat(256 * KiB)}1` });
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    expect(instantOf(`2025-01-01T00:00:00.5${'0'.repeat(256 * KiB)}Z`)).toEqual({ seconds: 1735689600, fraction: '5' });
  });

  it('takes the token out of a 1 MiB Authorization header', () => {
    for (const [header, expected] of [
      [`Bearer ${'x'.repeat(KiB * KiB)}${' '.repeat(16)}y`, undefined],
      [`Bearer${' '.repeat(KiB * KiB)}x`, 'x'],
      [`Bearer x${'\t'.repeat(KiB * KiB)}`, 'x'],
    ] as const) {
      const { value, ms } = timed(() => bearerToken(header));
      expect(value).toBe(expected);
      expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });

  it('trims the slashes a 256 KiB consent path ends with', () => {
    const { value, ms } = timed(() => withoutTrailingSlashes(`${'/'.repeat(256 * KiB)}x${'/'.repeat(256 * KiB)}`));
    expect(value).toBe(`${'/'.repeat(256 * KiB)}x`);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });
});
