/**
 * The mock server of our own spec (v2.2 account information), over loopback: every
 * operation, Prefer, the error contract for bad requests, determinism, and paging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signForMock, startMockServer, type MockServer } from '../../src/index.js';
import { expectDeclared, OWN_SPEC, sampled, send } from './support.js';

let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({ spec: OWN_SPEC, port: 0, seed: 7 });
});

afterAll(async () => {
  await server?.close();
});

describe('codegen mock on spec/v2.2/account-information.yaml', () => {
  it('serves under the spec server path prefix', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open-finance\/account-information\/v2\.2$/);
    expect(server.operations.length).toBeGreaterThan(10);
  });

  it('answers every operation with a declared success status, declared headers and a body that validates', async () => {
    // Its success is only a signed body; the mock signs nothing and says so with the declared 406.
    expect(server.signedOnly).toStrictEqual(['CreateAccountAccessConsentAttestation']);
    for (const { name, operationId } of server.operations) {
      const answer = await send(server, sampled(server, name));
      if (server.signedOnly.includes(operationId)) {
        expect(answer.status).toBe(406);
        expectDeclared(server, name, answer);
        continue;
      }
      expect(answer.status, `${name}: ${answer.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
      expect(answer.status, `${name}: ${answer.text.slice(0, 300)}`).toBeLessThan(300);
      expectDeclared(server, name, answer);
    }
  });

  it('answers the same request with the same bytes, and another seed of request differently', async () => {
    const request = sampled(server, 'GetAccountsAccountIdTransactions', { 'x-fapi-interaction-id': '7f1d6a2e-4f7a-4a51-9a1e-0c2f5b7c9d10' });
    const first = await send(server, request);
    const second = await send(server, request);
    expect(first.status).toBe(200);
    expect(second.text).toBe(first.text);
    const other = await send(server, { ...request, target: request.target.replace(/\/accounts\/[^/]+\//, '/accounts/another-account/') });
    expect(other.status).toBe(200);
    expect(other.text).not.toBe(first.text);
  });

  it('honours Prefer: code= with the declared status and its error body', async () => {
    for (const code of [401, 403, 500]) {
      const answer = await send(server, sampled(server, 'GetAccounts', { prefer: `code=${code}` }));
      expect(answer.status).toBe(code);
      expectDeclared(server, 'GetAccounts', answer);
    }
    const notFound = await send(server, sampled(server, 'GetAccountsAccountIdProduct', { prefer: 'code=404, dynamic=true' }));
    expect(notFound.status).toBe(404);
    expectDeclared(server, 'GetAccountsAccountIdProduct', notFound);
  });

  it('refuses a Prefer it cannot satisfy in the error contract, naming the problem', async () => {
    const undeclared = await send(server, sampled(server, 'GetAccounts', { prefer: 'code=418' }));
    expect(undeclared.status).toBe(400);
    expectDeclared(server, 'GetAccounts', undeclared);
    expect(undeclared.text).toContain('code=418');
    const noExample = await send(server, sampled(server, 'GetAccounts', { prefer: 'example=missing' }));
    expect(noExample.status).toBe(400);
    expectDeclared(server, 'GetAccounts', noExample);
    expect(noExample.text).toContain('example=missing');
    const malformed = await send(server, sampled(server, 'GetAccounts', { prefer: 'code=abc' }));
    expect(malformed.status).toBe(400);
    expectDeclared(server, 'GetAccounts', malformed);
  });

  it('answers bad requests with the publisher error body', async () => {
    const wrongType = sampled(server, 'GetAccountsAccountIdTransactions');
    const badQuery = await send(server, { ...wrongType, target: `${wrongType.target.split('?')[0]}?fromBookingDateTime=yesterday` });
    expect(badQuery.status).toBe(400);
    expectDeclared(server, 'GetAccountsAccountIdTransactions', badQuery);
    expect(badQuery.text).toContain('fromBookingDateTime');

    const patch = sampled(server, 'PatchAccountAccessConsentsConsentId', { 'content-type': 'application/json' });
    const badBody = await send(server, { ...patch, body: JSON.stringify({ Data: {} }) });
    expect(badBody.status).toBe(400);
    expectDeclared(server, 'PatchAccountAccessConsentsConsentId', badBody);
    expect(badBody.text).toContain('Status');

    const anonymous = await send(server, sampled(server, 'GetAccounts', { authorization: undefined }));
    expect(anonymous.status).toBe(401);
    expectDeclared(server, 'GetAccounts', anonymous);
    const malformedToken = await send(server, sampled(server, 'GetAccounts', { authorization: 'Bearer not a token' }));
    expect(malformedToken.status).toBe(401);
    const unknownPath = await send(server, { method: 'GET', target: '/no-such-thing', headers: {} });
    expect(unknownPath.status).toBe(404);
  });

  it('pages GetAccountsAccountIdTransactions consistently', async () => {
    const base = sampled(server, 'GetAccountsAccountIdTransactions');
    const path = base.target.split('?')[0]!;
    const page = async (n: number | undefined) => send(server, { ...base, target: n === undefined ? path : `${path}?page=${n}` });
    const pageOf = (link: unknown) => (typeof link === 'string' ? new URL(link).searchParams.get('page') : undefined);

    const first = (await page(undefined)).json as { Links: Record<string, string>; Meta: { TotalPages: number } };
    expect(first.Meta.TotalPages).toBe(3);
    expect(first.Links.Self).toBe(`${server.url}${path}`);
    expect(pageOf(first.Links.First)).toBe('1');
    expect(first.Links.Prev).toBeUndefined();
    expect(pageOf(first.Links.Next)).toBe('2');
    expect(pageOf(first.Links.Last)).toBe('3');

    const second = await page(2);
    expectDeclared(server, 'GetAccountsAccountIdTransactions', second);
    const body = second.json as { Links: Record<string, string>; Meta: { TotalPages: number } };
    expect(body.Meta.TotalPages).toBe(3);
    expect(new URL(body.Links.Self!).pathname).toBe(new URL(`${server.url}${path}`).pathname);
    expect([pageOf(body.Links.Self), pageOf(body.Links.Prev), pageOf(body.Links.Next), pageOf(body.Links.Last)]).toStrictEqual(['2', '1', '3', '3']);

    const last = (await page(3)).json as { Links: Record<string, string> };
    expect(last.Links.Next).toBeUndefined();
    expect(pageOf(last.Links.Prev)).toBe('2');

    const beyond = await page(4);
    expect(beyond.status).toBe(400);
    expectDeclared(server, 'GetAccountsAccountIdTransactions', beyond);
    expect(beyond.text).toContain('beyond the last page');
  });

  it('checks a signed request body against the mock secret', async () => {
    const patch = sampled(server, 'PatchAccountAccessConsentsConsentId', { 'content-type': 'application/jwt' });
    const token = signForMock({ message: { Data: { Status: 'Revoked' } } });
    const signed = await send(server, { ...patch, body: token });
    expect(signed.status, signed.text).toBe(204);
    const forged = await send(server, { ...patch, body: `${token.slice(0, -4)}AAAA` });
    expect(forged.status).toBe(400);
    expectDeclared(server, 'PatchAccountAccessConsentsConsentId', forged);
    expect(forged.text).toContain('JWS');
  });
});
