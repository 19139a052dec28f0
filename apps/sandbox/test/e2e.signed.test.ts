/**
 * Signed answers: a TPP asking for `application/jwt` gets a JWS made with the hub's key,
 * which the generated client verifies with the JWKS the hub publishes.
 */
import { createRemoteJWKSet, generateKeyPair, exportJWK } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SignatureError } from '@bank-data-sharing/client/runtime';
import { expectApiError, startE2E, type E2E } from './e2e.fixtures.js';

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(() => e2e.expectWireClean());

describe('signed answers', () => {
  it('publishes the signing key as a JWKS', async () => {
    const response = await fetch(e2e.sandbox.jwksUrl);
    expect(response.status).toBe(200);
    const jwks = (await response.json()) as { keys: { kid?: string; alg?: string; d?: string }[] };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ alg: 'ES256', use: 'sig' });
    expect(jwks.keys[0]?.d).toBeUndefined();
  });

  it('signs every data answer when asked, verified against the published JWKS, for both versions', async () => {
    const keys = createRemoteJWKSet(new URL(e2e.sandbox.jwksUrl));
    const signed = e2e.clients(undefined, { prefer: 'signed', signatures: { keys, issuer: e2e.sandbox.issuer } });
    const plain = e2e.clients();
    const AccountId = e2e.sandbox.seeded.consent.accountIds[0]!;
    for (const version of ['v2.1', 'v2.2'] as const) {
      const fromJwt = await signed[version].GetAccountAccountIdStatements({ path: { AccountId } });
      const fromJson = await plain[version].GetAccountAccountIdStatements({ path: { AccountId } });
      expect(fromJwt.contentType).toBe('application/jwt');
      expect(fromJwt.signature?.protectedHeader['kid']).toBe(e2e.sandbox.jwks.keys[0]?.kid);
      // The claims beside `message` (which became the body): exactly those of section 2.1, no aud configured.
      expect(Object.keys(fromJwt.signature?.claims ?? {}).sort()).toEqual(['exp', 'iat', 'iss', 'nbf']);
      expect(fromJwt.body).toEqual(fromJson.body);
      const consent = await signed[version].GetAccountAccessConsentsConsentId({ path: { ConsentId: e2e.sandbox.seeded.consent.consent.Data.ConsentId } });
      expect(consent.contentType).toBe('application/jwt');
    }
  });

  it('signs error envelopes too, and a client with another key refuses the signature', async () => {
    const keys = e2e.sandbox.jwks;
    const signed = e2e.clients(undefined, { prefer: 'signed', signatures: { keys } })['v2.2'];
    const foreign = e2e.sandbox.stores['v2.2'].customers()[1]!.accountIds[0]!;
    const error = await expectApiError(signed.GetAccountsAccountIdBalances({ path: { AccountId: foreign } }), 403, 'Consent.PermanentAccountAccessFailure');
    expect(error.body).toBeDefined();

    const { publicKey } = await generateKeyPair('ES256');
    const other = { keys: [{ ...(await exportJWK(publicKey)), kid: e2e.sandbox.jwks.keys[0]?.kid, alg: 'ES256' }] };
    const wrong = e2e.clients(undefined, { prefer: 'signed', signatures: { keys: other } })['v2.2'];
    await expect(wrong.GetAccounts()).rejects.toBeInstanceOf(SignatureError);
  });
});
