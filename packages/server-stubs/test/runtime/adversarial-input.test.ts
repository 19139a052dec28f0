/**
 * Long adversarial input against the router runtime's own readers of request (and LFI answer)
 * text: each answers correctly within a generous safety bound, where the readings they
 * replace took minutes. See the README's "Our own parsers and format checks".
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { compilePaths, credentialFor, interactionId, matchPath, parseInstant } from '../../src/runtime/index.js';
import { verifySignedBody } from '../../src/runtime/jws.js';
import { withoutTrailingSlashes } from '../../src/runtime/router.js';

const SAFETY_BOUND_MS = 2000;
const KiB = 1024;

function timed<T>(run: () => T): { value: T; ms: number } {
  const started = performance.now();
  const value = run();
  return { value, ms: performance.now() - started };
}

describe('path matching', () => {
  const paths = compilePaths(['/files/{name}.{ext}.txt', '/files/{name}.{ext}', '/accounts/{AccountId}']);

  it('matches and refuses a 256 KiB segment of the shape that made the template regex quadratic', () => {
    const segment = 'a.'.repeat(128 * KiB);
    const refused = timed(() => matchPath([paths.find((p) => p.template === '/files/{name}.{ext}.txt')!], `/files/${segment}`));
    expect(refused.value).toBeUndefined();
    expect(refused.ms).toBeLessThan(SAFETY_BOUND_MS);
    const matched = timed(() => matchPath(paths, `/files/${segment}b.txt`));
    expect(matched.value).toEqual({ template: '/files/{name}.{ext}.txt', params: { name: 'a', ext: `${segment.slice(2)}b` }, raw: { name: 'a', ext: `${segment.slice(2)}b` } });
    expect(matched.ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('matches a path of 64 Ki segments', () => {
    const { value, ms } = timed(() => matchPath(paths, '/accounts/x'.repeat(64 * KiB)));
    expect(value).toBeUndefined();
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });
});

describe('LFI answers', () => {
  it('parses a date-time whose fraction is 256 KiB of zeros and a last digit', () => {
    const { value, ms } = timed(() => parseInstant(`2025-01-01T00:00:00.${'0'.repeat(256 * KiB)}1Z`));
    expect(value).toEqual({ seconds: 1735689600, fraction: `${'0'.repeat(256 * KiB)}1` });
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    expect(parseInstant(`2025-01-01T00:00:00.5${'0'.repeat(256 * KiB)}Z`)).toEqual({ seconds: 1735689600, fraction: '5' });
  });
});

describe('headers and URLs', () => {
  const request = (headers: Record<string, string>): IncomingMessage => ({ headers }) as unknown as IncomingMessage;

  it('reads a 1 MiB Authorization header', () => {
    for (const [header, expected] of [
      [`Bearer ${'x'.repeat(KiB * KiB)}${' '.repeat(16)}y`, undefined],
      [`Bearer${' '.repeat(KiB * KiB)}x`, 'x'],
      [`Bearer x${' '.repeat(KiB * KiB)}`, 'x'],
      [`${'B'.repeat(KiB * KiB)} x`, undefined],
    ] as const) {
      const { value, ms } = timed(() => credentialFor({ type: 'oauth2' } as never, request({ authorization: header }), new URLSearchParams()));
      expect(value).toBe(expected);
      expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });

  it('reads a 1 MiB Cookie header for an API key', () => {
    const { value, ms } = timed(() => credentialFor({ type: 'apiKey', in: 'cookie', name: 'key' } as never, request({ cookie: `${'a=b;'.repeat(KiB * KiB / 4)}key=k` }), new URLSearchParams()));
    expect(value).toBe('k');
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('checks a 1 MiB x-fapi-interaction-id', () => {
    const { value, ms } = timed(() => interactionId(`${'a'.repeat(8)}-${'0'.repeat(KiB * KiB)}`));
    expect(value).not.toContain('0'.repeat(64));
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('trims the slashes a 256 KiB base URL ends with', () => {
    const { value, ms } = timed(() => withoutTrailingSlashes(`https://${'/'.repeat(256 * KiB)}x/${'/'.repeat(256 * KiB)}`));
    expect(value).toBe(`https://${'/'.repeat(256 * KiB)}x`);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    expect(withoutTrailingSlashes('/')).toBe('');
    expect(withoutTrailingSlashes('/a/b//')).toBe('/a/b');
  });
});

describe('signed bodies', () => {
  it('refuses a 1 MiB token that is not a compact JWS at its last character', async () => {
    for (const token of [`${'a'.repeat(KiB * KiB)}..`, `${'a.'.repeat(KiB * KiB / 2)}`, `a.${'b'.repeat(KiB * KiB)}.c!`]) {
      const started = performance.now();
      await expect(verifySignedBody(token, { key: new Uint8Array(32) } as never)).rejects.toMatchObject({ kind: 'jwsMalformed' });
      expect(performance.now() - started).toBeLessThan(SAFETY_BOUND_MS);
    }
  });
});
