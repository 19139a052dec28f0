/**
 * The generated MSW handlers (codegen's `msw` target) under `msw/node`: the validators,
 * client, mocks and handlers of a spec are generated into this package, `setupServer` serves
 * the handlers, and the generated client calls them through `fetch` (which MSW intercepts).
 *
 * MSW 3 needs Node >= 22.12 (it uses `Promise.withResolvers`): on older Node these tests skip,
 * saying why; CI runs them in its Node 22 and 24 phase.
 */
import { createRequire } from 'node:module';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import { objectMembers } from '@bank-data-sharing/wire';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported = major > 22 || (major === 22 && minor >= 12);
if (!supported) {
  console.log(`msw handler tests skipped: MSW 3 needs Node >= 22.12 (Promise.withResolvers), this is Node ${process.version}; CI runs them on Node 22 and 24`);
}

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(packageRoot, '../..');
const oasExamples = path.dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json'));

type Schema = { safeParse(value: unknown): { success: boolean; error?: unknown } };
interface Operation {
  operationId: string;
  method: string;
  path: string;
  request: { path: Schema; query: Schema; body?: { required: boolean; content: Record<string, Schema> } };
  responses: Record<string, { headers: Schema; content: Record<string, Schema> }>;
}
type AnyFunction = (...args: any[]) => any;
interface Generated {
  operations: Record<string, Operation>;
  prefix: string;
  msw: { handlers: unknown[]; mswHandlers: Record<string, AnyFunction>; createHandlers: AnyFunction; pathPrefix: string };
  client: { createClient: AnyFunction; securitySchemes: Record<string, unknown> };
  clientRuntime: { ApiError: new (...args: any[]) => Error };
}

/** Generates the validators, client, mocks and MSW handlers of `spec` under `.generated/<label>` and imports them. */
async function generateApi(spec: string, label: string): Promise<Generated> {
  const dir = path.join(packageRoot, '.generated', label);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const result = await generate({ spec, targets: ['validators', 'client', 'mocks', 'msw'] });
  await writeFiles(dir, result.files, { check: false });
  const [validators, msw, client, clientRuntime] = await Promise.all([
    import(path.join(dir, 'validators/index.ts')),
    import(path.join(dir, 'mocks/msw.ts')),
    import(path.join(dir, 'client/index.ts')),
    import('@bank-data-sharing/client/runtime'),
  ]);
  return { operations: validators.operations, prefix: validators.api.pathPrefix, msw, client, clientRuntime };
}

const CANDIDATES = ['acc-001', '1', 'a1b2c3', 'AB12', '3fa85f64-5717-4562-b3fc-2c963f66afa6', '2024-01-01', 'x'];

/** A value each required member of an object schema accepts (path and query parameters of a GET). */
function requiredValues(schema: Schema, onlyRequired: boolean): Record<string, string> | undefined {
  const members = objectMembers(schema) ?? {};
  const out: Record<string, string> = {};
  for (const [name, member] of Object.entries(members)) {
    if (onlyRequired && (member as Schema).safeParse(undefined).success) continue;
    const value = CANDIDATES.find((c) => (member as Schema).safeParse(c).success);
    if (value === undefined) return undefined;
    out[name] = value;
  }
  return out;
}

function paramsOf(op: Operation): Record<string, unknown> | undefined {
  const pathValues = requiredValues(op.request.path, false);
  const query = requiredValues(op.request.query, true);
  if (!pathValues || !query) return undefined;
  return { ...(Object.keys(pathValues).length > 0 ? { path: pathValues } : {}), ...(Object.keys(query).length > 0 ? { query } : {}) };
}

function jsonSchemaOf(op: Operation, status: string): Schema | undefined {
  const content = op.responses[status]?.content ?? {};
  const type = Object.keys(content).find((t) => /json/.test(t));
  return type === undefined ? undefined : content[type];
}

const specs = [
  { label: 'account-information-v2.2', spec: () => path.join(repoRoot, 'spec/v2.2/account-information.yaml'), origin: 'http://bank.test' },
  { label: 'petstore-expanded', spec: () => path.join(oasExamples, '3.0/json/petstore-expanded.json'), origin: 'http://petstore.test' },
];

