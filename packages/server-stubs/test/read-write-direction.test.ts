/**
 * readOnly and writeOnly by direction, end to end over loopback, for an OpenAPI 3.0 and a 3.1
 * document: a schema used for both a create request and its response, with `id` readOnly and
 * `password` writeOnly, both required. The generated client creates without `id` and the
 * generated server accepts it; the handler replies without `password` and both the server and
 * the client accept the answer; a reply that carries `password` is never sent (500 naming it),
 * and a client refuses an answer that carries it. A strict type-check of such calls: the
 * client's body type does not demand `id`, the handler's reply type does not demand `password`
 * (and refuses it).
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, generatedCodeCompilerOptions, writeFiles, type GenerateOptions } from '@bank-data-sharing/codegen';
import type { ApiRouter, RouterOptions } from '../src/runtime/index.js';
import { listen, send, type Running } from './helpers/http.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUTPUT = path.join(PACKAGE_ROOT, '.test-output', 'read-write-direction');
const CLIENT_RUNTIME = path.resolve(PACKAGE_ROOT, '../client/src/runtime/index.ts');

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function spec(openapi: string): Record<string, unknown> {
  return {
    openapi,
    info: { title: 'Users', version: '1' },
    servers: [{ url: 'http://localhost/v1' }],
    paths: {
      '/users': {
        post: {
          operationId: 'createUser',
          requestBody: { required: true, content: { 'application/json': { schema: ref('User') } } },
          responses: { '201': { description: 'created', content: { 'application/json': { schema: ref('User') } } } },
        },
      },
    },
    components: {
      schemas: {
        User: {
          type: 'object',
          required: ['id', 'name', 'password'],
          properties: {
            id: { type: 'string', readOnly: true },
            name: { type: 'string' },
            password: { type: 'string', writeOnly: true },
            // Nested and through a reference: the rule applies at every depth.
            address: ref('Address'),
          },
        },
        Address: {
          type: 'object',
          required: ['line', 'verifiedAt'],
          properties: { line: { type: 'string' }, verifiedAt: { type: 'string', readOnly: true } },
        },
      },
    },
  };
}

type CreateRouter = (handlers: object, options?: RouterOptions) => ApiRouter;
interface ClientError extends Error {
  readonly name: string;
}
type CreateUser = (params: { body: unknown }) => Promise<{ status: number; body: unknown }>;
type CreateClient = (options: { origin: string }) => { createUser: CreateUser };

/** Generates server and client into `dir`; the client's runtime is this repository's source. */
async function generated(dir: string, openapi: string, options: Partial<GenerateOptions> = {}): Promise<{ createRouter: CreateRouter; createClient: CreateClient }> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, 'users.json');
  await writeFile(file, JSON.stringify(spec(openapi)));
  const result = await generate({ spec: file, targets: ['validators', 'server', 'client'], ...options });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
  const files = result.files.map((f) =>
    f.path === 'client/index.ts' ? { ...f, contents: f.contents.replace("'@bank-data-sharing/client/runtime'", JSON.stringify(path.relative(path.join(dir, 'out/client'), CLIENT_RUNTIME))) } : f,
  );
  await writeFiles(path.join(dir, 'out'), files, { check: false });
  const { createRouter } = (await import(/* @vite-ignore */ path.join(dir, 'out/server/index.ts'))) as { createRouter: CreateRouter };
  const { createClient } = (await import(/* @vite-ignore */ path.join(dir, 'out/client/index.ts'))) as { createClient: CreateClient };
  return { createRouter, createClient };
}

afterAll(() => rm(OUTPUT, { recursive: true, force: true }));

