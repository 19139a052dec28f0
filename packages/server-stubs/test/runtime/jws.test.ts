import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { describe, expect, it } from 'vitest';
import { SignedBodyError, buildClaims, signClaims, verifySignedBody } from '../../src/runtime/index.js';

describe('signed bodies', async () => {
  const server = await generateKeyPair('PS256');
  const signing = { key: server.privateKey, alg: 'PS256', issuer: 'lfi-1', lifetimeSeconds: 60 };

  it('builds exactly the claims of section 2.1 and signs them as given', async () => {
    const claims = buildClaims({ Data: { a: 1 } }, signing);
    expect(Object.keys(claims)).toEqual(['iss', 'exp', 'nbf', 'iat', 'message']);
    expect((claims.exp as number) - (claims.nbf as number)).toBe(60);
    const token = await signClaims(claims, signing);
    expect(decodeJwt(token)).toEqual(claims);
    expect(Object.keys(buildClaims(1, { ...signing, audience: () => ['tpp-9'] }, {} as never))).toContain('aud');
    expect(buildClaims(1, { ...signing, audience: [] })).not.toHaveProperty('aud');
  });

  it('verifies signature, algorithm and times, mapping failures to section 7 codes', async () => {
    const tpp = await generateKeyPair('ES256');
    const options = { key: tpp.publicKey, algorithms: ['ES256'] };
    const now = Math.floor(Date.now() / 1000);
    const make = (claims: Record<string, unknown>, key = tpp.privateKey, alg = 'ES256') => new SignJWT(claims).setProtectedHeader({ alg }).sign(key);
    const good = await make({ iss: 't', nbf: now, exp: now + 60, message: { x: 1 } });
    expect((await verifySignedBody(good, options)).claims).toEqual({ iss: 't', nbf: now, exp: now + 60, message: { x: 1 } });

    const kind = async (token: string) => {
      try {
        await verifySignedBody(token, options);
      } catch (error) {
        return (error as SignedBodyError).kind;
      }
      return 'accepted';
    };
    const other = await generateKeyPair('ES256');
    expect(await kind(await make({ iss: 't', nbf: now, exp: now + 60 }, other.privateKey))).toBe('jwsInvalidSignature');
    expect(await kind(await make({ iss: 't', nbf: now, exp: now - 3600 }))).toBe('jwsInvalidClaim');
    expect(await kind(await make({ iss: 't', nbf: now + 3600, exp: now + 7200 }))).toBe('jwsInvalidClaim');
    expect(await kind(await make({ nbf: now, exp: now + 60 }))).toBe('jwsInvalidClaim');
    expect(await kind(await make({ iss: 't', nbf: now, exp: now + 60 }, server.privateKey, 'PS256'))).toBe('jwsInvalidHeader');
    expect(await kind('not.a.jws!')).toBe('jwsMalformed');
    expect(await kind('eyJhbGciOiJub25lIn0.e30.')).toBe('jwsMalformed');
  });
});
