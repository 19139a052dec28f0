import { describe, expect, it } from 'vitest';
import { AuthError } from '../src/auth/errors.js';
import { ACCESS_TOKEN_TTL_SECONDS, bearerToken } from '../src/auth/tokens.js';
import { authWithClock, START } from './auth.fixtures.js';

describe('bearer tokens', () => {
  it('are opaque, random and carry their scopes and a 10-minute life', () => {
    const { auth } = authWithClock();
    const a = auth.tokens.issue({ scopes: ['openid', 'accounts'], consentId: 'c-1' });
    const b = auth.tokens.issue({ scopes: ['openid', 'accounts'], consentId: 'c-1' });
    expect(a.accessToken).not.toBe(b.accessToken);
    expect(a.accessToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.accessToken).not.toContain('c-1');
    expect(a).toMatchObject({ tokenType: 'Bearer', expiresIn: 600, scope: 'openid accounts', consentId: 'c-1' });
    expect(ACCESS_TOKEN_TTL_SECONDS).toBe(600);
    expect(Date.parse(a.expiresAt) - Date.parse(a.issuedAt)).toBe(600_000);
    expect(a.issuedAt).toBe(new Date(START).toISOString());
  });

  it('expire after 10 minutes on the injected clock', () => {
    const { auth, clock } = authWithClock();
    const token = auth.tokens.issue({ scopes: ['accounts'] });
    expect(auth.tokens.check(token.accessToken).ok).toBe(true);
    clock.advance(600_000 - 1);
    expect(auth.tokens.check(token.accessToken).ok).toBe(true);
    clock.advance(1);
    expect(auth.tokens.check(token.accessToken)).toEqual({ ok: false, reason: 'expired', status: 401 });
    // Once found expired, it stays unknown.
    clock.set(START);
    expect(auth.tokens.check(token.accessToken)).toEqual({ ok: false, reason: 'unknown', status: 401 });
  });

  it('are checked for scopes and read from an Authorization header', () => {
    const { auth } = authWithClock();
    const token = auth.tokens.issue({ scopes: ['accounts'] });
    expect(auth.tokens.check(`Bearer ${token.accessToken}`, ['accounts']).ok).toBe(true);
    expect(auth.tokens.check(token.accessToken, ['openid', 'accounts'])).toEqual({
      ok: false,
      reason: 'insufficient_scope',
      status: 403,
      code: 'AccessToken.InvalidScope',
      missingScopes: ['openid'],
    });
    expect(auth.tokens.check(undefined)).toEqual({ ok: false, reason: 'missing', status: 401 });
    expect(auth.tokens.check('Bearer not-a-token')).toEqual({ ok: false, reason: 'unknown', status: 401 });
    expect(bearerToken('bearer abc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeUndefined();
  });

  it('can be revoked, and refreshed once per refresh token', () => {
    const { auth, clock } = authWithClock();
    const token = auth.tokens.issue({ scopes: ['openid', 'accounts'], clientId: 'tpp-1' });
    expect(auth.tokens.revoke(token.accessToken)).toBe(true);
    expect(auth.tokens.check(token.accessToken).ok).toBe(false);
    clock.advance(30 * 60_000);
    const fresh = auth.refresh(token.refreshToken);
    expect(fresh.scopes).toEqual(['openid', 'accounts']);
    expect(fresh.clientId).toBe('tpp-1');
    expect(auth.tokens.check(fresh.accessToken).ok).toBe(true);
    expect(() => auth.refresh(token.refreshToken)).toThrow(AuthError);
  });

  it('cannot be refreshed once their consent has ended', () => {
    const { auth } = authWithClock();
    const { consent } = auth.consents.create({ permissions: ['ReadAccountsBasic'], accountIds: ['acc-1'] });
    const token = auth.tokens.issue({ scopes: ['openid', 'accounts'], consentId: consent.Data.ConsentId });
    auth.consents.setStatus(consent.Data.ConsentId, 'Revoked', 'LFI');
    expect(() => auth.refresh(token.refreshToken)).toThrow(/has ended/);
  });
});
