/**
 * Long adversarial input against the client's own readers of what servers send: each answers
 * correctly within a generous safety bound, where the readings they replace took minutes.
 * (The wire package's tests cover the readers the client shares with the server.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { authorizationServerMetadata, OAuthError } from '../src/runtime/index.js';
import { contentCodings, decodersOf, MAX_CODINGS } from '../src/runtime/content-codings.js';
import { sameIssuer } from '../src/runtime/oauth-metadata.js';
import { fakeClock, startAuthServer, type AuthScript, type AuthServer } from './helpers/auth-server.js';

const SAFETY_BOUND_MS = 2000;
const KiB = 1024;

let server: AuthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: Partial<AuthScript>): Promise<AuthServer> {
  server = await startAuthServer({ polls: ['approve'], ...script }, fakeClock().clock);
  return server;
}

describe('authorization server metadata', () => {
  it('compares a 256 KiB issuer of slashes with the URL over loopback', async () => {
    const slashes = '/'.repeat(256 * KiB);
    const wrong = await start({ metadata: (origin) => ({ body: { issuer: `${origin}${slashes}x`, token_endpoint: `${origin}/token` } }) });
    let started = performance.now();
    await expect(authorizationServerMetadata(wrong.metadataUrl)).rejects.toThrow(OAuthError);
    expect(performance.now() - started).toBeLessThan(SAFETY_BOUND_MS);
    await wrong.close();
    const right = await start({ metadata: (origin) => ({ body: { issuer: `${origin}${slashes}`, token_endpoint: `${origin}/token` } }) });
    started = performance.now();
    expect((await authorizationServerMetadata(right.metadataUrl)).issuer).toBe(`${right.origin}${slashes}`);
    expect(performance.now() - started).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('compares issuers trailing slashes aside', () => {
    expect(sameIssuer('https://a.example/', 'https://a.example')).toBe(true);
    expect(sameIssuer('https://a.example//x//', 'https://a.example//x')).toBe(true);
    expect(sameIssuer('https://a.example/x', 'https://a.example')).toBe(false);
  });
});

describe('response headers', () => {
  it('reads a 1 MiB Content-Encoding list', () => {
    const started = performance.now();
    expect(contentCodings(`${'identity, '.repeat(KiB * KiB / 10)}gzip`)).toEqual(['gzip']);
    expect(performance.now() - started).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('decodes at most MAX_CODINGS codings, as undici does, and hands a longer chain on as it came', () => {
    expect(decodersOf(contentCodings(Array(MAX_CODINGS).fill('gzip').join(', ')))).toHaveLength(MAX_CODINGS);
    const chain = contentCodings(Array(100_000).fill('gzip').join(', '));
    expect(chain).toHaveLength(100_000);
    expect(decodersOf(chain)).toBeUndefined();
  });
});
