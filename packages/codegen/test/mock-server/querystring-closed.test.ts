/**
 * The mock server on an OpenAPI 3.2 form-encoded `querystring` whose object is closed: a name
 * the object does not declare is answered 400 naming it, as the generated router answers
 * (server-stubs' querystring-closed test); a request of its own members gets the mock.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';

const SPEC = {
  openapi: '3.2.0',
  info: { title: 'Closed query string', version: '1' },
  paths: {
    '/quotes': {
      get: {
        operationId: 'filterQuotes',
        parameters: [
          {
            name: 'filter',
            in: 'querystring',
            content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: false, properties: { symbol: { type: 'string' } } } } },
          },
        ],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } } },
      },
    },
  },
};

let server: MockServer;

beforeAll(async () => {
  const spec = path.join(await scratchDir('querystring-closed'), 'closed.json');
  await writeFile(spec, JSON.stringify(SPEC));
  server = await startMockServer({ spec, port: 0, onError: () => {} });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeScratchDirs();
});

describe('a closed form querystring on the mock server', () => {
  it('answers a name the object does not declare 400, naming it', async () => {
    const bad = await fetch(`${server.url}/quotes?symbol=ABC&colour=red`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('colour');
    expect((await fetch(`${server.url}/quotes?symbol=ABC`)).status).toBe(200);
  });
});