describe.each(['3.0.3', '3.1.0'])('readOnly and writeOnly by direction over loopback (OpenAPI %s)', (openapi) => {
  const dir = path.join(OUTPUT, openapi.replace(/\./g, '_'));
  let running: Running;
  let unchecked: Running;
  let createClient: CreateClient;
  const bodies: unknown[] = [];
  const errors: Array<{ phase: string; issues?: unknown }> = [];
  let reply: unknown;

  beforeAll(async () => {
    const made = await generated(dir, openapi);
    createClient = made.createClient;
    const handlers = {
      createUser: ({ body }: { body: unknown }) => {
        bodies.push(body);
        return { status: 201, body: reply };
      },
    };
    const app = express();
    app.use(made.createRouter(handlers, { onError: (_error: unknown, context: { phase: string; issues?: unknown }) => void errors.push(context) }));
    running = await listen(app);
    // A server that does not validate its answers: what a client receives from a careless one.
    const careless = express();
    careless.use(made.createRouter(handlers, { validateResponses: false, onError: () => undefined }));
    unchecked = await listen(careless);
  });
  afterAll(async () => {
    await running?.close();
    await unchecked?.close();
  });

  const post = (body: unknown) =>
    send(`${running.origin}/v1/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('the client creates without the readOnly members; the server accepts it; the reply without the writeOnly member is accepted by both', async () => {
    reply = { id: 'u-1', name: 'Ada', address: { line: '1 Main St', verifiedAt: '2026-01-01' } };
    const client = createClient({ origin: running.origin });
    const result = await client.createUser({ body: { name: 'Ada', password: 'secret', address: { line: '1 Main St' } } });
    expect([result.status, result.body]).toStrictEqual([201, reply]);
    expect(bodies.at(-1)).toStrictEqual({ name: 'Ada', password: 'secret', address: { line: '1 Main St' } });
  });

  it('accepts a request that carries a readOnly member (the default: ignored)', async () => {
    reply = { id: 'u-2', name: 'Bo' };
    const answer = await post({ id: 'client-chosen', name: 'Bo', password: 'pw' });
    expect(answer.status).toBe(201);
    expect(bodies.at(-1)).toMatchObject({ id: 'client-chosen' });
  });

  it('still requires what is neither readOnly nor writeOnly, and writeOnly members in requests', async () => {
    expect((await post({ password: 'pw' })).status).toBe(400);
    const noPassword = await post({ name: 'Cy' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.text).toContain('password');
  });

  it('never sends a writeOnly member: a reply that carries one is answered 500, naming it', async () => {
    reply = { id: 'u-3', name: 'Di', password: 'leaked' };
    errors.length = 0;
    const answer = await post({ name: 'Di', password: 'pw' });
    expect(answer.status).toBe(500);
    expect(answer.text).not.toContain('leaked');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.phase).toBe('response');
    expect(JSON.stringify(errors[0]!.issues)).toContain('password');
  });

  it('the client refuses an answer that carries a writeOnly member', async () => {
    reply = { id: 'u-4', name: 'Ed', password: 'leaked' };
    const client = createClient({ origin: unchecked.origin });
    const error = (await client.createUser({ body: { name: 'Ed', password: 'pw' } }).catch((e: unknown) => e)) as ClientError;
    expect(error.name).toBe('ResponseValidationError');
    expect(error.message).toContain('password');
  });

  it('type-checks strictly: the client body does not demand id, the handler reply does not demand password and may not carry it', async () => {
    const consumer = path.join(dir, 'consumer.ts');
    await writeFile(
      consumer,
      [
        "import { createClient } from './out/client/index.js';",
        "import type { Handlers } from './out/server/index.js';",
        "import type { User, UserRequest, UserResponse } from './out/validators/index.js';",
        '',
        'export async function create(origin: string): Promise<string> {',
        '  const client = createClient({ origin });',
        "  const created = await client.createUser({ body: { name: 'Ada', password: 'secret', address: { line: 'x' } } });",
        '  const id: string = created.body.id;',
        '  // @ts-expect-error a response never carries the writeOnly password',
        '  const password: string = created.body.password;',
        '  return id + String(password);',
        '}',
        '',
        'export async function createWithoutPassword(origin: string): Promise<void> {',
        '  // @ts-expect-error password is required in requests',
        "  await createClient({ origin }).createUser({ body: { name: 'Ada' } });",
        '}',
        '',
        'export const handlers: Handlers = {',
        '  createUser: ({ body }) => {',
        '    const password: string = body.password;',
        '    const id: string | undefined = body.id;',
        "    return { status: 201, body: { id: id ?? 'u-1', name: body.name + password.length } };",
        '  },',
        '};',
        '',
        'export const leaky: Handlers = {',
        '  // @ts-expect-error a reply may not carry the writeOnly password',
        "  createUser: ({ body }) => ({ status: 201, body: { id: 'u-1', name: body.name, password: body.password } }),",
        '};',
        '',
        '// The component schema stays as written; the variants are exported beside it.',
        "export const asWritten: User = { id: 'u', name: 'n', password: 'p' };",
        "export const request: UserRequest = { name: 'n', password: 'p' };",
        "export const response: UserResponse = { id: 'u', name: 'n' };",
        '// @ts-expect-error the component schema as written requires id',
        "export const missingId: User = { name: 'n', password: 'p' };",
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([consumer], {
      ...generatedCodeCompilerOptions(ts),
      // The client's runtime is imported from its source (see `generated`).
      allowImportingTsExtensions: true,
      noEmit: true,
      paths: { '@bank-data-sharing/server-stubs/runtime': [path.join(PACKAGE_ROOT, 'src/runtime/index.ts')] },
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(diagnostics).toStrictEqual([]);
  }, 120_000);
});

describe('plain JSON Schema (OpenAPI 3.1, readWrite: json-schema)', () => {
  it('reads readOnly and writeOnly as annotations only: a create without the readOnly member is refused', async () => {
    const made = await generated(path.join(OUTPUT, 'json-schema'), '3.1.0', { readWrite: 'json-schema' });
    const app = express();
    app.use(made.createRouter({ createUser: () => ({ status: 201, body: { id: 'u', name: 'n', password: 'p' } }) }, { onError: () => undefined }));
    const running = await listen(app);
    try {
      const post = (body: unknown) =>
        send(`${running.origin}/v1/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const refused = await post({ name: 'n', password: 'p' });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('id');
      expect((await post({ id: 'u', name: 'n', password: 'p' })).status).toBe(201);
    } finally {
      await running.close();
    }
  });
});

describe('the options: readOnlyInRequest refuse, writeOnlyInResponse accept (OpenAPI 3.0)', () => {
  it('refuses a request that carries a readOnly member with 400 naming it, and sends a writeOnly member', async () => {
    const made = await generated(path.join(OUTPUT, 'options'), '3.0.3', { readOnlyInRequest: 'refuse', writeOnlyInResponse: 'accept' });
    const app = express();
    app.use(made.createRouter({ createUser: () => ({ status: 201, body: { id: 'u', name: 'n', password: 'p' } }) }, { onError: () => undefined }));
    const running = await listen(app);
    try {
      const post = (body: unknown) =>
        send(`${running.origin}/v1/users`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const refused = await post({ id: 'mine', name: 'n', password: 'p' });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('id');
      const nested = await post({ name: 'n', password: 'p', address: { line: 'l', verifiedAt: 'now' } });
      expect(nested.status).toBe(400);
      expect(nested.text).toContain('verifiedAt');
      const created = await post({ name: 'n', password: 'p' });
      expect([created.status, created.json()]).toStrictEqual([201, { id: 'u', name: 'n', password: 'p' }]);
    } finally {
      await running.close();
    }
  });
});
