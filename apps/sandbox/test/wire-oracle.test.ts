/**
 * The wire oracle itself: it must accept what the spec allows and refuse what it does not,
 * or the end-to-end wire check would prove nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandboxData } from '../src/data/generate.js';
import { loadWireOracle, type WireOracle, type WireResponse } from './wire-oracle.js';

const BASE = 'http://127.0.0.1:1/open-finance/account-information';
let v21: WireOracle;
let v22: WireOracle;

beforeAll(async () => {
  [v21, v22] = await Promise.all([
    loadWireOracle(new URL('../../../spec/v2.1/account-information.yaml', import.meta.url)),
    loadWireOracle(new URL('../../../spec/v2.2/account-information.yaml', import.meta.url)),
  ]);
});

const data = createSandboxData({ version: 'v2.2', seed: 3, customers: 1, years: 0.1, perDay: 1 });
const account = data.customers[0]!.accounts[0]!;
const accountId = account.account.AccountId;
const transaction = account.transactions[0]!;

function json(version: 'v2.1' | 'v2.2', path: string, status: number, body: unknown, contentType = 'application/json; charset=utf-8'): WireResponse {
  return {
    method: 'GET',
    url: `${BASE}/${version}${path}`,
    status,
    headers: { 'content-type': contentType, 'x-fapi-interaction-id': '0b0c9a2e-8a57-4c1e-9f1e-3d2b1c0a9f8e' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  };
}

const page = (records: unknown[], links: Record<string, string> = { Self: `${BASE}/v2.2/accounts/${accountId}/transactions` }) => ({
  Data: { AccountId: accountId, Transaction: records },
  Links: links,
  Meta: { TotalPages: 1 },
});

const jws = (claims: unknown) =>
  `${Buffer.from(JSON.stringify({ alg: 'ES256' })).toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.c2ln`;

describe('the wire oracle', () => {
  it('accepts a valid page and refuses what the spec forbids', () => {
    const path = `/accounts/${accountId}/transactions`;
    expect(v22.check(json('v2.2', path, 200, page([transaction])))).toEqual([]);
    // Links is closed: an extra member is refused.
    expect(v22.check(json('v2.2', path, 200, page([transaction], { Self: `${BASE}/x`, Other: `${BASE}/y` })))).not.toEqual([]);
    // The DateTime pattern rejects -00:00 whatever date-time formats would say.
    expect(v22.check(json('v2.2', path, 200, page([{ ...transaction, BookingDateTime: '2025-01-01T00:00:00-00:00' }])))).not.toEqual([]);
  });

  it('knows the version differences: TransactionInformation is required in v2.2 only', () => {
    const { TransactionInformation: _dropped, ...without } = transaction as typeof transaction & { TransactionInformation?: string };
    const path = `/accounts/${accountId}/transactions`;
    expect(v22.check(json('v2.2', path, 200, page([without])))).not.toEqual([]);
    expect(v21.check(json('v2.1', path, 200, page([without], { Self: `${BASE}/v2.1${path}` })))).toEqual([]);
  });

  it('checks signed bodies by their claims, allowing the claims of section 2.1 and nothing else', () => {
    const path = `/accounts/${accountId}/transactions`;
    const claims = { iss: 'hub', exp: 2, nbf: 1, iat: 1, message: page([transaction]) };
    expect(v22.check(json('v2.2', path, 200, jws(claims), 'application/jwt'))).toEqual([]);
    expect(v22.check(json('v2.2', path, 200, jws({ ...claims, extra: 1 }), 'application/jwt'))).not.toEqual([]);
    expect(v22.check(json('v2.2', path, 200, jws({ ...claims, iss: undefined }), 'application/jwt'))).not.toEqual([]);
  });

  it('refuses undefined statuses, bodies where none is defined, unknown media types and operations', () => {
    expect(v22.check(json('v2.2', '/accounts', 418, {}))).not.toEqual([]);
    expect(v22.check(json('v2.2', '/accounts', 401, ''))).toEqual([]);
    expect(v22.check(json('v2.2', '/accounts', 401, { Errors: [] }))).not.toEqual([]);
    expect(v22.check(json('v2.2', '/accounts', 200, page([]), 'text/plain'))).not.toEqual([]);
    expect(v21.check(json('v2.1', '/account-access-consents/c-1/attestations', 200, {}))).not.toEqual([]);
  });

  it('checks error envelopes: Errors with prescribed or namespaced codes only', () => {
    expect(v22.check(json('v2.2', '/accounts', 403, { Errors: [{ Code: 'Consent.PermanentAccountAccessFailure', Message: 'no' }] }))).toEqual([]);
    expect(v22.check(json('v2.2', '/accounts', 403, { Errors: [{ Code: 'not namespaced', Message: 'no' }] }))).not.toEqual([]);
    expect(v22.check(json('v2.2', '/accounts', 403, { Errors: [] }))).not.toEqual([]);
  });
});
