/**
 * The device authorization grant (RFC 8628) against a loopback authorization server, on a
 * fake clock: polling by the server's interval, its error codes, expiry, refresh tokens.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { deviceAuthorizationTokens, OAuthError, TokenError, TokenManager, type DeviceAuthorizationOptions, type DeviceUserCode } from '../src/runtime/index.js';
import { CLIENT_ID, DEVICE_CODE, fakeClock, startAuthServer, USER_CODE, type AuthScript, type AuthServer } from './helpers/auth-server.js';

let server: AuthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

async function setUp(script: AuthScript, extra: Partial<DeviceAuthorizationOptions> = {}) {
  const time = fakeClock();
  server = await startAuthServer(script, time.clock);
  const shown: DeviceUserCode[] = [];
  const tokens = deviceAuthorizationTokens({
    clientId: CLIENT_ID,
    deviceAuthorizationUrl: `${server.origin}/device`,
    tokenUrl: `${server.origin}/token`,
    scopes: ['quotes'],
    onUserCode: (code) => {
      shown.push(code);
    },
    now: time.now,
    sleep: time.sleep,
    ...extra,
  });
  return { ...time, server, tokens, shown };
}

describe('device authorization grant', () => {
  it('shows the user code, polls by the interval, slows down when told, and returns the token', async () => {
    const { server, tokens, shown, sleeps, clock } = await setUp({ polls: ['authorization_pending', 'slow_down', 'authorization_pending', 'approve'], interval: 2 });
    const started = clock.now;
    const token = await tokens.authorize();
    expect(token).toEqual({ accessToken: 'at-1', expiresIn: 3600 });
    expect(shown).toEqual([{ userCode: USER_CODE, verificationUri: `${server.origin}/verify`, verificationUriComplete: `${server.origin}/verify?user_code=${USER_CODE}`, expiresIn: 600 }]);
    expect(server.forms('/device')).toEqual([{ client_id: CLIENT_ID, scope: 'quotes' }]);
    expect(server.forms('/token')).toEqual(Array(4).fill({ grant_type: DEVICE_GRANT, device_code: DEVICE_CODE, client_id: CLIENT_ID }));
    // 2 s as the server asks; after slow_down 5 s more for every later poll.
    expect(sleeps).toEqual([2_000, 2_000, 7_000, 7_000]);
    expect(server.pollTimes.map((t) => t - started)).toEqual([2_000, 4_000, 11_000, 18_000]);
    const device = server.requests.find((r) => r.url === '/device')!;
    expect(device.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('waits 5 s between polls when the server names no interval', async () => {
    const { tokens, sleeps } = await setUp({ polls: ['authorization_pending', 'approve'] });
    await tokens.authorize();
    expect(sleeps).toEqual([5_000, 5_000]);
  });

  it('keeps the interval within the bounds given', async () => {
    const { tokens, sleeps } = await setUp({ polls: ['slow_down', 'approve'], interval: 0 }, { pollInterval: { minMs: 3_000, maxMs: 6_000 } });
    await tokens.authorize();
    expect(sleeps).toEqual([3_000, 6_000]);
  });

  it('fails with access_denied when the user refuses, naming the token endpoint', async () => {
    const { server, tokens } = await setUp({ polls: ['authorization_pending', 'access_denied'] });
    const error = await tokens.authorize().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OAuthError);
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ oauthError: 'access_denied', status: 400, endpoint: `${server.origin}/token` });
    expect((error as Error).message).toBe(`device access token request: the user denied the authorization (access_denied from ${server.origin}/token)`);
    expect(server.pollTimes).toHaveLength(2);
  });

  it('fails with expired_token when the server says the code expired', async () => {
    const { server, tokens } = await setUp({ polls: ['expired_token'] });
    const error = await tokens.authorize().catch((e: unknown) => e);
    expect(error).toMatchObject({ oauthError: 'expired_token', endpoint: `${server.origin}/token` });
    expect((error as Error).message).toMatch(/expired before the user approved it \(expired_token from http:\/\/127\.0\.0\.1:\d+\/token\)/);
  });

  it('stops polling at expires_in, without a poll that could only fail', async () => {
    const { server, tokens, clock } = await setUp({ polls: ['authorization_pending'], interval: 5, codeLifetime: 12 });
    const started = clock.now;
    const error = await tokens.authorize().catch((e: unknown) => e);
    expect(error).toMatchObject({ oauthError: 'expired_token' });
    expect((error as Error).message).toContain('the device code expired after 12 s');
    expect(server.pollTimes.map((t) => t - started)).toEqual([5_000, 10_000]);
  });

  it('passes other OAuth errors on with their code and description', async () => {
    const { tokens, server } = await setUp({ polls: ['approve'] }, { clientId: 'someone-else' });
    const error = await tokens.authorize().catch((e: unknown) => e);
    expect(error).toMatchObject({ oauthError: 'invalid_client', status: 401 });
    expect((error as Error).message).toBe(`device authorization request: ${server.origin}/device answered invalid_client: scripted invalid_client (HTTP 401)`);
  });

  it('backs off when the token endpoint is unavailable, and gives up after three failures in a row', async () => {
    const recovered = await setUp({ polls: ['unavailable', 'unavailable', 'approve'], interval: 1 });
    expect(await recovered.tokens.authorize()).toMatchObject({ accessToken: 'at-1' });
    expect(recovered.sleeps).toEqual([1_000, 2_000, 4_000]);
    await server!.close();
    const down = await setUp({ polls: ['unavailable'], interval: 1 });
    const error = await down.tokens.authorize().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, oauthError: undefined });
    expect(down.server.pollTimes).toHaveLength(3);
  });

  it('stops at once when its signal aborts', async () => {
    const controller = new AbortController();
    const { tokens, server } = await setUp(
      { polls: ['authorization_pending'] },
      { signal: controller.signal, onUserCode: () => controller.abort(new Error('the user closed the tool')) },
    );
    await expect(tokens.authorize()).rejects.toThrow('the user closed the tool');
    expect(server.pollTimes).toEqual([]);
  });

  it('refuses a token of another type than Bearer', async () => {
    const time = fakeClock();
    server = await startAuthServer({ polls: ['approve'] }, time.clock);
    const origin = server.origin;
    const tokens = deviceAuthorizationTokens({
      clientId: CLIENT_ID,
      deviceAuthorizationUrl: `${origin}/device`,
      tokenUrl: `${origin}/token`,
      onUserCode: () => {},
      now: time.now,
      sleep: time.sleep,
      // A token endpoint that issues DPoP-bound tokens.
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        if (!url.endsWith('/token')) return response;
        const body = (await response.json()) as Record<string, unknown>;
        return Response.json({ ...body, token_type: 'DPoP' });
      },
    });
    await expect(tokens.authorize()).rejects.toThrow(`device access token request: ${origin}/token issued a token of type "DPoP"; only Bearer tokens can be sent`);
  });
});

describe('device tokens over time', () => {
  it('refreshes with the refresh token when the token expires, without asking the user again', async () => {
    const { server, tokens, clock, shown } = await setUp({ polls: ['approve'], tokenLifetime: 600 });
    const manager = new TokenManager(tokens, { now: () => clock.now });
    const security = [{ device: ['quotes'] }];
    expect(await manager.token(security)).toBe('at-1');
    clock.now += 560_000;
    expect(await manager.token(security)).toBe('at-2');
    expect(server.forms('/token').at(-1)).toEqual({ grant_type: 'refresh_token', refresh_token: 'rt-1', client_id: CLIENT_ID });
    expect(shown).toHaveLength(1);
    // After a 401 too.
    expect(await manager.token(security, undefined, 'at-2')).toBe('at-3');
    expect(server.forms('/token').at(-1)).toMatchObject({ refresh_token: 'rt-2' });
  });

  it('serves every scope set from one approval, and one refresh for all of them', async () => {
    const { server, tokens, clock } = await setUp({ polls: ['approve'], tokenLifetime: 600 });
    const manager = new TokenManager(tokens, { now: () => clock.now });
    const read = [{ device: ['quotes'] }];
    const write = [{ device: ['quotes', 'trades'] }];
    expect(await Promise.all([manager.token(read), manager.token(write)])).toEqual(['at-1', 'at-1']);
    clock.now += 560_000;
    expect(await manager.token(read)).toBe('at-2');
    expect(await manager.token(write)).toBe('at-2');
    expect(server.forms('/device')).toHaveLength(1);
    expect(server.issued).toEqual(['at-1', 'at-2']);
  });

  it('asks the user again when the refresh token no longer works', async () => {
    const { server, tokens, clock, shown } = await setUp({ polls: ['approve'], tokenLifetime: 600 });
    await tokens.authorize();
    server.revokeRefreshTokens();
    clock.now += 600_000;
    expect(await tokens.getToken({ scheme: 'device', scopes: ['quotes'], reason: 'expiring' })).toMatchObject({ accessToken: 'at-2' });
    expect(shown).toHaveLength(2);
    expect(server.forms('/device')).toHaveLength(2);
  });

  it('runs the grant again on expiry when the server issued no refresh token', async () => {
    const { server, tokens, clock, shown } = await setUp({ polls: ['approve'], tokenLifetime: 600, refreshTokens: false });
    await tokens.authorize();
    clock.now += 600_000;
    expect(await tokens.getToken({ scheme: 'device', scopes: [], reason: 'expiring' })).toMatchObject({ accessToken: 'at-2' });
    expect(shown).toHaveLength(2);
    expect(server.forms('/token').every((f) => f['grant_type'] === DEVICE_GRANT)).toBe(true);
  });

  it('shares one grant between requests that come while it runs', async () => {
    const { server, tokens } = await setUp({ polls: ['authorization_pending', 'approve'] });
    const [a, b] = await Promise.all([tokens.authorize(), tokens.getToken({ scheme: 'device', scopes: ['quotes'], reason: 'initial' })]);
    expect(a.accessToken).toBe('at-1');
    expect(b.accessToken).toBe('at-1');
    expect(server.forms('/device')).toHaveLength(1);
  });
});
