/**
 * Attacks on signed (`application/jwt`) answers: every forged, re-keyed or re-claimed token
 * must be refused with SignatureError, and nothing of its content returned.
 *
 * Already in test/signed.test.ts and not repeated: `alg: none` (lower case), HS256 with a
 * shared secret, another key under the LFI's kid, a tampered payload, an extra `jti`, a
 * missing `exp`, `exp` well past, `nbf` well ahead, wrong `iss` / `aud`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/generated/v2.2/index.js';
import { SignatureError, type SignatureOptions } from '../../src/runtime/index.js';
import { transaction, transactionsPage } from '../helpers/fixtures.js';
import { PREFIX } from '../helpers/paging-server.js';
import { startServer, type TestServer } from '../helpers/server.js';

const NOW = Date.UTC(2026, 2, 1, 12);
const seconds = (ms: number): number => Math.floor(ms / 1000);

interface KeyPair {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

let lfi1: KeyPair;
let lfi2: KeyPair;
let otherLfi: KeyPair;
let attacker: KeyPair;
/** The LFI's published keys: the only ones the client trusts. */
let lfiJwks: { keys: JWK[] };
let server: TestServer;
/** Requests that reached the attacker's key URL (jku): there must be none. */
let attackerHits = 0;
let attackerServer: ReturnType<typeof createServer>;
let attackerOrigin = '';
let next: { token: string; contentType?: string } = { token: '' };

