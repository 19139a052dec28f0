import { Consent, ConsentList } from '@bank-data-sharing/validators/v2.2';
import { describe, expect, it } from 'vitest';
import { STATUS_TRANSITIONS, TERMINAL_STATUSES } from '../src/auth/consents.js';
import { AuthError } from '../src/auth/errors.js';
import { OPERATION_PERMISSIONS, permitsOperation, type DataOperationId } from '../src/auth/permissions.js';
import { authWithClock, START } from './auth.fixtures.js';

const expectAuthError = (run: () => unknown, reason: string, status: number, code?: string) => {
  try {
    run();
    expect.unreachable();
  } catch (error) {
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).reason).toBe(reason);
    expect((error as AuthError).status).toBe(status);
    expect((error as AuthError).code).toBe(code);
  }
};

describe('consents', () => {
  it('are created valid against the Consent schema, with a base consent id', () => {
    const { auth } = authWithClock();
    const first = auth.consents.create({ permissions: ['ReadAccountsBasic', 'ReadBalances'], accountIds: ['acc-1', 'acc-2'] });
    const id = first.consent.Data.ConsentId;
    expect(Consent.safeParse(first.consent).success).toBe(true);
    expect(first.consent.Data).toMatchObject({ BaseConsentId: id, Status: 'Authorized', CreationDateTime: new Date(START).toISOString() });
    expect(first.accountIds).toEqual(['acc-1', 'acc-2']);
    expect(first.consent.Links.Self).toMatch(new RegExp(`^http://localhost/open-finance/account-information/v2\\.2/account-access-consents/${id}$`));
    const renewal = auth.consents.create({ permissions: ['ReadAccountsDetail'], accountIds: ['acc-1'], baseConsentId: id });
    auth.consents.create({ permissions: ['ReadAccountsDetail'], accountIds: ['acc-9'] });
    const chain = auth.consents.byBaseConsentId(id);
    expect(ConsentList.safeParse(chain).success).toBe(true);
    expect(chain.map((c) => c.Data.ConsentId)).toEqual([id, renewal.consent.Data.ConsentId]);
    expect(auth.consents.byBaseConsentId('nobody')).toEqual([]);
  });

  it('refuse to be created invalid, and are copied out (callers cannot change the store)', () => {
    const { auth } = authWithClock();
    expectAuthError(() => auth.consents.create({ permissions: [], accountIds: ['acc-1'] }), 'InvalidConsent', 400, 'Consent.Invalid');
    expectAuthError(() => auth.consents.create({ permissions: ['ReadBalances'], accountIds: [] }), 'InvalidConsent', 400, 'Consent.Invalid');
    expectAuthError(
      () => auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'], expirationDateTime: '2025-01-01T00:00:00-00:00' }),
      'InvalidConsent',
      400,
      'Consent.Invalid',
    );
    const { consent } = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'] });
    consent.Data.Status = 'Revoked';
    expect(auth.consents.get(consent.Data.ConsentId).consent.Data.Status).toBe('Authorized');
    expectAuthError(() => auth.consents.get('missing'), 'ConsentNotFound', 404, undefined);
  });

  it('follow the transition table; Revoked and Expired are terminal', () => {
    const { auth } = authWithClock();
    expect(TERMINAL_STATUSES).toEqual(['Revoked', 'Expired']);
    for (const terminal of TERMINAL_STATUSES) expect(STATUS_TRANSITIONS[terminal]).toEqual([]);
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'], status: 'AwaitingAuthorization' }).consent.Data.ConsentId;
    expect(auth.consents.setStatus(id, 'Authorized').consent.Data.Status).toBe('Authorized');
    expect(auth.consents.setStatus(id, 'Suspended').consent.Data.Status).toBe('Suspended');
    expect(auth.consents.setStatus(id, 'Authorized').consent.Data.Status).toBe('Authorized');
    const revoked = auth.consents.setStatus(id, 'Revoked', 'LFI.InitiatedByUser').consent;
    expect(revoked.Data).toMatchObject({ Status: 'Revoked', RevokedBy: 'LFI.InitiatedByUser' });
    for (const status of ['Authorized', 'Suspended', 'Revoked', 'Expired'] as const) {
      expectAuthError(() => auth.consents.setStatus(id, status), 'InvalidTransition', 400, 'Consent.BusinessRuleViolation');
    }
  });

  it('expire at ExpirationDateTime on the injected clock, and stay expired', () => {
    const { auth, clock } = authWithClock();
    const expiresAt = new Date(START + 3_600_000).toISOString();
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'], expirationDateTime: expiresAt }).consent.Data.ConsentId;
    clock.advance(3_600_000 - 1);
    expect(auth.consents.get(id).consent.Data.Status).toBe('Authorized');
    clock.advance(1);
    const expired = auth.consents.get(id).consent;
    expect(expired.Data).toMatchObject({ Status: 'Expired', StatusUpdateDateTime: expiresAt });
    expect(Consent.safeParse(expired).success).toBe(true);
    expectAuthError(() => auth.consents.setStatus(id, 'Authorized'), 'InvalidTransition', 400, 'Consent.BusinessRuleViolation');
    expectAuthError(() => auth.consents.patch(id, { Data: { Status: 'Revoked' } }), 'InvalidTransition', 400, 'Consent.BusinessRuleViolation');
  });

  it('are revoked and subscribed to by the PATCH body', () => {
    const { auth, clock } = authWithClock();
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'] }).consent.Data.ConsentId;
    const subscribed = auth.consents.patch(id, { Subscription: { Webhook: { Url: 'https://tpp.example.com/hooks', IsActive: true } } }).consent;
    expect(subscribed.Subscription).toEqual({ Webhook: { Url: 'https://tpp.example.com/hooks', IsActive: true } });
    // Members not sent are kept: switching notifications off keeps the URL.
    const paused = auth.consents.patch(id, { Subscription: { Webhook: { IsActive: false } } }).consent;
    expect(paused.Subscription).toEqual({ Webhook: { Url: 'https://tpp.example.com/hooks', IsActive: false } });
    clock.advance(5_000);
    const revoked = auth.consents.patch(id, { Data: { Status: 'Revoked' } }).consent;
    expect(revoked.Data).toMatchObject({ Status: 'Revoked', RevokedBy: 'TPP', StatusUpdateDateTime: new Date(START + 5_000).toISOString() });
    expect(Consent.safeParse(revoked).success).toBe(true);
  });

  it('refuse malformed patch bodies, and apply a refused patch not at all', () => {
    const { auth } = authWithClock();
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'] }).consent.Data.ConsentId;
    expectAuthError(() => auth.consents.patch(id, { Data: { Status: 'Authorized' } }), 'InvalidBody', 400, 'Body.InvalidFormat');
    expectAuthError(() => auth.consents.patch(id, { Webhook: { Url: 'x' } }), 'InvalidBody', 400, 'Body.InvalidFormat');
    auth.consents.patch(id, { Data: { Status: 'Revoked', RevokedBy: 'TPP.InitiatedByUser' } });
    expectAuthError(
      () => auth.consents.patch(id, { Data: { Status: 'Revoked' }, Subscription: { Webhook: { IsActive: true } } }),
      'InvalidTransition',
      400,
      'Consent.BusinessRuleViolation',
    );
    expect(auth.consents.get(id).consent.Subscription).toBeUndefined();
    expectAuthError(() => auth.consents.patch('missing', {}), 'ConsentNotFound', 404, undefined);
  });
});

