/**
 * An operation that documents no response at all: OpenAPI 3.1 lets `responses` be left out
 * (ReadMe's parameter-style examples do, on every operation). There is no status to hold the
 * answer to, so a 2xx is handed back as received, not refused as undocumented. An operation
 * that documents some responses still refuses a status it does not document.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseValidationError, type ClientOptions } from '../src/runtime/index.js';
import { generateInto, importClient, packageRoot, type GeneratedOutput } from './helpers/generated-client.js';
import { startServer, type TestServer } from './helpers/server.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Anything', version: '1.0.0' },
  paths: {
    '/anything/query': { get: { operationId: 'queryStandard', parameters: [{ name: 'primitive', in: 'query', schema: { type: 'string' } }] } },
    '/anything/documented': { get: { operationId: 'documented', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } } } },
  },
};

type Result = { status: number; body: unknown; contentType?: string };
interface AnythingModule {
  createClient(options: ClientOptions): {
    queryStandard(input?: { query?: { primitive?: string } }): Promise<Result>;
    documented(input?: object): Promise<Result>;
  };
}

let output: GeneratedOutput;
let anything: AnythingModule;
let server: TestServer;

beforeAll(async () => {
  const spec = path.join(packageRoot, '.test-output', 'no-responses.json');
  await writeFile(spec, JSON.stringify(SPEC));
  output = await generateInto(spec, 'no-responses');
  anything = await importClient<AnythingModule>(output);
  server = await startServer((request) =>
    request.url.includes('primitive=json') ? { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ echoed: true }) } : { status: 204 },
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
  await output?.remove();
});

describe('an operation that documents no response', () => {
  it('hands back a 2xx as received: an empty 204, and a JSON 200 read as JSON', async () => {
    const client = anything.createClient({ baseUrl: server.origin, retry: false });
    await expect(client.queryStandard({ query: { primitive: 'a' } })).resolves.toMatchObject({ status: 204 });
    await expect(client.queryStandard({ query: { primitive: 'json' } })).resolves.toMatchObject({ status: 200, body: { echoed: true } });
  });

  it('leaves the check of an operation that documents responses as it was: an undocumented 204 is refused', async () => {
    const client = anything.createClient({ baseUrl: server.origin, retry: false });
    const error = await client.documented().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues).toEqual(['HTTP 204 is not a documented response']);
  });
});
