/**
 * The generated MSW handlers' 401s carry the challenge of the schemes an operation accepts
 * (RFC 9110 §11.6.1), each once, with a message worded for the credential and a code that asks
 * for an access token only where the operation takes nothing else. Answered through
 * MSW's `getResponse`, which needs no interception (so these run on every Node version).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const error = { type: 'object', required: ['message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };
const responses = {
  '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } },
  '401': { description: 'Who are you?', content: { 'application/json': { schema: error } } },
};
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Museum', version: '1' },
  servers: [{ url: 'https://museum.example/api' }],
  components: {
    securitySchemes: {
      staff: { type: 'http', scheme: 'basic' },
      visitor: { type: 'http', scheme: 'bearer' },
      shop: { type: 'apiKey', in: 'header', name: 'X-Shop-Key' },
    },
  },
  paths: {
    '/staff': { get: { operationId: 'staffPage', security: [{ staff: [] }], responses } },
    '/tickets': { get: { operationId: 'tickets', security: [{ visitor: [] }], responses } },
    '/archive': { get: { operationId: 'archive', security: [{ staff: [] }, { visitor: [] }], responses } },
    '/shop': { get: { operationId: 'shop', security: [{ shop: [] }], responses } },
  },
};

type GetResponse = (handlers: unknown[], request: Request) => Promise<Response | undefined>;
let handlers: unknown[];
let mswHandlers: Record<string, (options?: unknown) => unknown>;
let getResponse: GetResponse;

beforeAll(async () => {
  const dir = path.join(packageRoot, '.generated', 'auth-challenges');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const spec = path.join(dir, 'museum.json');
  await writeFile(spec, JSON.stringify(SPEC));
  const result = await generate({ spec, targets: ['validators', 'mocks', 'msw'] });
  await writeFiles(dir, result.files, { check: false });
  const msw = await import(path.join(dir, 'mocks/msw.ts'));
  ({ handlers, mswHandlers } = msw);
  ({ getResponse } = (await import('msw')) as unknown as { getResponse: GetResponse });
});

async function get(target: string, headers: Record<string, string> = {}, use: unknown[] = handlers): Promise<Response> {
  const response = await getResponse(use, new Request(`https://museum.example/api${target}`, { headers }));
  if (!response) throw new Error(`no handler answered ${target}`);
  return response;
}

describe('MSW 401 challenges', () => {
  it('asks for HTTP Basic credentials where the operation accepts HTTP Basic', async () => {
    const response = await get('/staff');
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="Museum"');
    expect(await response.json()).toEqual({ code: 'Credentials.Missing', message: 'No credentials' });
    expect((await get('/staff', { authorization: 'Basic bW9jay11c2VyOm1vY2stcGFzc3dvcmQ=' })).status).toBe(200);
  });

  it('asks for a bearer token where the operation accepts one', async () => {
    const response = await get('/tickets');
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(await response.json()).toEqual({ code: 'AccessToken.Missing', message: 'No access token' });
  });

  it('gives both challenges, once each, where both are accepted', async () => {
    const response = await get('/archive');
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="Museum", Bearer');
    expect(await response.json()).toEqual({ code: 'Credentials.Missing', message: 'No credentials (send HTTP Basic credentials or an access token)' });
  });

  it('names where an API key goes', async () => {
    const response = await get('/shop');
    expect(response.headers.get('www-authenticate')).toBe('ApiKey realm="Museum", in="header", name="X-Shop-Key"');
    expect(await response.json()).toEqual({ code: 'Credentials.Missing', message: 'No API key in header X-Shop-Key' });
  });

  it('adds the challenge to a 401 mock asked for by status', async () => {
    const response = await get('/staff', { authorization: 'Basic bW9jay11c2VyOm1vY2stcGFzc3dvcmQ=' }, [mswHandlers.staffPage!({ status: '401' })]);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="Museum"');
  });
});
