/**
 * What the emitters make of OpenAPI 3.1 `webhooks`: validators beside the operations (names
 * that never take an operation's or schema's), the receiver's handler types, security and
 * router in the server stubs, all type-checked together with code that uses them; and
 * nothing at all for a file without webhooks.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { emitServer } from '../src/emit/server/emit-server.js';
import { emitValidators } from '../src/emit/validators/emit-validators.js';
import { buildIR, type BuiltIR } from '../src/ir/build-ir.js';
import type { WebhookIR } from '../src/ir/types.js';
import { verify } from '../src/index.js';
import { scratchDir } from './helpers/generated.js';
import { typeCheckFile } from './helpers/type-check.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/webhooks-3.1.yaml');

const RESPONSE = { '204': { description: 'ok' } };
const BODY = { required: true, content: { 'application/json': { schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } } } };

function built(document: Record<string, unknown>): BuiltIR {
  return buildIR({ source: 'hooks.yaml', document: { openapi: '3.1.0', info: { title: 'Hooks', version: '1' }, paths: {}, ...document }, diagnostics: [] });
}

function files(b: BuiltIR): Record<string, string> {
  const all = [...emitValidators(b.api), ...emitServer(b, { validatorsImport: '../validators/index.js' })];
  return Object.fromEntries(all.map((f) => [f.path, f.contents]));
}

describe('webhooks in the validators', () => {
  it('exports each webhook as <key>Webhook beside the operations, and maps them by key in index.ts', () => {
    const out = files(
      built({
        paths: { '/pets': { get: { operationId: 'newPet', responses: RESPONSE } } },
        webhooks: { newPet: { post: { requestBody: BODY, responses: RESPONSE } } },
      }),
    );
    const ops = out['validators/operations.gen.ts']!;
    expect(ops).toContain('export const newPet = /* @__PURE__ */ (() => ({\n  operationId: "newPet",');
    expect(ops).toContain(
      [
        '/** Webhook newPet: POST to the receiver */',
        'export const newPetWebhook = /* @__PURE__ */ (() => ({',
        '  webhook: "newPet",',
        '  method: "post",',
        '  request: {',
      ].join('\n'),
    );
    const index = out['validators/index.ts']!;
    expect(index).toContain('export const operations: {\n  readonly newPet: typeof O.newPet;\n}');
    expect(index).toContain('export const webhooks: {\n  readonly newPet: typeof O.newPetWebhook;\n} = {\n  newPet: O.newPetWebhook,\n};');
  });

  it('never takes a name something else holds, and says so in the doc comment', () => {
    const out = files(
      built({
        webhooks: { ping: { post: { responses: RESPONSE } } },
        components: { schemas: { pingWebhook: { type: 'string' }, webhooks: { type: 'string' } } },
      }),
    );
    const ops = out['validators/operations.gen.ts']!;
    expect(ops).toContain('/**\n * Webhook ping: POST to the receiver\n *\n * Exported as pingWebhook_2: pingWebhook is the schema pingWebhook.\n */\nexport const pingWebhook_2 =');
    // `webhooks` is the map in index.ts: the schema called so is renamed, with a note.
    expect(out['validators/schemas.gen.ts']).toContain('/** Exported as webhooks_2: webhooks is a name the generated module declares itself. */\nexport type webhooks_2 = string;');
  });

  it('keys a webhook with several methods by <name>.<method>', () => {
    const hooks = built({ webhooks: { pet: { post: { responses: RESPONSE }, put: { responses: RESPONSE } }, 'pet.put': { post: { responses: RESPONSE } } } }).api.webhooks!;
    expect(hooks.map((hook) => hook.key)).toEqual(['pet.put', 'pet.post', 'pet.put_2']);
    const index = files(built({ webhooks: { pet: { post: { responses: RESPONSE }, put: { responses: RESPONSE } } } }))['validators/index.ts']!;
    expect(index).toContain('  "pet.put": O.pet_putWebhook,');
    expect(index).toContain('  "pet.post": O.pet_postWebhook,');
  });
});

