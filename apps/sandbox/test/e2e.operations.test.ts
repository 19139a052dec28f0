/**
 * Every operation of both API versions, read through the hub with the generated client,
 * compared with what the LFI store holds. Every response is also checked on the wire
 * against the bundled spec (see wire-oracle.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readAll } from '@bank-data-sharing/client/runtime';
import type { SpecVersion } from '../src/data/types.js';
import type { LfiResource } from '../src/lfi/resources.js';
import type { LfiStore } from '../src/lfi/store.js';
import { expectApiError, startE2E, type E2E } from './e2e.fixtures.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(() => e2e.expectWireClean());

/** Every record of a list, in the store's order, read straight from the store. */
function stored(store: LfiStore, resource: LfiResource, accountId?: string): unknown[] {
  return store.list(resource, { accountId, pageSize: 1_000_000 }).data;
}

const VERSIONS: readonly SpecVersion[] = ['v2.1', 'v2.2'];

describe.each(VERSIONS)('every operation of %s through the hub', (version) => {
  const setup = () => {
    const client = e2e.clients()[version];
    const store = e2e.sandbox.stores[version];
    const { consent } = e2e.sandbox.seeded;
    return { client, store, consent, accountIds: [...consent.accountIds] };
  };

  it('GetAccounts lists exactly the accounts of the consent', async () => {
    const { client, store, accountIds } = setup();
    const result = await client.GetAccounts();
    expect(result.status).toBe(200);
    expect(result.body.Data.Account.map((a) => a.AccountId)).toEqual([...accountIds].sort());
    expect(result.body.Data.Account).toEqual(accountIds.sort().map((id) => store.getAccount(id)));
    expect(result.body.Links).toEqual({ Self: `${e2e.sandbox.baseUrls[version]}/accounts` });
    expect(result.body.Meta.TotalPages).toBe(1);
  });

  it('GetAccountsAccountId answers each account with its id beside the detail', async () => {
    const { client, store, accountIds } = setup();
    for (const AccountId of accountIds) {
      const { body } = await client.GetAccountsAccountId({ path: { AccountId } });
      const { AccountId: id, ...detail } = store.getAccount(AccountId);
      expect(body.Data).toEqual({ AccountId: id, Account: detail });
    }
  });

  it('the per-account lists hold what the LFI holds, in its order', async () => {
    const { client, store, accountIds } = setup();
    for (const AccountId of accountIds) {
      const params = { path: { AccountId } };
      expect(await readAll(client.GetAccountsAccountIdBalances, params)).toEqual(stored(store, 'balances', AccountId));
      expect(await readAll(client.GetAccountsAccountIdBeneficiaries, params)).toEqual(stored(store, 'beneficiaries', AccountId));
      expect(await readAll(client.GetAccountsAccountIdDirectDebits, params)).toEqual(stored(store, 'direct-debits', AccountId));
      expect(await readAll(client.GetAccountsAccountIdProduct, params)).toEqual(stored(store, 'product', AccountId));
      expect(await readAll(client.GetScheduledPayments, params)).toEqual(stored(store, 'scheduled-payments', AccountId));
      expect(await readAll(client.GetAccountsAccountIdStandingOrders, params)).toEqual(stored(store, 'standing-orders', AccountId));
      expect(await readAll(client.PartiesByAccountId_read, params)).toEqual(stored(store, 'account-parties', AccountId));
      // The transaction record differs between versions, so each client is named on its own.
      const clients = e2e.clients();
      const transactions =
        version === 'v2.1'
          ? await readAll(clients['v2.1'].GetAccountsAccountIdTransactions, params)
          : await readAll(clients['v2.2'].GetAccountsAccountIdTransactions, params);
      expect(transactions).toEqual(stored(store, 'transactions', AccountId));
      expect(await readAll(client.GetAccountAccountIdStatements, params, { records: (body) => body.Data.Statements })).toEqual(
        stored(store, 'statements', AccountId),
      );
    }
  });

  it('statements carry the account sub-type, parties the consenting party', async () => {
    const { client, store, consent, accountIds } = setup();
    const AccountId = accountIds[0]!;
    const statements = await client.GetAccountAccountIdStatements({ path: { AccountId } });
    expect(statements.body.Data.AccountSubType).toBe(store.getAccount(AccountId).AccountSubType);
    const parties = await client.Parties_read();
    expect(parties.body.Data.Party).toEqual(stored(store, 'parties').find((p) => (p as { PartyId: string }).PartyId === parties.body.Data.Party.PartyId));
    expect(store.customers().find((c) => c.customerId === consent.customerId)?.partyId).toBe(parties.body.Data.Party.PartyId);
  });

  it('consents: by base consent id, by id, and the webhook patch', async () => {
    const { client, consent } = setup();
    const ConsentId = consent.consent.Data.ConsentId;
    const byBase = await client.GetAccountAccessConsentsByBaseConsentId({ query: { baseConsentId: ConsentId } });
    expect(byBase.body.map((c) => c.Data.ConsentId)).toEqual([ConsentId]);
    const one = await client.GetAccountAccessConsentsConsentId({ path: { ConsentId } });
    expect(one.body.Data.Status).toBe('Authorized');
    expect(one.body.Links.Self).toBe(`${e2e.sandbox.baseUrls[version]}/account-access-consents/${ConsentId}`);

    const Url = `https://tpp.example/${version}/webhook`;
    const patched = await client.PatchAccountAccessConsentsConsentId({ path: { ConsentId }, body: { Subscription: { Webhook: { Url, IsActive: true } } } });
    expect(patched.status).toBe(204);
    const after = await client.GetAccountAccessConsentsConsentId({ path: { ConsentId } });
    expect(after.body.Subscription).toEqual({ Webhook: { Url, IsActive: true } });
    expect(after.body.Data.Status).toBe('Authorized');
  });

  it('refuses what the token or the consent does not allow', async () => {
    const { client, accountIds } = setup();
    // Another customer's account is not covered by the consent.
    const foreign = e2e.sandbox.stores[version].customers()[1]!.accountIds[0]!;
    await expectApiError(client.GetAccountsAccountIdBalances({ path: { AccountId: foreign } }), 403, 'Consent.PermanentAccountAccessFailure');

    // A consent without ReadBalances: the data operation it gates is refused, the others work.
    const narrow = e2e.sandbox.createConsent({ permissions: ['ReadAccountsBasic'] });
    const narrowClient = e2e.clients(e2e.sandbox.issueToken(narrow.consent.Data.ConsentId).accessToken)[version];
    expect((await narrowClient.GetAccounts()).status).toBe(200);
    await expectApiError(narrowClient.GetAccountsAccountIdBalances({ path: { AccountId: accountIds[0]! } }), 403, 'Consent.PermanentAccountAccessFailure');

    // A token without the openid scope: 403 AccessToken.InvalidScope.
    const scoped = e2e.sandbox.auth.tokens.issue({ scopes: ['accounts'], consentId: e2e.sandbox.seeded.consent.consent.Data.ConsentId });
    await expectApiError(e2e.clients(scoped.accessToken)[version].GetAccounts(), 403, 'AccessToken.InvalidScope');

    // A consent that names no customer: its party cannot be read (the LFI would list every party).
    const anonymous = e2e.sandbox.auth.consents.create({ permissions: ['ReadParty'], accountIds });
    const anonymousClient = e2e.clients(e2e.sandbox.issueToken(anonymous.consent.Data.ConsentId).accessToken)[version];
    await expectApiError(anonymousClient.Parties_read(), 403, 'Consent.PermanentAccountAccessFailure');

    // An unknown token: 401 without a body.
    await expectApiError(e2e.clients('not-a-token')[version].GetAccounts(), 401);
  });
});

describe('the LFI behind the hub', () => {
  it('answers only the hub, whose credential is a secret made at start', async () => {
    for (const authorization of [undefined, 'Bearer guess', `Bearer ${e2e.sandbox.seeded.token.accessToken}`]) {
      const response = await fetch(`${e2e.sandbox.lfiUrl}/lfi/v2.2/accounts`, { headers: authorization === undefined ? {} : { authorization } });
      expect(response.status).toBe(401);
    }
  });
});

describe('the wire check saw every response', () => {
  it('checked a response for each call above', () => {
    expect(e2e.wire.checked()).toBeGreaterThan(60);
  });
});
