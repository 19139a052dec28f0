/**
 * `signAnswers`: the mock answers application/jwt too, as HS256 JWS with its published secret,
 * the router's claims around the mock's message; an operation that answers only signed bodies
 * is then answered, not refused 406.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_JWS_SECRET, startMockServer, type MockServer } from '../../src/index.js';
import { OWN_SPEC, sampled, send } from './support.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ spec: OWN_SPEC, port: 0, seed: 3, signAnswers: true });
});
afterAll(() => server.close());

describe('a mock server that signs its answers', () => {
  it('answers an operation that offers only application/jwt with a JWS that verifies and validates', async () => {
    expect(server.signedOnly).toEqual([]);
    const answer = await send(server, sampled(server, 'CreateAccountAccessConsentAttestation'));
    expect(answer.status, answer.text.slice(0, 300)).toBe(201);
    expect(answer.contentType).toMatch(/^application\/jwt/);
    const [header, payload, signature] = answer.text.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toMatchObject({ alg: 'HS256', typ: 'JWT' });
    expect(createHmac('sha256', MOCK_JWS_SECRET).update(`${header}.${payload}`).digest('base64url')).toBe(signature);
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: 'codegen-mock', message: expect.any(Object) });
    // The claims are what the file declares for the signed answer.
    const schema = server.schemas.CreateAccountAccessConsentAttestation!.responses['201']!.content['application/jwt']!;
    expect(schema.safeParse(claims).success).toBe(true);
  });

  it('still answers JSON where the request asks for it', async () => {
    const answer = await send(server, sampled(server, 'GetAccounts', { accept: 'application/json' }));
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
  });
});
