import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../src/runtime/index.js';
import { authorize } from './helpers/apps.js';
import { account, consent, transactions } from './helpers/fixtures.js';
import { listen, send, type Running } from './helpers/http.js';
import { testKeys } from './helpers/keys.js';
import { lfiApp, type Bank } from './readme-example.js';

const notFound = async (): Promise<never> => {
  throw new ApiError(404, 'Resource.NotFound', 'none');
};

const patches: unknown[] = [];
const bank: Bank = {
  consentsByBase: async () => [consent('c1', 'https://x.example.com').Data],
  consent: async (id) => consent(id, 'https://x.example.com').Data,
  patchConsent: async (id, patch) => void patches.push({ id, patch }),
  attestations: async () => [],
  attest: notFound,
  accounts: async () => [account('acc-001')],
  account: async () => ({ Currency: 'AED' }),
  balances: notFound,
  beneficiaries: async () => [],
  directDebits: async () => [],
  products: async () => [],
  scheduledPayments: async () => [],
  standingOrders: async () => [],
  transactions: async () => transactions(2),
  accountParties: async () => [],
  party: notFound,
  statements: async () => ({ subType: 'CurrentAccount', statements: [] }),
};

describe('the README example (an LFI serving the whole v2.2 API)', () => {
  let app: Running;
  let base: string;
  beforeAll(async () => {
    const keys = await testKeys();
    app = await listen(lfiApp(bank, { authorize, signing: keys.signing, verification: keys.verification }));
    base = `${app.origin}/open-finance/account-information/v2.2`;
  });
  afterAll(() => app.close());
  const headers = { authorization: 'Bearer user' };

  it('serves lists, single resources and the consent patch', async () => {
    expect((await send(`${base}/accounts`, { headers })).json()).toEqual({ Data: { Account: [account('acc-001')] }, Links: { Self: `${base}/accounts` }, Meta: { TotalPages: 1 } });
    // The user token's consent does not grant beneficiaries; a grant without permissions is not checked.
    expect((await send(`${base}/accounts/acc-001/beneficiaries`, { headers })).status).toBe(403);
    const empty = await send(`${base}/accounts/acc-001/beneficiaries`, { headers: { authorization: 'Bearer tpp' } });
    expect(empty.json()).toEqual({ Data: { AccountId: 'acc-001', Beneficiary: [] }, Links: { Self: `${base}/accounts/acc-001/beneficiaries` }, Meta: { TotalPages: 0 } });
    const tx = (await send(`${base}/accounts/acc-001/transactions`, { headers })).json() as { Data: { Transaction: unknown[] }; Meta: unknown };
    expect(tx.Data.Transaction.length).toBe(2);
    expect(tx.Meta).toEqual({ TotalPages: 1 });
    const patched = await send(`${base}/account-access-consents/c1`, {
      method: 'PATCH',
      headers: { authorization: 'Bearer tpp', 'content-type': 'application/json' },
      body: JSON.stringify({ Data: { Status: 'Revoked' } }),
    });
    expect(patched.status).toBe(204);
    expect(patches).toEqual([{ id: 'c1', patch: { Data: { Status: 'Revoked' } } }]);
  });
});
