/**
 * `text/json` is JSON, as the server stubs read and write it (`bodyKind`): the client writes a
 * request body of that type as JSON text and reads an answer of that type as a JSON value,
 * checked against its schema, for an API that declares no other JSON media type. A JSON request
 * body is checked before it is sent.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestValidationError, ResponseValidationError, type CallOptions, type ClientOptions } from '../src/runtime/index.js';
import { generateInto, importClient, packageRoot, type GeneratedOutput } from './helpers/generated-client.js';
import { startServer, type TestServer } from './helpers/server.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1.0.0' },
  security: [{ bearer: [] }],
  paths: {
    '/notes': {
      post: {
        operationId: 'addNote',
        requestBody: { required: true, content: { 'text/json': { schema: { $ref: '#/components/schemas/Note' } } } },
        responses: { '201': { description: 'added', content: { 'text/json': { schema: { $ref: '#/components/schemas/Note' } } } } },
      },
    },
  },
  components: {
    securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    schemas: {
      Note: { type: 'object', required: ['text'], additionalProperties: false, properties: { text: { type: 'string' }, stars: { type: 'integer' }, when: { type: 'string', format: 'date-time' } } },
    },
  },
};

type Result = { status: number; body: unknown };
interface NotesModule {
  createClient(options: ClientOptions): { addNote(input: { body: unknown }, options?: CallOptions): Promise<Result> };
}

let output: GeneratedOutput;
/** How often the bearer credential was asked for. */
let credentialCalls = 0;
const clientOf = () =>
  notes.createClient({
    baseUrl: server.origin,
    retry: false,
    credentials: {
      bearer: () => {
        credentialCalls++;
        return 'token-1';
      },
    },
  } as ClientOptions);
let notes: NotesModule;
let server: TestServer;

beforeAll(async () => {
  const spec = path.join(packageRoot, '.test-output', 'text-json.json');
  await writeFile(spec, JSON.stringify(SPEC));
  output = await generateInto(spec, 'text-json');
  notes = await importClient<NotesModule>(output);
  server = await startServer((request) =>
    request.body.includes('"bad"')
      ? { status: 201, headers: { 'content-type': 'text/json' }, body: JSON.stringify({ stars: 'many' }) }
      : { status: 201, headers: { 'content-type': 'text/json; charset=utf-8' }, body: request.body },
  );
}, 120_000);
afterAll(async () => {
  await server?.close();
  await output?.remove();
});

describe('a text/json body', () => {
  it('is sent as JSON text and its answer read as a JSON value', async () => {
    const client = clientOf();
    const result = await client.addNote({ body: { text: 'hello', stars: 3 } });
    expect(server.requests.at(-1)!.headers['content-type']).toBe('text/json');
    expect(server.requests.at(-1)!.headers['authorization']).toBe('Bearer token-1');
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ text: 'hello', stars: 3 });
    expect(result).toMatchObject({ status: 201, body: { text: 'hello', stars: 3 } });
  });

  it('is checked against its schema both ways: a body that does not fit is not sent, an answer that does not fit is refused', async () => {
    const client = clientOf();
    const sent = server.requests.length;
    const asked = credentialCalls;
    const refused = await client.addNote({ body: { stars: 1 } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as RequestValidationError).issues).toEqual([expect.stringMatching(/^text: /)]);
    // Refused before anything else: no request, and no credential asked for.
    expect(server.requests.length).toBe(sent);
    expect(credentialCalls).toBe(asked);
    // Validation off: sent as given, and the server's echo read without a check.
    await expect(client.addNote({ body: { stars: 1 } }, { validate: false })).resolves.toMatchObject({ status: 201, body: { stars: 1 } });
    expect(server.requests.length).toBe(sent + 1);
    const answer = await client.addNote({ body: { text: 'bad' } }).catch((error: unknown) => error);
    expect(server.requests.length).toBe(sent + 2);
    expect(answer).toBeInstanceOf(ResponseValidationError);
    expect((answer as ResponseValidationError).issues.join('; ')).toMatch(/stars/);
  });

  it('is judged by what its JSON text carries: a Date is sent as its string, an undefined member is left out', async () => {
    const client = clientOf();
    const when = new Date(Date.UTC(2025, 2, 14, 9, 30));
    const result = await client.addNote({ body: { text: 'dated', when, stars: undefined } });
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ text: 'dated', when: '2025-03-14T09:30:00.000Z' });
    expect(result).toMatchObject({ status: 201, body: { text: 'dated', when: '2025-03-14T09:30:00.000Z' } });
    // An invalid Date is written as null: refused, naming the member.
    const sent = server.requests.length;
    const refused = await client.addNote({ body: { text: 'undated', when: new Date(Number.NaN) } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as RequestValidationError).issues).toEqual([expect.stringMatching(/^when: /)]);
    expect(server.requests.length).toBe(sent);
  });
});