beforeAll(async () => {
  lfi1 = await generateKeyPair('PS256', { extractable: true });
  lfi2 = await generateKeyPair('PS256', { extractable: true });
  otherLfi = await generateKeyPair('ES256', { extractable: true });
  attacker = await generateKeyPair('ES256', { extractable: true });
  lfiJwks = {
    keys: [
      { ...(await exportJWK(lfi1.publicKey)), kid: 'lfi-1', alg: 'PS256', use: 'sig' },
      { ...(await exportJWK(lfi2.publicKey)), kid: 'lfi-2', alg: 'PS256', use: 'sig' },
    ],
  };
  server = await startServer(() => ({ headers: { 'content-type': next.contentType ?? 'application/jwt' }, body: next.token }));
  attackerServer = createServer((_req, res) => {
    attackerHits++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [] }));
  });
  await new Promise<void>((resolve) => attackerServer.listen(0, '127.0.0.1', resolve));
  attackerOrigin = `http://127.0.0.1:${(attackerServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await server.close();
  attackerServer.closeAllConnections();
  await new Promise<void>((resolve) => attackerServer.close(() => resolve()));
  expect(attackerHits).toBe(0);
});

const page = () => transactionsPage('acc', [transaction('t1', new Date(NOW - 3_600_000))], { Self: `${server.origin}${PREFIX}/accounts/acc/transactions` }, 1);
const claims = (): Record<string, unknown> => ({ iss: 'https://lfi.example', aud: ['tpp-client-1'], iat: seconds(NOW) - 5, nbf: seconds(NOW) - 5, exp: seconds(NOW) + 300, message: page() });

async function sign(payload: Record<string, unknown>, key: CryptoKey | Uint8Array, header: Record<string, unknown>): Promise<string> {
  return new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(key);
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

function client(signatures: Partial<SignatureOptions> = {}) {
  return createClient({ origin: server.origin, prefer: 'signed', now: () => NOW, retry: false, signatures: { keys: lfiJwks, issuer: 'https://lfi.example', audience: 'tpp-client-1', ...signatures } });
}

const read = (c = client()) => c.GetAccountsAccountIdTransactions({ path: { AccountId: 'acc' } });

/** The problem of the SignatureError the read fails with (anything else fails the test). */
async function refusal(token: string): Promise<string> {
  next = { token };
  const error = await read().then(
    (result) => new Error(`accepted: ${JSON.stringify(result.body).slice(0, 80)}`),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignatureError);
  return (error as SignatureError).problem;
}

describe('signed-answer attacks', () => {
  it('accepts the genuine article, signed by either published key (the control)', async () => {
    next = { token: await sign(claims(), lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }) };
    expect((await read()).body).toEqual(page());
    next = { token: await sign(claims(), lfi2.privateKey, { alg: 'PS256', kid: 'lfi-2' }) };
    expect((await read()).body).toEqual(page());
  });

  it('refuses alg "none" in any spelling, with or without a signature part', async () => {
    for (const alg of ['none', 'None', 'NONE', 'nOnE']) {
      for (const signature of ['', 'c2lnbmF0dXJl']) {
        expect(await refusal(`${b64({ alg, typ: 'JWT', kid: 'lfi-1' })}.${b64(claims())}.${signature}`), `${alg} ${signature}`).toBe('alg-none');
      }
    }
  });

  it('refuses a token signed with a key from another JWKS (another LFI, its own kid)', async () => {
    expect(await refusal(await sign(claims(), otherLfi.privateKey, { alg: 'ES256', kid: 'other-lfi-1' }))).toBe('bad-signature');
    // ... and the same key with no kid at all: no published key verifies it.
    expect(await refusal(await sign(claims(), otherLfi.privateKey, { alg: 'ES256' }))).toBe('bad-signature');
  });

  it('refuses a swapped kid: signed by one published key, naming the other', async () => {
    expect(await refusal(await sign(claims(), lfi2.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('bad-signature');
    expect(await refusal(await sign(claims(), lfi1.privateKey, { alg: 'PS256', kid: 'lfi-2' }))).toBe('bad-signature');
  });

  it('refuses a kid that names no published key, even when the key is one of them', async () => {
    expect(await refusal(await sign(claims(), lfi1.privateKey, { alg: 'PS256', kid: 'lfi-3' }))).toBe('bad-signature');
  });

  it('refuses a token carrying its own key (jwk) or pointing at one (jku, x5u), and fetches nothing', async () => {
    const attackerJwk = await exportJWK(attacker.publicKey);
    expect(await refusal(await sign(claims(), attacker.privateKey, { alg: 'ES256', jwk: attackerJwk }))).toBe('bad-signature');
    expect(await refusal(await sign(claims(), attacker.privateKey, { alg: 'ES256', kid: 'lfi-1', jwk: attackerJwk }))).toBe('bad-signature');
    expect(await refusal(await sign(claims(), attacker.privateKey, { alg: 'ES256', jku: `${attackerOrigin}/jwks.json`, kid: 'attacker' }))).toBe('bad-signature');
    expect(await refusal(await sign(claims(), attacker.privateKey, { alg: 'ES256', x5u: `${attackerOrigin}/cert.pem` }))).toBe('bad-signature');
    expect(attackerHits).toBe(0);
  });

  it('refuses HS256 made with the LFI public key as the HMAC secret (algorithm confusion)', async () => {
    const pem = new TextEncoder().encode(await exportSPKI(lfi1.publicKey));
    const jwkText = new TextEncoder().encode(JSON.stringify(lfiJwks.keys[0]));
    expect(await refusal(await sign(claims(), pem, { alg: 'HS256', kid: 'lfi-1' }))).toBe('alg-not-allowed');
    expect(await refusal(await sign(claims(), jwkText, { alg: 'HS256', kid: 'lfi-1' }))).toBe('alg-not-allowed');
  });

  it('refuses an allowed algorithm that does not fit the published key (ES256 under an RSA kid)', async () => {
    expect(await refusal(await sign(claims(), attacker.privateKey, { alg: 'ES256', kid: 'lfi-1' }))).toBe('bad-signature');
  });

  it('refuses a critical header parameter it does not understand', async () => {
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'PS256', kid: 'lfi-1', crit: ['x-must-understand'], 'x-must-understand': true }).sign(lfi1.privateKey, { crit: { 'x-must-understand': true } });
    expect(['malformed', 'bad-signature']).toContain(await refusal(token));
  });

  it('refuses every claim added beyond section 2.1', async () => {
    for (const extra of ['sub', 'jti', 'scope', 'cnf', 'nonce', 'Message', 'data']) {
      const problem = await refusal(await sign({ ...claims(), [extra]: 'added' }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }));
      expect(problem, extra).toBe('claims');
    }
  });

  it('refuses each required claim removed (iss, exp, nbf, message)', async () => {
    const problems: Record<string, string> = {};
    for (const removed of ['iss', 'exp', 'nbf', 'message']) {
      const payload = claims();
      delete payload[removed];
      problems[removed] = await refusal(await sign(payload, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }));
    }
    expect(problems).toEqual({ iss: 'claims', exp: 'claims', nbf: 'claims', message: 'claims' });
  });

  it('names a missing or non-numeric nbf a claims problem, not "not yet valid"', async () => {
    const { nbf: _nbf, ...withoutNbf } = claims();
    expect(await refusal(await sign(withoutNbf, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('claims');
    expect(await refusal(await sign({ ...claims(), nbf: String(seconds(NOW) - 5) }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('claims');
  });

  it('refuses exp in the past just beyond the tolerance, and exp or nbf that are not numbers', async () => {
    expect(await refusal(await sign({ ...claims(), exp: seconds(NOW) - 31 }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('expired');
    expect(await refusal(await sign({ ...claims(), exp: seconds(NOW) - 86_400 * 365 }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('expired');
    expect(await refusal(await sign({ ...claims(), exp: String(seconds(NOW) + 300) }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('claims');
    expect(await refusal(await sign({ ...claims(), nbf: String(seconds(NOW) - 5) }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('claims');
  });

  it('refuses nbf in the future just beyond the tolerance', async () => {
    expect(await refusal(await sign({ ...claims(), nbf: seconds(NOW) + 31 }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('not-yet-valid');
    expect(await refusal(await sign({ ...claims(), nbf: seconds(NOW) + 86_400 }, lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }))).toBe('not-yet-valid');
  });

  it('refuses a signed body served as application/json (unsigned, or not JSON when unsigned answers are allowed), and a JWS in JSON serialisation', async () => {
    const token = await sign(claims(), lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' });
    next = { token, contentType: 'application/json' };
    await expect(read()).rejects.toMatchObject({ problem: 'unsigned' });
    next = { token, contentType: 'application/json' };
    await expect(read(client({ required: false }))).rejects.toThrow(/not JSON/);
    const [protectedHeader, payload, signature] = token.split('.');
    expect(await refusal(JSON.stringify({ protected: protectedHeader, payload, signature }))).toBe('malformed');
  });

  it('refuses an unsigned answer when signed answers were asked for (signature stripped)', async () => {
    for (const contentType of ['application/json; charset=utf-8', 'application/json', 'text/plain']) {
      next = { token: JSON.stringify(page()), contentType };
      const error = await read().then(
        (r) => new Error(`accepted (signature ${r.signature === undefined ? 'absent' : 'present'})`),
        (e: unknown) => e,
      );
      expect(error, contentType).toBeInstanceOf(SignatureError);
      expect(error).toMatchObject({ problem: 'unsigned', code: 'signature:unsigned' });
      expect((error as Error).message).toMatch(/asked for the signed form \(application\/jwt\), but HTTP 200 came as /);
    }
    // Validation off changes nothing: the downgrade is refused before any body is looked at.
    next = { token: JSON.stringify(page()), contentType: 'application/json' };
    const unvalidated = createClient({ origin: server.origin, prefer: 'signed', validate: false, now: () => NOW, retry: false, signatures: { keys: lfiJwks } });
    await expect(read(unvalidated)).rejects.toMatchObject({ problem: 'unsigned' });
    // An empty 200 is no signed answer either.
    next = { token: '', contentType: 'application/jwt' };
    await expect(read(unvalidated)).rejects.toMatchObject({ problem: 'unsigned' });
  });

  it('accepts the unsigned form with signatures.required false, or when the call asks for JSON', async () => {
    next = { token: JSON.stringify(page()), contentType: 'application/json; charset=utf-8' };
    const relaxed = await read(client({ required: false }));
    expect(relaxed.body).toEqual(page());
    expect(relaxed.signature).toBeUndefined();
    const json = await client().GetAccountsAccountIdTransactions({ path: { AccountId: 'acc' } }, { prefer: 'json' });
    expect(json.body).toEqual(page());
    // And the signed form still verifies with required false.
    next = { token: await sign(claims(), lfi1.privateKey, { alg: 'PS256', kid: 'lfi-1' }) };
    expect((await read(client({ required: false }))).signature?.claims['iss']).toBe('https://lfi.example');
  });

  it('leaves the choice to an Accept header the caller sets: asking for JSON is not a downgrade', async () => {
    next = { token: JSON.stringify(page()), contentType: 'application/json' };
    const result = await client().GetAccountsAccountIdTransactions({ path: { AccountId: 'acc' } }, { headers: { Accept: 'application/json' } });
    expect(result.body).toEqual(page());
    expect(server.requests.at(-1)?.headers['accept']).toBe('application/json');
    // An Accept that asks for the signed form keeps the requirement.
    await expect(client().GetAccountsAccountIdTransactions({ path: { AccountId: 'acc' } }, { headers: { accept: 'application/jwt' } })).rejects.toMatchObject({ problem: 'unsigned' });
  });

  it('asks for the signed form only, and refuses the unsigned one, when a JSON client asks for it per call', async () => {
    next = { token: JSON.stringify(page()), contentType: 'application/json' };
    const jsonClient = createClient({ origin: server.origin, now: () => NOW, retry: false, signatures: { keys: lfiJwks } });
    expect((await jsonClient.GetAccountsAccountIdTransactions({ path: { AccountId: 'acc' } })).body).toEqual(page());
    await expect(jsonClient.GetAccountsAccountIdTransactions({ path: { AccountId: 'acc' } }, { prefer: 'signed' })).rejects.toMatchObject({ problem: 'unsigned' });
    expect(server.requests.at(-1)?.headers['accept']).toBe('application/jwt');
  });
});
