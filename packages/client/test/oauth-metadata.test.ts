/**
 * Authorization server metadata (RFC 8414): the endpoints read from it, checked, and used by
 * the device grant when the scheme names only its `oauth2MetadataUrl`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { authorizationServerMetadata, deviceAuthorizationTokens, OAuthError, TokenError } from '../src/runtime/index.js';
import { expectedIssuer } from '../src/runtime/oauth-metadata.js';
import { CLIENT_ID, fakeClock, startAuthServer, type AuthScript, type AuthServer } from './helpers/auth-server.js';

let server: AuthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: Partial<AuthScript> = {}) {
  const time = fakeClock();
  server = await startAuthServer({ polls: ['approve'], ...script }, time.clock);
  return { ...time, server };
}

describe('authorizationServerMetadata', () => {
  it('reads the issuer and the endpoints', async () => {
    const { server } = await start();
    const metadata = await authorizationServerMetadata(server.metadataUrl);
    expect(metadata).toMatchObject({ issuer: server.origin, tokenEndpoint: `${server.origin}/token`, deviceAuthorizationEndpoint: `${server.origin}/device` });
    expect(metadata.document['grant_types_supported']).toContain('refresh_token');
    expect(server.requests[0]!.headers['accept']).toBe('application/json');
  });

  it('leaves the device endpoint undefined when the server offers no device grant', async () => {
    const { server } = await start({ metadata: (origin) => ({ body: { issuer: origin, token_endpoint: `${origin}/token` } }) });
    expect((await authorizationServerMetadata(server.metadataUrl)).deviceAuthorizationEndpoint).toBeUndefined();
  });

  const broken: Array<[string, (origin: string) => { status?: number; body: unknown }, RegExp]> = [
    ['not JSON', () => ({ body: '<html>login</html>' }), /answered HTTP 200 without a JSON object/],
    ['an error status', () => ({ status: 404, body: { error: 'not_found' } }), /answered HTTP 404/],
    ['no token_endpoint', (origin) => ({ body: { issuer: origin } }), /token_endpoint must be an http\(s\) URL \(a string\), and it is missing/],
    ['a token_endpoint that is not a string', (origin) => ({ body: { issuer: origin, token_endpoint: 42 } }), /token_endpoint must be an http\(s\) URL/],
    ['a device endpoint that is not a URL', (origin) => ({ body: { issuer: origin, token_endpoint: `${origin}/token`, device_authorization_endpoint: 'device' } }), /device_authorization_endpoint must be an http\(s\) URL/],
    ['no issuer', (origin) => ({ body: { token_endpoint: `${origin}/token` } }), /issuer must be a non-empty string/],
    ['another issuer', () => ({ body: { issuer: 'https://evil.example', token_endpoint: 'https://evil.example/token' } }), /issuer "https:\/\/evil\.example" is not the one the URL belongs to/],
  ];
  for (const [what, metadata, message] of broken) {
    it(`refuses metadata with ${what}, naming the URL`, async () => {
      const { server } = await start({ metadata });
      const error = await authorizationServerMetadata(server.metadataUrl).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OAuthError);
      expect(error).toMatchObject({ endpoint: server.metadataUrl });
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).toContain(server.metadataUrl);
    });
  }

  it('fails with the URL when nothing answers', async () => {
    const { server } = await start();
    const url = server.metadataUrl;
    await server.close();
    await expect(authorizationServerMetadata(url)).rejects.toThrow(`authorization server metadata: request to ${url} failed`);
  });

  it('works out the issuer of the well-known URL forms', () => {
    expect(expectedIssuer('https://a.example/.well-known/oauth-authorization-server')).toBe('https://a.example');
    expect(expectedIssuer('https://a.example/.well-known/oauth-authorization-server/tenant/1')).toBe('https://a.example/tenant/1');
    expect(expectedIssuer('https://a.example/tenant/.well-known/openid-configuration')).toBe('https://a.example/tenant');
    expect(expectedIssuer('https://a.example/metadata.json')).toBeUndefined();
  });
});

describe('the device grant with discovered endpoints', () => {
  it('reads the endpoints from the scheme\'s oauth2MetadataUrl once, and runs the grant with them', async () => {
    const { server, now, sleep, clock } = await start({ tokenLifetime: 600 });
    const tokens = deviceAuthorizationTokens({
      clientId: CLIENT_ID,
      scheme: { type: 'oauth2', oauth2MetadataUrl: server.metadataUrl },
      onUserCode: () => {},
      now,
      sleep,
    });
    expect(await tokens.endpoints()).toEqual({ deviceAuthorizationUrl: `${server.origin}/device`, tokenUrl: `${server.origin}/token`, refreshUrl: `${server.origin}/token` });
    expect(await tokens.authorize()).toMatchObject({ accessToken: 'at-1' });
    clock.now += 600_000;
    expect(await tokens.getToken({ scheme: 'device', scopes: [], reason: 'expiring' })).toMatchObject({ accessToken: 'at-2' });
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /.well-known/oauth-authorization-server', 'POST /device', 'POST /token', 'POST /token']);
  });

  it('prefers the URLs of the scheme\'s flow, and an explicit metadata URL over them', async () => {
    const { server, now, sleep } = await start();
    const scheme = {
      type: 'oauth2',
      oauth2MetadataUrl: 'http://127.0.0.1:9/.well-known/oauth-authorization-server',
      flows: { deviceAuthorization: { deviceAuthorizationUrl: 'https://flow.example/device', tokenUrl: 'https://flow.example/token', refreshUrl: 'https://flow.example/refresh' } },
    } as const;
    const fromFlow = deviceAuthorizationTokens({ clientId: CLIENT_ID, scheme, onUserCode: () => {}, now, sleep });
    expect(await fromFlow.endpoints()).toEqual({ deviceAuthorizationUrl: 'https://flow.example/device', tokenUrl: 'https://flow.example/token', refreshUrl: 'https://flow.example/refresh' });
    const discovered = deviceAuthorizationTokens({ clientId: CLIENT_ID, scheme, metadataUrl: server.metadataUrl, onUserCode: () => {}, now, sleep });
    expect(await discovered.endpoints()).toMatchObject({ deviceAuthorizationUrl: `${server.origin}/device`, tokenUrl: `${server.origin}/token` });
    expect(server.requests).toHaveLength(1);
  });

  it('says so when the metadata offers no device grant, and asks again on the next request', async () => {
    const { server, now, sleep } = await start({ metadata: (origin) => ({ body: { issuer: origin, token_endpoint: `${origin}/token` } }) });
    const tokens = deviceAuthorizationTokens({ clientId: CLIENT_ID, metadataUrl: server.metadataUrl, onUserCode: () => {}, now, sleep });
    const error = await tokens.authorize().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect((error as Error).message).toBe(`authorization server metadata at ${server.metadataUrl} names no device_authorization_endpoint: the server does not offer the device authorization grant`);
    await tokens.authorize().catch(() => undefined);
    expect(server.requests).toHaveLength(2);
  });

  it('fails clearly when it knows no endpoints at all', async () => {
    const tokens = deviceAuthorizationTokens({ clientId: CLIENT_ID, scheme: { type: 'oauth2' }, onUserCode: () => {} });
    await expect(tokens.authorize()).rejects.toThrow(/no device authorization endpoint and token endpoint known/);
  });
});
