/**
 * Headers that frame the message belong to the transport. Some files declare
 * `Content-Length` as a header parameter (Mojaloop's FSPIOP API does, on every operation),
 * so a caller may pass one. A value that contradicts the body made the transport refuse the
 * request outright, as a network failure. It is now dropped and written from the body, as are
 * `Transfer-Encoding` and the connection's own headers. Over loopback, with the generated client.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallOptions, ClientOptions } from '../src/runtime/index.js';
import { generateInto, importClient, packageRoot, type GeneratedOutput } from './helpers/generated-client.js';
import { startServer, type TestServer } from './helpers/server.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Transfers', version: '1.0.0' },
  paths: {
    '/transfers': {
      parameters: [
        { name: 'Content-Length', in: 'header', required: false, schema: { type: 'integer' } },
        { name: 'FSPIOP-Source', in: 'header', required: true, schema: { type: 'string' } },
      ],
      post: {
        operationId: 'postTransfer',
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['amount'], properties: { amount: { type: 'string' } } } } } },
        responses: { '202': { description: 'accepted' } },
      },
      get: { operationId: 'listTransfers', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } } },
    },
  },
};

type Result = { status: number };
type Headers = Record<string, string | number>;
interface TransfersModule {
  createClient(options: ClientOptions): {
    postTransfer(input: { headers: Headers; body: unknown }, options?: CallOptions): Promise<Result>;
    listTransfers(input: { headers: Headers }, options?: CallOptions): Promise<Result>;
  };
}

let output: GeneratedOutput;
let transfers: TransfersModule;
let server: TestServer;

beforeAll(async () => {
  const spec = path.join(packageRoot, '.test-output', 'transport-headers.json');
  await writeFile(spec, JSON.stringify(SPEC));
  output = await generateInto(spec, 'transport-headers');
  transfers = await importClient<TransfersModule>(output);
  server = await startServer((request) => (request.method === 'GET' ? { status: 200, body: ['t1'] } : { status: 202 }));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await output?.remove();
});

describe('headers that frame the message', () => {
  it("drop a caller's Content-Length that contradicts the body: the body arrives whole, with its own length", async () => {
    const client = transfers.createClient({ baseUrl: server.origin, retry: false });
    const result = await client.postTransfer({ headers: { 'Content-Length': 3, 'FSPIOP-Source': 'payer-fsp' }, body: { amount: '100.25' } });
    expect(result.status).toBe(202);
    const received = server.requests.at(-1)!;
    expect(JSON.parse(received.body)).toEqual({ amount: '100.25' });
    expect(received.headers['content-length']).toBe(String(Buffer.byteLength(received.body)));
    expect(received.headers['fspiop-source']).toBe('payer-fsp');
  });

  it('drop Transfer-Encoding and connection headers given in the call options or the client options', async () => {
    const client = transfers.createClient({ baseUrl: server.origin, retry: false, headers: { Connection: 'close', Upgrade: 'websocket' } } as ClientOptions);
    const result = await client.postTransfer({ headers: { 'FSPIOP-Source': 'payer-fsp' }, body: { amount: '1' } }, { headers: { 'Transfer-Encoding': 'chunked', 'Keep-Alive': 'timeout=5' } });
    expect(result.status).toBe(202);
    const received = server.requests.at(-1)!;
    expect(JSON.parse(received.body)).toEqual({ amount: '1' });
    expect(received.headers['transfer-encoding']).toBeUndefined();
    expect(received.headers['upgrade']).toBeUndefined();
    expect(received.headers['keep-alive']).toBeUndefined();
  });

  it('send no Content-Length of the caller on a request without a body', async () => {
    const client = transfers.createClient({ baseUrl: server.origin, retry: false });
    await expect(client.listTransfers({ headers: { 'Content-Length': 42, 'FSPIOP-Source': 'payer-fsp' } })).resolves.toMatchObject({ status: 200 });
    expect(server.requests.at(-1)!.headers['content-length']).not.toBe('42');
  });
});
