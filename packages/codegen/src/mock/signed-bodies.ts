/**
 * Signed (`application/jwt`) request bodies sent to the mock. A mock knows no client keys,
 * so it checks them with one shared secret that anyone may use (HS256): clients can
 * exercise those operations without a key pair, and a body that is not a well-formed,
 * in-date JWS still gets the publisher's 400. Responses are never signed.
 */
import { createHmac } from 'node:crypto';

/** The HS256 secret signed request bodies must be signed with. */
export const MOCK_JWS_SECRET = 'bds-codegen-mock-server-shared-secret';

/** The server runtime's `VerificationOptions` for the mock. */
export function mockVerification(): { key: Uint8Array; algorithms: string[] } {
  return { key: new TextEncoder().encode(MOCK_JWS_SECRET), algorithms: ['HS256'] };
}

/** The server runtime's `SigningOptions` for a mock that signs its answers with the same secret. */
export function mockSigning(): { key: Uint8Array; alg: string; issuer: string } {
  return { key: new TextEncoder().encode(MOCK_JWS_SECRET), alg: 'HS256', issuer: 'codegen-mock' };
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/**
 * A compact JWS of `claims` the mock accepts. `iss`, `exp` and `nbf` (which every signed
 * body must carry) are added when absent: now, and five minutes from now.
 *
 * @example
 * await fetch(url, { method: 'POST', headers: { 'content-type': 'application/jwt' }, body: signForMock({ message: { Data: {} } }) });
 */
export function signForMock(claims: Record<string, unknown>): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: 'mock-client', nbf: now, iat: now, exp: now + 300, ...claims };
  const input = `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(payload))}`;
  return `${input}.${createHmac('sha256', MOCK_JWS_SECRET).update(input).digest('base64url')}`;
}