describe('webhooks in the server stubs', () => {
  it('prints WebhookHandlers, webhookMeta and createWebhookRouter', () => {
    const out = files(
      built({
        webhooks: {
          ping: { post: { summary: 'Ping', security: [{ Key: [] }], requestBody: BODY, responses: RESPONSE } },
          'pet.gone': { delete: { responses: RESPONSE } },
        },
        components: { securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'x-key' } } },
      }),
    );
    const handlers = out['server/handlers.gen.ts']!;
    expect(handlers).toContain("import type { HandlerReply, HandlerRequest, WebhookReply, WebhookRequest } from '@bank-data-sharing/server-stubs/runtime';");
    expect(handlers).toContain("import type { operations, webhooks } from '../validators/index.js';");
    expect(handlers).toContain(
      [
        'export interface WebhookHandlers {',
        '  /**',
        '   * Webhook ping: POST — Ping',
        '   *',
        '   * Security: Key. Responses: 204.',
        '   */',
        '  ping(request: WebhookRequest<typeof webhooks.ping, true>): WebhookReply<typeof webhooks.ping>;',
        '',
        '  /**',
        '   * Webhook pet.gone: DELETE',
        '   *',
        '   * Security: none. Responses: 204.',
        '   */',
        '  "pet.gone"(',
        '    request: WebhookRequest<(typeof webhooks)["pet.gone"]>,',
        '  ): WebhookReply<(typeof webhooks)["pet.gone"]>;',
        '}',
      ].join('\n'),
    );
    expect(out['server/meta.gen.ts']).toContain(
      'export const webhookMeta = {\n  ping: {\n    security: [{ Key: [] }],\n  },\n  "pet.gone": {\n    security: [],\n  },\n} as const satisfies Record<string, OperationMeta>;',
    );
    const index = out['server/index.ts']!;
    expect(index).toContain("export type { HandlerResultOf, Handlers, WebhookHandlers } from './handlers.gen.js';");
    expect(index).toContain(
      'export function createWebhookRouter(handlers: Partial<WebhookHandlers>, options: WebhookRouterOptions<keyof WebhookHandlers & string> = {}): ApiRouter {\n' +
        '  return createApiWebhookRouter({ api, webhooks, operations, meta: webhookMeta, securitySchemes }, handlers, options);\n}',
    );
    expect(index).toContain("app.use(createWebhookRouter(handlers, { paths: { ping: '/hooks/ping' } }));");
  });

  it('prints nothing about webhooks for a file without them', () => {
    const plain = built({ paths: { '/a': { get: { operationId: 'GetA', responses: RESPONSE } } }, webhooks: {} });
    expect(plain.api.webhooks).toBeUndefined();
    for (const [file, contents] of Object.entries(files(plain))) {
      if (file === 'validators/runtime.gen.ts') continue;
      expect(contents, file).not.toMatch(/webhook/i);
    }
    // The same output as an IR that says so explicitly.
    const explicit: BuiltIR = { ...plain, api: { ...plain.api, webhooks: [] as WebhookIR[] } };
    expect(files(explicit)).toEqual(files(plain));
  });
});

describe('generated webhook code, type-checked', () => {
  it('type-checks, and types handlers from the spec (bodies, headers, statuses)', async () => {
    const dir = await scratchDir();
    const report = await verify({ spec: FIXTURE, keepDir: dir, targets: ['validators', 'server'] });
    expect(report.typeErrors).toEqual([]);
    expect(report.ok).toBe(true);
    await writeFile(
      path.join(dir, 'consumer.ts'),
      [
        "import { createWebhookRouter, type WebhookHandlers } from './server/index.js';",
        "import type { PetEvent } from './validators/index.js';",
        '',
        'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
        'const assert = <T extends true>(): T | undefined => undefined;',
        "type NewPetRequest = Parameters<WebhookHandlers['newPet']>[0];",
        "assert<Same<NewPetRequest['body'], PetEvent>>();",
        "assert<Same<NewPetRequest['headers']['x-signature'], string>>();",
        "assert<Same<Parameters<WebhookHandlers['petRemoved']>[0]['headers']['x-reason'], 'sold' | 'lost' | undefined>>();",
        "assert<Same<Parameters<WebhookHandlers['pet.archived']>[0]['body'], { id: string; [key: string]: unknown } | undefined>>();",
        "assert<Same<Awaited<ReturnType<WebhookHandlers['newPet']>>['status'], 200 | 204 | 400>>();",
        '',
        'export const handlers: WebhookHandlers = {',
        '  newPet: ({ body }) => (body.name ? { status: 200, body: { received: true } } : { status: 204 }),',
        '  petRemoved: () => ({ status: 204 }),',
        "  'pet.archived': () => ({ status: 202 }),",
        '};',
        'export const wrong: Partial<WebhookHandlers> = {',
        '  // @ts-expect-error 201 is not a status the receiver may answer',
        '  newPet: () => ({ status: 201 }),',
        '  // @ts-expect-error the body of 200 is { received: boolean }',
        "  'pet.archived': () => ({ status: 202, body: { received: 'yes' } }),",
        '};',
        "export const router = createWebhookRouter(handlers, { paths: { newPet: '/hooks/new-pet' }, authorize: () => ({ scopes: [] }) });",
        "// @ts-expect-error paths are keyed by webhook",
        "createWebhookRouter(handlers, { paths: { newpet: '/x' } });",
        '',
      ].join('\n'),
    );
    expect(await typeCheckFile(path.join(dir, 'consumer.ts'))).toEqual([]);
  }, 120_000);
});
