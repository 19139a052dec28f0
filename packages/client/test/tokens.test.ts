import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../src/generated/v2.2/index.js';
import { ApiError, readAll, TokenError, TokenManager, type TokenProvider, type TokenRequest } from '../src/runtime/index.js';
import { twoYearHistory } from './helpers/fixtures.js';
import { PREFIX, transactionsHandler } from './helpers/paging-server.js';
import { startServer, type TestServer } from './helpers/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An authorisation server double: numbered tokens, each valid for `lifetimeMs` on a shared clock. */
function authority(clock: { now: number }, lifetimeMs = 600_000) {
  const expiry = new Map<string, number>();
  const requests: TokenRequest[] = [];
  const provider: TokenProvider = {
    async getToken(request) {
      requests.push(request);
      const token = `tok-${requests.length}`;
      expiry.set(token, clock.now + lifetimeMs);
      return { accessToken: token, expiresIn: lifetimeMs / 1000 };
    },
  };
  const valid = (authorization: string | undefined): boolean => {
    const token = authorization?.replace(/^Bearer /, '');
    const until = token === undefined ? undefined : expiry.get(token);
    return until !== undefined && clock.now < until;
  };
  return { provider, requests, valid, revoke: (token: string) => expiry.delete(token) };
}

describe('tokens during a long paged read', () => {
  it('refreshes before expiry when the token runs out half-way through a 30-page read (no 401 ever)', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const auth = authority(clock);
    const history = twoYearHistory(new Date(clock.now), 5).slice(0, 3000);
    let origin = '';
    let unauthorized = 0;
    server = await startServer(
      transactionsHandler({
        origin: () => origin,
        accountId: 'acc',
        records: history,
        pageSize: 100,
        before: (request) => {
          // Each page takes 40 s of (simulated) time: 30 pages span 20 minutes, two token lifetimes.
          const ok = auth.valid(request.headers['authorization'] as string | undefined);
          clock.now += 40_000;
          if (!ok) {
            unauthorized++;
            return { status: 401 };
          }
          return undefined;
        },
      }),
    );
    origin = server.origin;
    const client = createClient({ origin, tokens: auth.provider, now: () => clock.now });
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'acc' } });
    expect(server.requests).toHaveLength(30);
    expect(got.map((t) => t.TransactionId)).toEqual(history.map((t) => t.TransactionId));
    expect(unauthorized).toBe(0);
    expect(auth.requests.map((r) => r.reason)).toEqual(['initial', 'expiring', 'expiring']);
    expect(auth.requests[0]).toMatchObject({ scheme: 'UserOAuth2Security', scopes: ['openid', 'accounts'] });
    // The token changed mid-read, before the first one expired.
    const used = [...new Set(server.requests.map((r) => r.headers['authorization']))];
    expect(used).toEqual(['Bearer tok-1', 'Bearer tok-2', 'Bearer tok-3']);
  });

  it('recovers from a token revoked mid-read: one 401, one refresh, the same page again', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const auth = authority(clock);
    const history = twoYearHistory(new Date(clock.now), 1).slice(0, 500);
    let origin = '';
    server = await startServer(
      transactionsHandler({
        origin: () => origin,
        accountId: 'acc',
        records: history,
        pageSize: 100,
        before: (request, index) => {
          if (index === 2) auth.revoke('tok-1');
          return auth.valid(request.headers['authorization'] as string | undefined) ? undefined : { status: 401 };
        },
      }),
    );
    origin = server.origin;
    const client = createClient({ origin, tokens: auth.provider, now: () => clock.now });
    const got = await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'acc' } });
    expect(got.map((t) => t.TransactionId)).toEqual(history.map((t) => t.TransactionId));
    expect(server.requests).toHaveLength(6);
    expect(server.requests[2]!.url).toBe(server.requests[3]!.url);
    expect(auth.requests.map((r) => r.reason)).toEqual(['initial', 'rejected']);
  });
});

describe('401 handling', () => {
  const accounts = () => ({ Data: { Account: [] }, Links: { Self: `${server!.origin}${PREFIX}/accounts` }, Meta: { TotalPages: 0 } });

  it('refreshes once and repeats the call once after a 401', async () => {
    const clock = { now: 0 };
    const auth = authority(clock);
    server = await startServer((_, i) => (i === 0 ? { status: 401 } : { body: accounts() }));
    const client = createClient({ origin: server.origin, tokens: auth.provider, now: () => clock.now });
    const result = await client.GetAccounts();
    expect(result.status).toBe(200);
    expect(server.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer tok-1', 'Bearer tok-2']);
    expect(auth.requests.map((r) => r.reason)).toEqual(['initial', 'rejected']);
  });

  it('a second 401 is final: ApiError 401 after exactly two requests', async () => {
    const clock = { now: 0 };
    const auth = authority(clock);
    server = await startServer(() => ({ status: 401 }));
    const client = createClient({ origin: server.origin, tokens: auth.provider, now: () => clock.now });
    await expect(client.GetAccounts()).rejects.toMatchObject({ status: 401 });
    expect(server.requests).toHaveLength(2);
    expect(auth.requests).toHaveLength(2);
  });

  it('without a token provider sends no Authorization and does not retry a 401', async () => {
    server = await startServer(() => ({ status: 401 }));
    const client = createClient({ origin: server.origin });
    await expect(client.GetAccounts()).rejects.toBeInstanceOf(ApiError);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers['authorization']).toBeUndefined();
  });
});