describe.skipIf(!supported)('generated MSW handlers, called by the generated client', () => {
  for (const { label, spec, origin } of specs) {
    describe(label, () => {
      let api: Generated;
      let server: { listen(o?: object): void; close(): void; resetHandlers(): void; use(...h: unknown[]): void };
      let client: Record<string, AnyFunction>;

      beforeAll(async () => {
        api = await generateApi(spec(), label);
        const { setupServer } = await import('msw/node');
        server = setupServer(...(api.msw.handlers as Parameters<typeof setupServer>)) as typeof server;
        server.listen({ onUnhandledRequest: 'error' });
        const credentials = Object.fromEntries(Object.keys(api.client.securitySchemes).map((name) => [name, 'mock-token']));
        client = api.client.createClient({ baseUrl: `${origin}${api.prefix}`, fetch: globalThis.fetch, credentials });
      });
      afterEach(() => server?.resetHandlers());
      afterAll(() => server?.close());

      it('answers every GET operation with a valid body', async () => {
        const gets = Object.entries(api.operations).filter(([, op]) => op.method === 'get');
        expect(gets.length).toBeGreaterThan(0);
        let called = 0;
        for (const [name, op] of gets) {
          const params = paramsOf(op);
          if (!params) continue;
          const result = await client[name]!(params);
          called += 1;
          expect(result.status, name).toBeGreaterThanOrEqual(200);
          expect(result.status, name).toBeLessThan(300);
          const schema = jsonSchemaOf(op, String(result.status));
          if (schema) expect(schema.safeParse(result.body).success, name).toBe(true);
        }
        // Every GET of both specs gets parameters the validators accept from CANDIDATES.
        expect(called).toBe(gets.length);
      });

      it('answers with a per-operation override, which reaches the client as its ApiError', async () => {
        const [name, op] = Object.entries(api.operations).find(([, o]) => o.method === 'get' && Object.keys(o.responses).some((k) => /^[45]|default/.test(k)) && paramsOf(o))!;
        const status = Object.keys(op.responses).find((k) => k === '403') ?? Object.keys(op.responses).find((k) => /^[45]|default/.test(k))!;
        server.use(api.msw.mswHandlers[name]!({ status, seed: 3 }));
        const error = await client[name]!(paramsOf(op)).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(api.clientRuntime.ApiError);
        const apiError = error as { status: number; body: unknown };
        expect(String(apiError.status)).toBe(status === 'default' ? '500' : status);
        const schema = jsonSchemaOf(op, status);
        if (schema) expect(schema.safeParse(apiError.body).success).toBe(true);
      });

      it('serves another origin with createHandlers({ baseUrl })', async () => {
        const baseUrl = 'http://elsewhere.test/v9';
        server.use(...(api.msw.createHandlers({ baseUrl }).handlers as unknown[]));
        const credentials = Object.fromEntries(Object.keys(api.client.securitySchemes).map((n) => [n, 'mock-token']));
        const other = api.client.createClient({ baseUrl, fetch: globalThis.fetch, credentials });
        const [name, op] = Object.entries(api.operations).find(([, o]) => o.method === 'get' && paramsOf(o))!;
        const result = await other[name]!(paramsOf(op));
        expect(result.status).toBeLessThan(300);
      });
    });
  }

  describe('bad requests get the declared error body and status', () => {
    let v22: Generated;
    let pets: Generated;
    let server: { listen(o?: object): void; close(): void };
    beforeAll(async () => {
      [v22, pets] = await Promise.all([
        generateApi(specs[0]!.spec(), 'bad-account-information-v2.2'),
        generateApi(specs[1]!.spec(), 'bad-petstore-expanded'),
      ]);
      const { setupServer } = await import('msw/node');
      server = setupServer(...([...v22.msw.handlers, ...pets.msw.handlers] as Parameters<typeof setupServer>));
      server.listen({ onUnhandledRequest: 'error' });
    });
    afterAll(() => server?.close());

    it('a wrong query type: 400 with the declared error schema (petstore default)', async () => {
      const response = await fetch(`http://petstore.test${pets.prefix}/pets?limit=many`);
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(jsonSchemaOf(pets.operations.findPets!, 'default')!.safeParse(body).success).toBe(true);
      expect(JSON.stringify(body)).toContain('limit');
    });

    it('a wrong query type: 400 with the declared Errors envelope (v2.2)', async () => {
      const op = v22.operations.GetAccountsAccountIdTransactions!;
      const url = `http://bank.test${v22.prefix}/accounts/acc-001/transactions?fromBookingDateTime=not-a-date`;
      const response = await fetch(url, { headers: { authorization: 'Bearer mock-token' } });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/json/);
      const body = await response.json();
      expect(jsonSchemaOf(op, '400')!.safeParse(body).success).toBe(true);
      expect(JSON.stringify(body)).toContain('fromBookingDateTime');
    });

    it('a body missing a required member: 400 with the declared error schema', async () => {
      const response = await fetch(`http://petstore.test${pets.prefix}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ tag: 'cat' }) });
      expect(response.status).toBe(400);
      const body = await response.json();
      expect(jsonSchemaOf(pets.operations.addPet!, 'default')!.safeParse(body).success).toBe(true);
      expect(JSON.stringify(body)).toContain('name');
    });

    it('a body that is not JSON: 400, never a crash', async () => {
      const response = await fetch(`http://petstore.test${pets.prefix}/pets`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{ nope' });
      expect(response.status).toBe(400);
      expect(jsonSchemaOf(pets.operations.addPet!, 'default')!.safeParse(await response.json()).success).toBe(true);
    });

    it('no credential at all: the declared 401', async () => {
      const response = await fetch(`http://bank.test${v22.prefix}/accounts`);
      expect(response.status).toBe(401);
      const declared = v22.operations.GetAccounts!.responses['401']!;
      if (Object.keys(declared.content).length === 0) expect(await response.text()).toBe('');
      else expect(jsonSchemaOf(v22.operations.GetAccounts!, '401')!.safeParse(await response.json()).success).toBe(true);
      const ok = await fetch(`http://bank.test${v22.prefix}/accounts`, { headers: { authorization: 'Bearer anything' } });
      expect(ok.status).toBe(200);
    });
  });
});
