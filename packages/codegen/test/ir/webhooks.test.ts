/**
 * OpenAPI 3.1 `webhooks` in the IR: one entry per webhook operation, apart from `operations`,
 * named by its key, with a pointer into `#/webhooks`; path items behind `$ref`
 * (`components.pathItems`) resolve; what cannot be read is named in a diagnostic.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import { loadSpec } from '../../src/load/load-spec.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/webhooks-3.1.yaml');

function build(document: Record<string, unknown>) {
  return buildIR({ source: 'x.yaml', document: { openapi: '3.1.0', info: { title: 'T', version: '1' }, ...document }, diagnostics: [] });
}

describe('webhooks in the IR', () => {
  it('reads every webhook operation of the fixture, kept apart from the operations', async () => {
    const { api, examples } = buildIR(await loadSpec(FIXTURE));
    expect(api.operations.map((op) => op.operationId)).toEqual(['newPet']);
    const summary = api.webhooks?.map((w) => ({
      name: w.name,
      method: w.method,
      pointer: w.pointer,
      parameters: w.parameters.map((p) => `${p.in}:${p.name}:${p.required}`),
      body: w.requestBody?.required,
      media: w.requestBody?.content.map((m) => m.contentType),
      responses: w.responses.map((r) => r.status),
      security: w.security,
      operationId: w.operationId,
    }));
    expect(summary).toEqual([
      {
        name: 'newPet',
        method: 'post',
        pointer: '#/webhooks/newPet/post',
        parameters: ['header:X-Signature:true'],
        body: true,
        media: ['application/json'],
        responses: ['200', '204', '400'],
        // The document's default security describes calls to the API, not to the receiver.
        security: [],
        operationId: undefined,
      },
      {
        name: 'petRemoved',
        method: 'delete',
        pointer: '#/webhooks/petRemoved/delete',
        parameters: ['header:X-Reason:false'],
        body: true,
        media: ['application/json'],
        responses: ['204', '400'],
        security: [],
        operationId: undefined,
      },
      {
        name: 'pet.archived',
        method: 'post',
        pointer: '#/webhooks/pet.archived/post',
        parameters: [],
        body: false,
        media: ['application/json'],
        responses: ['202'],
        security: [{ HookKey: [] }],
        operationId: 'archivedHook',
      },
    ]);
    // The body of a webhook reached through components.pathItems is a real schema, not a stub.
    const removed = api.webhooks?.find((w) => w.name === 'petRemoved');
    expect(removed?.requestBody?.content[0]?.schema).toMatchObject({ kind: 'object', properties: [{ name: 'id', required: true }] });
    const newPet = api.webhooks?.[0];
    expect(newPet?.requestBody?.content[0]?.schema).toMatchObject({ kind: 'ref', name: 'PetEvent' });
    // Its example is checked by `verify` like any other.
    expect(examples.map((e) => e.pointer)).toContain('#/webhooks/newPet/post/requestBody/content/application~1json/example');
  });

  it('names what it does not generate, by pointer', async () => {
    const { api } = buildIR(await loadSpec(FIXTURE));
    const notes = api.diagnostics.filter((d) => d.pointer.startsWith('#/webhooks')).map((d) => [d.code, d.pointer]);
    expect(notes).toEqual([
      ['unsupported-webhook-member', '#/webhooks/pet.archived/connect'],
      ['empty-webhook', '#/webhooks/nothing'],
    ]);
    expect(api.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('reports unresolved and malformed webhooks instead of dropping them silently', () => {
    const { api } = build({
      webhooks: {
        gone: { $ref: '#/components/pathItems/Missing' },
        odd: 'not a path item',
        bad: { post: 'not an operation' },
        withPath: { post: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } } },
      },
    });
    expect(api.webhooks?.map((w) => w.name)).toEqual(['withPath']);
    // A webhook has no path: its path parameter is not kept (it would refuse every delivery).
    expect(api.webhooks?.[0]?.parameters).toEqual([]);
    expect(api.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toEqual([
      ['error', 'unresolved-ref', '#/webhooks/gone'],
      ['warning', 'empty-webhook', '#/webhooks/gone'],
      ['warning', 'invalid-webhook', '#/webhooks/odd'],
      ['warning', 'invalid-webhook', '#/webhooks/bad/post'],
      ['warning', 'empty-webhook', '#/webhooks/bad'],
      ['warning', 'webhook-path-parameter', '#/webhooks/withPath/post'],
    ]);
  });

  it('notes a webhooks member that is not a map, and webhooks in a 3.0 file (read anyway)', () => {
    expect(build({ webhooks: [] }).api.diagnostics.map((d) => [d.code, d.pointer])).toEqual([['invalid-webhooks', '#/webhooks']]);
    const old = buildIR({
      source: 'x.yaml',
      document: { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {}, webhooks: { ping: { post: { responses: { '204': { description: 'ok' } } } } } },
      diagnostics: [],
    }).api;
    expect(old.webhooks?.map((w) => w.name)).toEqual(['ping']);
    expect(old.diagnostics.map((d) => [d.code, d.pointer])).toEqual([['webhooks-in-3.0', '#/webhooks']]);
  });

  it('names the callbacks of a webhook, which are not generated, and keeps the webhook', () => {
    const { api } = build({ webhooks: { ping: { post: { callbacks: { later: {} }, responses: { '204': { description: 'ok' } } } } } });
    expect(api.webhooks?.map((w) => w.key)).toEqual(['ping']);
    expect(api.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toEqual([['warning', 'unsupported-callbacks', '#/webhooks/ping/post/callbacks']]);
  });

  it('leaves the IR of a file without webhooks as it was (no webhooks member)', () => {
    expect('webhooks' in build({ paths: {} }).api).toBe(false);
    expect('webhooks' in build({ paths: {}, webhooks: {} }).api).toBe(false);
  });
});
