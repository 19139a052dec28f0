import { spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import { diffApis, type ApiChange } from '../../src/diff/diff-apis.js';
import { buildChangelog } from '../../src/workspace/changelog.js';
import { scratchDir } from '../helpers/generated.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codegen.mjs');

const json = (ref: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } });

/** Item is read in a response (GET /items/{id}) and written in a request (POST /items). */
function doc(options: { version: string; prefix: string; itemProps: Record<string, unknown>; required?: string[] }) {
  return {
    openapi: '3.0.3',
    info: { title: 'Shop', version: options.version },
    servers: [{ url: options.prefix }],
    paths: {
      '/items/{id}': {
        get: {
          operationId: 'GetItem',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' } }],
          responses: { '200': { description: 'ok', content: json('ItemPage') } },
        },
      },
      '/items': { post: { operationId: 'PostItem', requestBody: { required: true, content: json('Item') }, responses: { '201': { description: 'made' } } } },
    },
    components: {
      schemas: {
        Id: { type: 'string', maxLength: 10 },
        Item: { type: 'object', additionalProperties: false, required: options.required ?? ['name'], properties: options.itemProps },
        ItemPage: { type: 'object', properties: { Data: { $ref: '#/components/schemas/Item' } } },
      },
    },
  };
}

const before = doc({ version: '1', prefix: '/shop/v1', itemProps: { name: { type: 'string' } } });
const after = {
  ...doc({ version: '2', prefix: '/shop/v2', itemProps: { name: { type: 'string' }, colour: { type: 'string' } } }),
};
(after.components.schemas.Id as { maxLength: number }).maxLength = 5;

const ir = (document: unknown) => buildIR({ source: 'x.yaml', document: document as Record<string, unknown>, diagnostics: [] }).api;

function find(changes: ApiChange[], location: string, changePath?: string): ApiChange {
  const found = changes.find((c) => c.location === location && c.path === changePath);
  if (!found) throw new Error(`no change at ${location} ${changePath ?? ''}`);
  return found;
}