describe('permissions (section 4.3)', () => {
  it('allow an operation when at least one listed permission is granted', () => {
    expect(permitsOperation(['ReadTransactionsBasic'], 'GetAccountsAccountIdTransactions')).toBe(true);
    expect(permitsOperation(['ReadTransactionsDetail', 'ReadBalances'], 'GetAccountsAccountIdTransactions')).toBe(true);
    expect(permitsOperation(['ReadBalances'], 'GetAccountsAccountIdTransactions')).toBe(false);
    expect(permitsOperation(['ReadPartyUserIdentity'], 'Parties_read')).toBe(true);
    expect(permitsOperation(['ReadAccountsBasic'], 'GetAccountsAccountIdProduct')).toBe(false);
    for (const [operation, permissions] of Object.entries(OPERATION_PERMISSIONS) as [DataOperationId, readonly never[]][]) {
      for (const permission of permissions) expect(permitsOperation([permission], operation)).toBe(true);
      expect(permitsOperation(['ReadFXRemittanceCharges'], operation)).toBe(false);
    }
  });

  it('gate data requests together with token scopes, consent status and consent accounts', () => {
    const { auth, clock } = authWithClock();
    const { consent } = auth.consents.create({ permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic'], accountIds: ['acc-1'] });
    const id = consent.Data.ConsentId;
    const token = auth.tokens.issue({ scopes: ['openid', 'accounts'], consentId: id });
    const authorization = `Bearer ${token.accessToken}`;
    const ask = (operationId: DataOperationId, accountId?: string) => auth.authorize({ authorization, operationId, accountId });

    expect(ask('GetAccounts')).toMatchObject({ ok: true });
    expect(ask('GetAccountsAccountIdTransactions', 'acc-1')).toMatchObject({ ok: true });
    expect(ask('GetAccountsAccountIdBalances', 'acc-1')).toMatchObject({ ok: false, status: 403, reason: 'permission_missing', code: 'Consent.PermanentAccountAccessFailure' });
    expect(ask('GetAccountsAccountIdTransactions', 'acc-2')).toMatchObject({ ok: false, status: 403, reason: 'account_not_in_consent' });

    const narrow = auth.tokens.issue({ scopes: ['accounts'], consentId: id });
    expect(auth.authorize({ authorization: narrow.accessToken, operationId: 'GetAccounts' })).toMatchObject({ ok: false, status: 403, code: 'AccessToken.InvalidScope' });
    const unbound = auth.tokens.issue({ scopes: ['openid', 'accounts'] });
    expect(auth.authorize({ authorization: unbound.accessToken, operationId: 'GetAccounts' })).toMatchObject({ ok: false, status: 403, reason: 'no_consent' });
    // Consent operations need the token only.
    expect(auth.authorize({ authorization: unbound.accessToken, operationId: 'GetAccountAccessConsentsConsentId' })).toMatchObject({ ok: true });

    auth.consents.setStatus(id, 'Suspended');
    expect(ask('GetAccounts')).toMatchObject({ ok: false, status: 403, code: 'Consent.TransientAccountAccessFailure' });
    auth.consents.setStatus(id, 'Revoked');
    expect(ask('GetAccounts')).toMatchObject({ ok: false, status: 403, code: 'Consent.PermanentAccountAccessFailure', reason: 'consent_not_authorized' });

    clock.advance(600_000);
    expect(ask('GetAccounts')).toEqual({ ok: false, status: 401, reason: 'expired' });
  });
});
