import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/generated/v2.2/index.js';
import { ApiError, readAll, ResponseValidationError, SignatureError, type SignatureOptions } from '../src/runtime/index.js';
import { transaction, transactionsPage } from './helpers/fixtures.js';
import { PREFIX } from './helpers/paging-server.js';
import { startServer, type TestServer } from './helpers/server.js';

const NOW = Date.UTC(2026, 2, 1, 12); // the clock every client here uses
const seconds = (ms: number) => Math.floor(ms / 1000);

let lfiKey: CryptoKey;
let otherKey: CryptoKey;
let jwks: { keys: JWK[] };
let server: TestServer;
/** What the next response is: the test sets it before calling. */
let next: { status?: number; token: string } = { token: '' };

beforeAll(async () => {
  const lfi = await generateKeyPair('PS256', { extractable: true });
  const other = await generateKeyPair('PS256', { extractable: true });
  lfiKey = lfi.privateKey;
  otherKey = other.privateKey;
  jwks = { keys: [{ ...(await exportJWK(lfi.publicKey)), kid: 'lfi-1', alg: 'PS256', use: 'sig' }] };
  server = await startServer(() => ({ status: next.status ?? 200, headers: { 'content-type': 'application/jwt' }, body: next.token }));
});
afterAll(async () => {
  await server.close();
});

const page = () => transactionsPage('acc', [transaction('t1', new Date(NOW - 3_600_000))], { Self: `${server.origin}${PREFIX}/accounts/acc/transactions` }, 1);

async function sign(claims: Record<string, unknown>, options: { key?: CryptoKey; kid?: string; alg?: string } = {}): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: options.alg ?? 'PS256', kid: options.kid ?? 'lfi-1', typ: 'JWT' })
    .sign(options.key ?? lfiKey);
}

const baseClaims = () => ({ iss: 'https://lfi.example', aud: ['tpp-client-1'], iat: seconds(NOW) - 5, nbf: seconds(NOW) - 5, exp: seconds(NOW) + 300 });

function client(signatures: Partial<SignatureOptions> = {}) {
  return createClient({
    origin: server.origin,
    prefer: 'signed',
    now: () => NOW,
    retry: false,
    signatures: { keys: jwks, issuer: 'https://lfi.example', audience: 'tpp-client-1', ...signatures },
  });
}

async function problemOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SignatureError);
  return (error as SignatureError).problem;
}

const read = (c = client()) => c.GetAccountsAccountIdTransactions({ path: { AccountId: 'acc' } });

describe('signed responses (application/jwt)', () => {
  it('verifies and returns the same typed value as the JSON form', async () => {
    next = { token: await sign({ ...baseClaims(), message: page() }) };
    const result = await read();
    expect(server.requests.at(-1)!.headers['accept']).toBe('application/jwt');
    expect(result.contentType).toBe('application/jwt');
    expect(result.body).toEqual(page());
    expect(result.body.Data.Transaction[0]!.TransactionId).toBe('t1');
    expect(result.signature?.protectedHeader).toMatchObject({ alg: 'PS256', kid: 'lfi-1' });
    expect(result.signature?.claims).toMatchObject({ iss: 'https://lfi.example' });
  });

  it('refuses a bad signature (signed by another key under the same kid)', async () => {
    next = { token: await sign({ ...baseClaims(), message: page() }, { key: otherKey }) };
    expect(await problemOf(read())).toBe('bad-signature');
  });

  it('refuses a tampered payload', async () => {
    const [h, , s] = (await sign({ ...baseClaims(), message: page() })).split('.');
    const forged = Buffer.from(JSON.stringify({ ...baseClaims(), message: { ...page(), Meta: { TotalPages: 9 } } })).toString('base64url');
    next = { token: `${h}.${forged}.${s}` };
    expect(await problemOf(read())).toBe('bad-signature');
  });

  it('refuses alg "none"', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ ...baseClaims(), message: page() })).toString('base64url');
    next = { token: `${header}.${payload}.` };
    expect(await problemOf(read())).toBe('alg-none');
  });

  it('refuses an algorithm outside the allow-list (HS256 with a shared secret)', async () => {
    const secret = new TextEncoder().encode('a-shared-secret-that-is-32-bytes!');
    next = { token: await new SignJWT({ ...baseClaims(), message: page() }).setProtectedHeader({ alg: 'HS256' }).sign(secret) };
    expect(await problemOf(read())).toBe('alg-not-allowed');
  });

  it('refuses an expired token, but tolerates a small clock skew', async () => {
    next = { token: await sign({ ...baseClaims(), exp: seconds(NOW) - 120, message: page() }) };
    expect(await problemOf(read())).toBe('expired');
    next = { token: await sign({ ...baseClaims(), exp: seconds(NOW) - 10, message: page() }) };
    expect((await read()).status).toBe(200);
  });

  it('refuses a token that is not valid yet (nbf)', async () => {
    next = { token: await sign({ ...baseClaims(), nbf: seconds(NOW) + 600, message: page() }) };
    expect(await problemOf(read())).toBe('not-yet-valid');
  });

  it('refuses a claim beyond those of section 2.1', async () => {
    next = { token: await sign({ ...baseClaims(), jti: 'extra', message: page() }) };
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignatureError);
    expect((error as SignatureError).problem).toBe('claims');
    expect((error as Error).message).toMatch(/claims not allowed in a signed envelope: jti/);
  });

  it('refuses a token without exp, nbf or iss', async () => {
    const { exp: _exp, ...noExp } = baseClaims();
    next = { token: await sign({ ...noExp, message: page() }) };
    expect(await problemOf(read())).toBe('claims');
  });

  it('checks iss and aud against what the caller expects', async () => {
    next = { token: await sign({ ...baseClaims(), iss: 'https://impostor.example', message: page() }) };
    expect(await problemOf(read())).toBe('issuer');
    next = { token: await sign({ ...baseClaims(), aud: ['someone-else'], message: page() }) };
    expect(await problemOf(read())).toBe('audience');
  });

  it('validates message against the contract', async () => {
    next = { token: await sign({ ...baseClaims(), message: { ...page(), Meta: { TotalPages: -1 } } }) };
    const error = await read().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual([expect.stringMatching(/^message\.Meta\.TotalPages: /)]);
  });

  it('never returns a signed body without keys to verify it', async () => {
    next = { token: await sign({ ...baseClaims(), message: page() }) };
    const noKeys = createClient({ origin: server.origin, prefer: 'signed', now: () => NOW, retry: false });
    expect(await problemOf(read(noKeys))).toBe('no-keys');
  });

  it('verifies a signed error and exposes its Errors', async () => {
    next = { status: 403, token: await sign({ ...baseClaims(), message: { Errors: [{ Code: 'AccessToken.InvalidScope', Message: 'scope' }] } }) };
    const error = (await read().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.errors).toEqual([{ Code: 'AccessToken.InvalidScope', Message: 'scope' }]);
  });

  it('pages through signed responses like JSON ones', async () => {
    next = { token: await sign({ ...baseClaims(), message: page() }) };
    const records = await readAll(client().GetAccountsAccountIdTransactions, { path: { AccountId: 'acc' } });
    expect(records.map((t) => t.TransactionId)).toEqual(['t1']);
  });
});
