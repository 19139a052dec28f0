/**
 * The mock server's 401s carry the challenge of the schemes an operation accepts (RFC 9110
 * §11.6.1): `Basic realm=...` for HTTP Basic, `Bearer` for a token, both where both are
 * accepted, each once; and a message worded for the credential.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { writeSpec } from '../helpers/generated.js';
import { send } from './support.js';

const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } }, '401': { description: 'Who are you?' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Museum', version: '1' },
  servers: [{ url: 'https://museum.example/api' }],
  components: {
    securitySchemes: {
      staff: { type: 'http', scheme: 'basic' },
      visitor: { type: 'http', scheme: 'bearer' },
      partner: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://museum.example/token', scopes: { archive: 'read the archive' } } } },
    },
  },
  paths: {
    '/staff': { get: { operationId: 'staffPage', security: [{ staff: [] }], responses: ok } },
    '/tickets': { get: { operationId: 'tickets', security: [{ visitor: [] }], responses: ok } },
    '/archive': { get: { operationId: 'archive', security: [{ staff: [] }, { visitor: [] }, { partner: ['archive'] }], responses: ok } },
  },
};

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ spec: await writeSpec(SPEC), port: 0 });
});
afterAll(async () => {
  await server?.close();
});

const get = (target: string, headers: Record<string, string> = {}) => send(server, { method: 'GET', target, headers });

describe('mock server 401 challenges', () => {
  it('asks for HTTP Basic credentials where the operation accepts HTTP Basic', async () => {
    const answer = await get('/staff');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Basic realm="Museum"');
    const accepted = await get('/staff', { authorization: `Basic ${Buffer.from('mock-user:mock-password').toString('base64')}` });
    expect(accepted.status).toBe(200);
  });

  it('says a malformed Basic credential is not valid, without speaking of tokens', async () => {
    const answer = await get('/staff', { authorization: 'Basic !!!' });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Basic realm="Museum"');
  });

  it('asks for a bearer token where the operation accepts one', async () => {
    const answer = await get('/tickets');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Bearer');
    expect(answer.headers['www-authenticate']).not.toContain('Basic');
  });

  it('gives each accepted kind its challenge once where several are accepted', async () => {
    const answer = await get('/archive');
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Basic realm="Museum", Bearer');
  });
});