describe('the version diff, by operation and place', () => {
  const diff = diffApis(ir(before), ir(after));

  it('lists the operations and places each schema change reaches', () => {
    const colour = find(diff.changes, 'schema Item', 'colour');
    expect(colour.reaches).toStrictEqual([
      { operationId: 'GetItem', method: 'GET', path: '/items/{id}', place: 'response 200 body application/json' },
      { operationId: 'PostItem', method: 'POST', path: '/items', place: 'request body application/json' },
    ]);
    expect(find(diff.changes, 'schema Id').reaches).toStrictEqual([{ operationId: 'GetItem', method: 'GET', path: '/items/{id}', place: 'parameter path id' }]);
  });

  it('gives JSON pointers on both sides of every change', () => {
    for (const change of diff.changes) {
      expect(change.pointers.from, `${change.location} ${change.path ?? ''}`).toMatch(/^#\//);
      expect(change.pointers.to, `${change.location} ${change.path ?? ''}`).toMatch(/^#\//);
    }
    expect(find(diff.changes, 'schema Item', 'colour').pointers).toStrictEqual({ from: '#/components/schemas/Item', to: '#/components/schemas/Item/properties/colour' });
    expect(find(diff.changes, 'schema Id').pointers).toStrictEqual({ from: '#/components/schemas/Id', to: '#/components/schemas/Id' });
    expect(find(diff.changes, 'servers').pointers).toStrictEqual({ from: '#/servers/0/url', to: '#/servers/0/url' });
  });

  it('says why each breaking change breaks, and only those', () => {
    const colour = find(diff.changes, 'schema Item', 'colour');
    expect(colour.breaking).toStrictEqual({ client: true, server: true });
    expect(colour.why).toBe(
      'optional member added to a closed object (additionalProperties: false), in requests and responses: ' +
        'a server must accept what it could refuse before; a client that checks responses strictly rejects what a server may now send',
    );
    expect(find(diff.changes, 'schema Id').why).toBe('maxLength 10 → 5, in requests: a client sending what was valid before is refused');
    expect(find(diff.changes, 'servers').why).toBe('every URL changes: clients must call the new prefix and servers serve it');
    for (const change of diff.changes) expect(change.why !== undefined, `${change.location}`).toBe(change.breaking.client || change.breaking.server);
  });

  it('counts each change once, as listed: the count --fail-on prints equals the breaking lines', async () => {
    expect(diff.summary.breaking).toBe(diff.changes.filter((c) => c.breaking.client || c.breaking.server).length);
    expect(diff.summary.total).toBe(diff.changes.length);
    const dir = await scratchDir();
    await writeFile(path.join(dir, 'v1.yaml'), dump(before));
    await writeFile(path.join(dir, 'v2.yaml'), dump(after));
    const result = spawnSync(process.execPath, [BIN, 'diff', '--from', 'v1.yaml', '--to', 'v2.yaml', '--fail-on', 'breaking'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(1);
    const listed = result.stdout.split('\n').filter((l) => l.startsWith('  [BREAKING')).length;
    // The prefix change breaks both sides and is one change.
    expect(listed).toBe(3);
    expect(result.stderr).toContain(`codegen diff: ${listed} breaking change(s) (--fail-on breaking)`);
    expect(result.stdout).toContain(`${diff.summary.total} change(s), 3 breaking (`);
    expect(result.stdout).toContain('      reaches POST /items: request body application/json');
    const asJson = spawnSync(process.execPath, [BIN, 'diff', '--from', 'v1.yaml', '--to', 'v2.yaml', '--format', 'json'], { cwd: dir, encoding: 'utf8' });
    const parsed = JSON.parse(asJson.stdout) as { changes: ApiChange[]; summary: { breaking: number } };
    expect(parsed.summary.breaking).toBe(3);
    expect(parsed.changes.every((c) => c.pointers.from !== undefined && c.pointers.to !== undefined)).toBe(true);
  });
});

describe('a change inside an operation', () => {
  it('names the operation by method and path and the place, with pointers and why', () => {
    const v1 = doc({ version: '1', prefix: '/shop/v1', itemProps: { name: { type: 'string' } } });
    const v2 = doc({ version: '2', prefix: '/shop/v1', itemProps: { name: { type: 'string' } } });
    const get = v2.paths['/items/{id}'].get as Record<string, unknown>;
    get.parameters = [...(get.parameters as unknown[]), { name: 'lang', in: 'query', required: true, schema: { type: 'string' } }];
    get.responses = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } } } } } };
    const diff = diffApis(ir(v1), ir(v2));
    const lang = find(diff.changes, 'operation GetItem parameter query lang');
    expect(lang.reaches).toStrictEqual([{ operationId: 'GetItem', method: 'GET', path: '/items/{id}', place: 'parameter query lang' }]);
    expect(lang.why).toBe('parameter added (required), in requests: a client sending what was valid before is refused');
    expect(lang.pointers).toStrictEqual({ from: '#/paths/~1items~1{id}/get/parameters', to: '#/paths/~1items~1{id}/get/parameters/1/schema' });
    const body = diff.changes.find((c) => c.location === 'operation GetItem 200 application/json');
    expect(body?.reaches).toStrictEqual([{ operationId: 'GetItem', method: 'GET', path: '/items/{id}', place: 'response 200 body application/json' }]);
    expect(body?.pointers.to).toBe('#/paths/~1items~1{id}/get/responses/200/content/application~1json/schema');
  });
});

describe('the changelog', () => {
  it('has one heading per version pair, with the APIs that changed under it', async () => {
    const root = await scratchDir();
    for (const [version, d] of [
      ['v1', before],
      ['v2', after],
      ['v3', { ...after, info: { title: 'Shop', version: '3' } }],
    ] as const) {
      await mkdir(path.join(root, 'spec', version), { recursive: true });
      await writeFile(path.join(root, 'spec', version, 'shop.yaml'), dump(d));
      await writeFile(path.join(root, 'spec', version, 'admin.yaml'), dump({ ...d, info: { title: 'Admin', version } }));
    }
    const config = {
      packages: {},
      apis: [
        { files: 'spec/*/shop.yaml', subpath: '{version}' },
        { files: 'spec/*/admin.yaml', subpath: '{version}/admin' },
      ],
    };
    const text = await buildChangelog(root, config);
    const headings = text.split('\n').filter((l) => /^#{2,3} /.test(l));
    expect(headings).toStrictEqual(['## v2 → v3', '### Shop', '### Admin', '## v1 → v2', '### Shop', '### Admin']);
  });
});
