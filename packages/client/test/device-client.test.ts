/**
 * The generated client of the OpenAPI 3.2 test document carries its `device` scheme's
 * deprecation, metadata URL and device flow, and a device-grant token reaches `streamQuotes`.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deviceAuthorizationTokens, OAuthError, TokenError, type ClientOptions, type SecuritySchemeInfo } from '../src/runtime/index.js';
import { CLIENT_ID, fakeClock, startAuthServer, type AuthServer } from './helpers/auth-server.js';
import { generateInto, importClient, type GeneratedOutput } from './helpers/generated-client.js';
import { collect, MARKET_FEED_SPEC, quote, type MarketFeedClient } from './helpers/market-feed.js';

interface DeviceFeedModule {
  securitySchemes: Readonly<Record<string, SecuritySchemeInfo>>;
  createClient(options: ClientOptions): MarketFeedClient;
}

let output: GeneratedOutput;
let feed: DeviceFeedModule;
let server: AuthServer | undefined;

beforeAll(async () => {
  output = await generateInto(MARKET_FEED_SPEC, 'device-client');
  feed = await importClient<DeviceFeedModule>(output);
});
afterAll(async () => {
  await output?.remove();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the generated client of an OpenAPI 3.2 spec with a device flow', () => {
  it('carries the device scheme\'s deprecation, metadata URL and flow; the bearer scheme as before', () => {
    expect(feed.securitySchemes['device']).toEqual({
      type: 'oauth2',
      deprecated: true,
      oauth2MetadataUrl: 'https://auth.example.test/.well-known/oauth-authorization-server',
      flows: { deviceAuthorization: { deviceAuthorizationUrl: 'https://auth.example.test/device', tokenUrl: 'https://auth.example.test/token', scopes: ['quotes'] } },
    });
    expect(feed.securitySchemes['bearer']).toEqual({ type: 'http', scheme: 'bearer' });
  });

  it('marks the scheme deprecated in doc comments only', async () => {
    const text = await readFile(path.join(output.dir, 'client/index.ts'), 'utf8');
    expect(text).toContain("  /** @deprecated The spec marks this security scheme as deprecated. */\n  device: { type: 'oauth2', deprecated: true,");
    expect(text).toContain('Security scheme `device` is deprecated in the spec: prefer another of its alternatives.');
  });

  it('calls streamQuotes with the token of the device grant, asking for the flow\'s scopes', async () => {
    const time = fakeClock();
    const events = `event: quote\nid: 1\ndata: ${JSON.stringify(quote(1))}\n\n`;
    server = await startAuthServer(
      {
        polls: ['authorization_pending', 'approve'],
        api: (request) =>
          request.url === '/feed/quotes/live' && request.headers['authorization'] === 'Bearer at-1'
            ? { headers: { 'content-type': 'text/event-stream' }, body: events }
            : { status: 401, body: { error: 'invalid_token' } },
      },
      time.clock,
    );
    const origin = server.origin;
    const shown: string[] = [];
    const tokens = deviceAuthorizationTokens({
      clientId: CLIENT_ID,
      // The spec's scopes; the endpoints of this test's server.
      scheme: feed.securitySchemes['device']!,
      deviceAuthorizationUrl: `${origin}/device`,
      tokenUrl: `${origin}/token`,
      onUserCode: ({ userCode }) => {
        shown.push(userCode);
      },
      now: time.now,
      sleep: time.sleep,
    });
    const client = feed.createClient({ baseUrl: `${origin}/feed`, tokens, now: time.now, sleep: time.sleep, retry: false });
    const result = await client.streamQuotes();
    expect(result.status).toBe(200);
    expect(await collect(result.body)).toEqual([{ event: 'quote', id: '1', data: JSON.stringify(quote(1)) }]);
    expect(shown).toEqual(['WDJB-MJHT']);
    expect(server.forms('/device')).toEqual([{ client_id: CLIENT_ID, scope: 'quotes' }]);
  });

  it('fails the call with a TokenError whose cause is the OAuth error when the user denies', async () => {
    const time = fakeClock();
    server = await startAuthServer({ polls: ['access_denied'], api: () => ({ status: 500, body: 'not reached' }) }, time.clock);
    const origin = server.origin;
    const tokens = deviceAuthorizationTokens({
      clientId: CLIENT_ID,
      deviceAuthorizationUrl: `${origin}/device`,
      tokenUrl: `${origin}/token`,
      onUserCode: () => {},
      now: time.now,
      sleep: time.sleep,
    });
    const client = feed.createClient({ baseUrl: `${origin}/feed`, tokens, now: time.now, sleep: time.sleep, retry: false });
    const error = await client.streamQuotes().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect((error as Error).message).toContain('access_denied');
    expect((error as Error).cause).toBeInstanceOf(OAuthError);
    expect(server.requests.some((r) => r.url.startsWith('/feed'))).toBe(false);
  });
});