describe('TokenManager', () => {
  const security = [{ UserOAuth2Security: ['openid', 'accounts'] }];

  it('shares one token request between concurrent calls', async () => {
    let calls = 0;
    const manager = new TokenManager({ getToken: async () => ({ accessToken: `t${++calls}`, expiresIn: 600 }) }, { now: () => 0 });
    const tokens = await Promise.all([manager.token(security), manager.token(security), manager.token(security)]);
    expect(tokens).toEqual(['t1', 't1', 't1']);
    expect(calls).toBe(1);
  });

  it('keeps tokens apart per scheme and scopes', async () => {
    const asked: string[] = [];
    const manager = new TokenManager({ getToken: async (r) => (asked.push(r.scheme ?? ''), `${r.scheme}-token`) }, { now: () => 0 });
    expect(await manager.token([{ TPPOAuth2Security: ['accounts'] }])).toBe('TPPOAuth2Security-token');
    expect(await manager.token(security)).toBe('UserOAuth2Security-token');
    expect(await manager.token(security)).toBe('UserOAuth2Security-token');
    expect(asked).toEqual(['TPPOAuth2Security', 'UserOAuth2Security']);
  });

  it('assumes a 10-minute lifetime when the provider does not say, refreshing a minute early', async () => {
    const clock = { now: 0 };
    const reasons: string[] = [];
    const manager = new TokenManager({ getToken: async (r) => (reasons.push(r.reason), `t${reasons.length}`) }, { now: () => clock.now });
    await manager.token(security);
    clock.now = 539_000;
    expect(await manager.token(security)).toBe('t1');
    clock.now = 540_000;
    expect(await manager.token(security)).toBe('t2');
    expect(reasons).toEqual(['initial', 'expiring']);
  });

  it('ends a wait when its signal aborts, keeps the request for the callers still waiting, and forgets it once none is', async () => {
    const answers: Array<(token: string) => void> = [];
    const manager = new TokenManager({ getToken: () => new Promise<string>((resolve) => answers.push(resolve)) }, { now: () => 0 });
    const impatient = new AbortController();
    const first = manager.token(security, impatient.signal);
    const patient = manager.token(security, new AbortController().signal);
    impatient.abort(new Error('no more waiting'));
    await expect(first).rejects.toThrow('no more waiting');
    // Still one request: the other caller waits for it, and gets its answer.
    expect(answers).toHaveLength(1);
    answers[0]!('t1');
    expect(await patient).toBe('t1');
    expect(manager.current(security)).toBe('t1');

    // Nobody left waiting: the next call asks again rather than join a request that may never end.
    const hanging = new TokenManager({ getToken: () => new Promise<string>((resolve) => answers.push(resolve)) }, { now: () => 0 });
    const gaveUp = new AbortController();
    const waiting = hanging.token(security, gaveUp.signal);
    gaveUp.abort(new Error('timed out'));
    await expect(waiting).rejects.toThrow('timed out');
    const again = hanging.token(security);
    expect(answers).toHaveLength(3);
    answers[2]!('t3');
    expect(await again).toBe('t3');
    // A late answer of the forgotten request never replaces the newer token.
    answers[1]!('t2');
    await new Promise((r) => setTimeout(r, 0));
    expect(await hanging.token(security)).toBe('t3');
  });

  it('rejects at once with a signal that has already aborted, without asking the provider', async () => {
    let asked = 0;
    const manager = new TokenManager({ getToken: async () => (asked++, 't') }, { now: () => 0 });
    await expect(manager.token(security, AbortSignal.abort(new Error('already gone')))).rejects.toThrow('already gone');
    expect(asked).toBe(0);
    expect(manager.current(security)).toBeUndefined();
  });

  it('refuses an empty or already-expired token from the provider', async () => {
    await expect(new TokenManager({ getToken: async () => '' }, { now: () => 0 }).token(security)).rejects.toBeInstanceOf(TokenError);
    await expect(new TokenManager({ getToken: async () => ({ accessToken: 'x', expiresAt: 5 }) }, { now: () => 10 }).token(security)).rejects.toThrow(/already expired/);
  });
});
