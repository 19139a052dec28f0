/**
 * The generated stubs of the other APIs answer in their own specs' shapes: the hub-to-LFI
 * contract with `{ errorCode, errorMessage }`, the directory's token endpoint with OAuth
 * errors.
 */
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRouter as createDirectoryRouter, operationMeta as directoryMeta } from '../src/generated/directory/index.js';
import { createRouter as createLfiRouter, operationMeta as lfiMeta, type Handlers as LfiHandlers } from '../src/generated/v2.2/lfi/index.js';
import { createRouter as createLfi21Router } from '../src/generated/v2.1/lfi/index.js';
import { ApiError, lfiPage, transactionOrder } from '../src/runtime/index.js';
import { transactions } from './helpers/fixtures.js';
import { listen, send, type Running } from './helpers/http.js';

function unused(): never {
  throw new ApiError(404, 'Resource.NotFound', 'No such account');
}

const lfiHandlers: LfiHandlers = {
  LfiGetAccounts: unused,
  LfiGetAccountsAccountId: unused,
  LfiGetAccountsAccountIdBalances: unused,
  LfiGetAccountsAccountIdBeneficiaries: unused,
  LfiGetAccountsAccountIdDirectDebits: unused,
  LfiGetAccountsAccountIdProduct: unused,
  LfiGetScheduledPayments: unused,
  LfiGetAccountsAccountIdStandingOrders: unused,
  LfiGetAccountsAccountIdTransactions: (req) => ({ status: 200, body: lfiPage(transactions(5), { page: req.query.page, pageSize: req.query['page-size'], order: transactionOrder }) }),
  LfiPartiesByAccountId_read: unused,
  LfiParties_read: unused,
  LfiGetAccountAccountIdStatements: unused,
};

describe('hub-to-LFI stub (v2.2)', () => {
  let app: Running;
  beforeAll(async () => {
    const server = express();
    server.use(createLfiRouter(lfiHandlers, { authorize: ({ credential }) => (credential === 'hub' ? { scopes: [] } : undefined), onError: () => undefined }));
    app = await listen(server);
  });
  afterAll(() => app.close());
  const base = () => `${app.origin}/lfi/v2.2`;
  const headers = { authorization: 'Bearer hub' };

  it('carries the hub credential requirement as data, and no consent permissions (the contract has no x-permissions)', () => {
    expect(lfiMeta.LfiGetAccountsAccountIdTransactions).toEqual({ security: [{ HubToLfiSecurity: [] }] });
  });

  it('answers a page with data and meta, decoding page and page-size', async () => {
    const reply = await send(`${base()}/accounts/a1/transactions?page=2&page-size=2`, { headers });
    expect(reply.status).toBe(200);
    const body = reply.json() as { data: Array<{ TransactionId: string }>; meta: unknown };
    expect(body.data.map((t) => t.TransactionId)).toEqual(['t0003', 't0002']);
    expect(body.meta).toEqual({ paginated: true, totalPages: 3, totalRecords: 5 });
  });

  it('answers invalid paging parameters in the LFI error shape', async () => {
    const reply = await send(`${base()}/accounts/a1/transactions?page=0&page-size=x`, { headers });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      errorCode: 'Resource.InvalidFormat',
      errorMessage: 'page: query parameter page: Too small: expected number to be >=1; page-size: query parameter page-size: Invalid input: expected number, received string',
    });
  });

  it('answers a thrown 404 with the LFI error body the contract defines for it', async () => {
    const reply = await send(`${base()}/accounts/a1`, { headers });
    expect(reply.status).toBe(404);
    expect(reply.json()).toEqual({ errorCode: 'Resource.NotFound', errorMessage: 'No such account' });
  });

  it('answers a missing credential with 401 and the LFI error body', async () => {
    const reply = await send(`${base()}/accounts/a1/transactions`);
    expect(reply.status).toBe(401);
    expect(reply.json()).toEqual({ errorCode: 'AccessToken.Missing', errorMessage: 'No access token' });
  });

  it('builds for v2.1 too', () => {
    expect(typeof createLfi21Router({ ...lfiHandlers } as never, { authorize: () => undefined }).prefix).toBe('string');
  });
});

