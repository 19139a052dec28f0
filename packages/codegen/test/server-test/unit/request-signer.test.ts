/** Signed request bodies with the caller's key: every algorithm family verifies with node:crypto. */
import { createHmac, createPublicKey, generateKeyPairSync, verify, constants, createSecretKey, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { defaultAlgorithm, readSigningKey, requestSigner } from '../../../src/server-test/request-signer.js';

function parts(token: string) {
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return {
    input: Buffer.from(`${header}.${payload}`),
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
    signature: Buffer.from(signature, 'base64url'),
  };
}

describe('requestSigner', () => {
  it('signs ES256 (P-256, raw r||s) with a kid, fresh times and the given issuer', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const token = requestSigner({ key: privateKey, kid: 'k1', issuer: 'tpp-1' })({ iss: 'mock-client', message: { a: 1 }, exp: 1 });
    const jws = parts(token);
    expect(jws.header).toEqual({ alg: 'ES256', typ: 'JWT', kid: 'k1' });
    expect(jws.signature).toHaveLength(64);
    expect(verify('sha256', jws.input, { key: publicKey, dsaEncoding: 'ieee-p1363' }, jws.signature)).toBe(true);
    const now = Math.floor(Date.now() / 1000);
    expect(jws.claims).toMatchObject({ iss: 'tpp-1', message: { a: 1 } });
    expect(jws.claims.exp).toBeGreaterThan(now);
    expect(Math.abs((jws.claims.iat as number) - now)).toBeLessThan(5);
  });

  it('signs PS256 and RS256 with RSA keys, EdDSA with Ed25519, HS256 with a secret', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const ps = parts(requestSigner({ key: rsa.privateKey })({ message: 1 }));
    expect(ps.header.alg).toBe('PS256');
    expect(verify('sha256', ps.input, { key: rsa.publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }, ps.signature)).toBe(true);
    const rs = parts(requestSigner({ key: rsa.privateKey, alg: 'RS256' })({ message: 1 }));
    expect(verify('sha256', rs.input, rsa.publicKey, rs.signature)).toBe(true);
    const ed = generateKeyPairSync('ed25519');
    const eddsa = parts(requestSigner({ key: ed.privateKey })({ message: 1 }));
    expect(eddsa.header.alg).toBe('EdDSA');
    expect(verify(null, eddsa.input, ed.publicKey, eddsa.signature)).toBe(true);
    const secret = createSecretKey(Buffer.from('a shared secret of enough length!'));
    const hs = parts(requestSigner({ key: secret })({ message: 1 }));
    expect(hs.header.alg).toBe('HS256');
    expect(createHmac('sha256', secret).update(hs.input).digest().equals(hs.signature)).toBe(true);
  });

  it('refuses a key and algorithm that do not go together when made, not at the first request', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => requestSigner({ key: privateKey, alg: 'PS256' })).toThrow();
    expect(() => requestSigner({ key: privateKey, alg: 'none' })).toThrow(/not supported/);
  });
});

describe('readSigningKey', () => {
  it('reads PEM and JWK private keys, and oct JWKs as secrets', () => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const fromPem: KeyObject = readSigningKey(pem);
    expect(defaultAlgorithm(fromPem)).toBe('ES384');
    const fromJwk = readSigningKey(JSON.stringify(privateKey.export({ format: 'jwk' })));
    expect(createPublicKey(fromJwk).export({ format: 'jwk' })).toEqual(createPublicKey(privateKey).export({ format: 'jwk' }));
    const oct = readSigningKey(JSON.stringify({ kty: 'oct', k: Buffer.from('secret').toString('base64url') }));
    expect(oct.type).toBe('secret');
    expect(() => readSigningKey('not a key')).toThrow();
  });
});