describe('directory stub', () => {
  let app: Running;
  beforeAll(async () => {
    const server = express();
    server.use(
      createDirectoryRouter(
        {
          getToken: (req) => ({ status: 200, body: { access_token: `token-for-${req.body?.client_id ?? 'nobody'}`, token_type: 'Bearer', expires_in: 300 } }),
          getOrganisations: () => ({ status: 200, body: [] }),
          getOrganisationSoftwareStatements: () => ({ status: 200, body: [] }),
        },
        { prefix: '', authorize: ({ credential }) => (credential === 'dir' ? { scopes: [] } : undefined), onError: () => undefined },
      ),
    );
    app = await listen(server);
  });
  afterAll(() => app.close());

  it('has no security on the token endpoint and a bearer token on the others', () => {
    expect(directoryMeta.getToken.security).toEqual([]);
    expect(directoryMeta.getOrganisations.security).toEqual([{ DirectoryBearer: [] }]);
  });

  it('answers a token request of the wrong media type with 400 in the OAuth error shape (no 415 defined)', async () => {
    const reply = await send(`${app.origin}/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      error: 'Body.InvalidFormat',
      error_description: 'Content-Type application/json is not accepted; use application/x-www-form-urlencoded',
    });
  });

  it('reads the form-encoded token request', async () => {
    const reply = await send(`${app.origin}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&scope=directory%3Asoftware&client_id=tpp-1',
    });
    expect(reply.status, reply.text).toBe(200);
    expect((reply.json() as { access_token: string }).access_token).toBe('token-for-tpp-1');
  });

  it('requires the bearer token on organisations', async () => {
    expect((await send(`${app.origin}/organisations`)).status).toBe(401);
    expect((await send(`${app.origin}/organisations`, { headers: { authorization: 'Bearer dir' } })).json()).toEqual([]);
  });
});

describe('a v2.2 LFI that implements one operation so far', () => {
  let app: Running;
  const told: string[][] = [];
  beforeAll(async () => {
    const { createRouter } = await import('../src/generated/v2.2/index.js');
    const server = express();
    server.use(
      createRouter(
        { GetAccounts: (req) => ({ status: 200, body: { Data: { Account: [] }, Links: { Self: req.url }, Meta: { TotalPages: 1 } } }) },
        {
          authorize: ({ credential }) => (credential === 'user' ? { scopes: ['openid', 'accounts'] } : undefined),
          onMissingHandlers: (ops) => told.push(ops.map((op) => op.operationId)),
          onError: () => undefined,
        },
      ),
    );
    app = await listen(server);
  });
  afterAll(() => app.close());
  const base = () => `${app.origin}/open-finance/account-information/v2.2`;
  const headers = { authorization: 'Bearer user' };

  it('starts without a verification key (the signed-body operations are not implemented) and names the others once', () => {
    expect(told).toHaveLength(1);
    expect(told[0]).toContain('GetAccountsAccountIdTransactions');
    expect(told[0]).toContain('CreateAccountAccessConsentAttestation');
    expect(told[0]).not.toContain('GetAccounts');
  });

  it('serves the implemented operation and answers the others 501 in the Errors envelope', async () => {
    expect((await send(`${base()}/accounts`, { headers })).status).toBe(200);
    const reply = await send(`${base()}/accounts/acc-001/balances`, { headers });
    expect(reply.status).toBe(501);
    expect(reply.headers['x-fapi-interaction-id']).toBeDefined();
    expect(reply.json()).toStrictEqual({
      Errors: [{ Code: 'Request.NotImplemented', Message: 'GET /accounts/{AccountId}/balances (GetAccountsAccountIdBalances) is not implemented by this server' }],
    });
    // Without a token, 401 as for any secured operation.
    expect((await send(`${base()}/accounts/acc-001/balances`)).status).toBe(401);
    expect(told).toHaveLength(1);
  });
});
