import { execFileSync } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { dump, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { buildIR } from '../src/ir/build-ir.js';
import { diffApis, type ApiChange } from '../src/diff/diff-apis.js';
import { readWorkspaceConfig, runWorkspace } from '../src/workspace/workspace.js';
import { buildChangelog } from '../src/workspace/changelog.js';
import { REPO_ROOT, scratchDir } from './helpers/generated.js';

const require = createRequire(import.meta.url);

function api(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}, version = '1') {
  return buildIR({ source: 'x.yaml', document: { openapi: '3.0.3', info: { title: 'T', version }, paths, components: { schemas } }, diagnostics: [] }).api;
}

function op(operationId: string, extra: Record<string, unknown> = {}) {
  return { operationId, responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Out' } } } } }, ...extra };
}

const summary = (changes: ApiChange[]) => changes.map((c) => [c.location, c.path ?? '', c.description, c.breaking.client, c.breaking.server]);

describe('codegen diff', () => {
  it('classifies operations added and removed', () => {
    const out = { Out: { type: 'object' } };
    const before = api({ '/a': { get: op('GetA') }, '/b': { get: op('GetB') } }, out);
    const after = api({ '/a': { get: op('GetA') }, '/c': { get: op('GetC') } }, out);
    expect(summary(diffApis(before, after).changes)).toStrictEqual([
      ['operation GetB', '', 'GET /b removed', true, false],
      ['operation GetC', '', 'GET /c added', false, true],
    ]);
  });

  it('reads response changes from the client side and request changes from the server side', () => {
    const schemas = (status: string[], required: string[]) => ({
      Out: { type: 'object', additionalProperties: false, properties: { Status: { type: 'string', enum: status } } },
      In: { type: 'object', required, properties: { Name: { type: 'string' }, Age: { type: 'integer' } } },
    });
    const paths = {
      '/a': { post: { ...op('PostA'), requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/In' } } } } } },
    };
    const diff = diffApis(api(paths, schemas(['A'], ['Name'])), api(paths, schemas(['A', 'B'], ['Name', 'Age'])));
    expect(summary(diff.changes)).toStrictEqual([
      // A response that may now say "B" breaks clients that only know "A".
      ['schema Out', 'Status', 'enum values added: "B"', true, false],
      // A request that now needs Age breaks clients that do not send it.
      ['schema In', 'Age', 'now required', true, false],
    ]);
  });

  it('flags pattern and length changes, and status codes', () => {
    const paths = (statuses: string[]) => ({
      '/a': {
        get: {
          operationId: 'GetA',
          parameters: [{ name: 'q', in: 'query', schema: { type: 'string', maxLength: 10, pattern: '^a' } }],
          responses: Object.fromEntries(statuses.map((s) => [s, { description: s }])),
        },
      },
    });
    const before = api(paths(['200', '404']));
    const after = api({
      '/a': {
        get: {
          operationId: 'GetA',
          parameters: [{ name: 'q', in: 'query', schema: { type: 'string', maxLength: 5, pattern: '^b' } }],
          responses: { '200': { description: '200' }, '429': { description: '429' } },
        },
      },
    });
    expect(summary(diffApis(before, after).changes)).toStrictEqual([
      ['operation GetA parameter query q', '', 'maxLength 10 → 5', true, false],
      ['operation GetA parameter query q', '', 'pattern "^a" → "^b"', true, true],
      ['operation GetA 404', '', 'status 404 removed', false, true],
      ['operation GetA 429', '', 'status 429 added', true, false],
    ]);
  });

  it('reports the real difference between our v2.1 and v2.2', async () => {
    const { stdout } = { stdout: execFileSync(process.execPath, [path.join(REPO_ROOT, 'packages/codegen/bin/codegen.mjs'), 'diff', '--from', 'v2.1', '--to', 'v2.2', '--json'], { cwd: REPO_ROOT, encoding: 'utf8' }) };
    const report = JSON.parse(stdout) as { changes: ApiChange[] };
    const described = report.changes.map((c) => `${c.location}${c.path ? ` ${c.path}` : ''}: ${c.description}`);
    expect(described).toContain('operation ReadAccountAccessConsentAttestations: GET /account-access-consents/{ConsentId}/attestations added');
    expect(described).toContain('operation CreateAccountAccessConsentAttestation: POST /account-access-consents/{ConsentId}/attestations added');
    expect(described).toContain('schema Transaction TransactionInformation: now required');
    expect(described).toContain('schema Product TakafulRequired: member added (optional)');
  });

  it('exits 1 on breaking changes only when asked', () => {
    const bin = path.join(REPO_ROOT, 'packages/codegen/bin/codegen.mjs');
    const args = ['diff', '--from', 'v2.1', '--to', 'v2.2'];
    expect(() => execFileSync(process.execPath, [bin, ...args], { cwd: REPO_ROOT, stdio: 'pipe' })).not.toThrow();
    expect(() => execFileSync(process.execPath, [bin, ...args, '--fail-on', 'breaking'], { cwd: REPO_ROOT, stdio: 'pipe' })).toThrow();
  });

  it('keeps the committed changelog in step with spec/', async () => {
    const config = await readWorkspaceConfig(path.join(REPO_ROOT, 'codegen.config.json'));
    const expected = await buildChangelog(REPO_ROOT, config);
    expect(await readFile(path.join(REPO_ROOT, config.changelog!), 'utf8')).toBe(expected);
  });
});

describe('adding a spec version', () => {
  it('gives a synthetic v2.3 its own subpath, and the type-checker sees the difference', async () => {
    const root = await scratchDir();
    await cp(path.join(REPO_ROOT, 'spec'), path.join(root, 'spec'), {
      recursive: true,
      // The spec's own tests, installs and bundles are not part of the contract.
      filter: (src) => !/^(node_modules|dist|test)([\\/]|$)/.test(path.relative(path.join(REPO_ROOT, 'spec'), src)),
    });
    await cp(path.join(root, 'spec/v2.2'), path.join(root, 'spec/v2.3'), { recursive: true });
    // v2.3: one field added to the product, one operation (GET /parties) removed.
    const rootFile = path.join(root, 'spec/v2.3/account-information.yaml');
    const doc = load(await readFile(rootFile, 'utf8')) as { info: { version: string }; servers: Array<{ url: string }>; paths: Record<string, unknown> };
    doc.info.version = 'v2.3';
    doc.servers[0]!.url = '/open-finance/account-information/v2.3';
    delete doc.paths['/parties'];
    await writeFile(rootFile, dump(doc));
    const schemasFile = path.join(root, 'spec/v2.3/schemas.yaml');
    const schemas = load(await readFile(schemasFile, 'utf8')) as { Product: { properties: Record<string, unknown> } };
    schemas.Product.properties['ShariaCompliant'] = { type: 'boolean' };
    await writeFile(schemasFile, dump(schemas));

    const config = {
      packages: { validators: 'packages/validators', server: 'packages/server-stubs', client: 'packages/client' },
      apis: [{ files: 'spec/*/account-information.yaml', subpath: '{version}' }],
    };
    const report = await runWorkspace({ root, config, check: false });
    expect(report.apis.map((a) => a.subpath)).toStrictEqual(['v2.1', 'v2.2', 'v2.3']);
    expect(report.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);

    const generated = path.join(root, 'packages/validators/src/generated');
    const v23 = await import(path.join(generated, 'v2.3/index.ts'));
    expect(v23.api.pathPrefix).toBe('/open-finance/account-information/v2.3');
    expect(Object.keys(v23.operations)).not.toContain('Parties_read');
    expect(Object.keys(v23.operations)).toHaveLength(16);

    // The server stubs and the client gain the subpath too, with v2.3's operation set.
    const serverHandlers = await readFile(path.join(root, 'packages/server-stubs/src/generated/v2.3/handlers.gen.ts'), 'utf8');
    const clientIndex = await readFile(path.join(root, 'packages/client/src/generated/v2.3/index.ts'), 'utf8');
    expect(serverHandlers).toContain('GetAccountsAccountIdTransactions');
    expect(serverHandlers).not.toContain('Parties_read');
    expect(clientIndex).toContain("from '@bank-data-sharing/validators/v2.3'");
    expect(clientIndex).not.toContain('Parties_read');
    expect(await readFile(path.join(root, 'packages/client/src/generated/v2.2/index.ts'), 'utf8')).toContain('Parties_read');

    // The same code against each version: only v2.3 knows the new member.
    const probe = (version: string) =>
      `import type { Product } from './generated/${version}/index.js';\n` +
      `export const flag = (p: Product): boolean | undefined => p.ShariaCompliant;\n`;
    const typeErrors = async (version: string): Promise<string> => {
      const file = path.join(root, 'packages/validators/src', `probe-${version}.ts`);
      await writeFile(file, probe(version));
      try {
        execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', file], {
          cwd: path.join(REPO_ROOT, 'packages/codegen'),
          encoding: 'utf8',
        });
        return '';
      } catch (error) {
        return String((error as { stdout?: string }).stdout);
      }
    };
    expect(await typeErrors('v2.3')).toBe('');
    expect(await typeErrors('v2.2')).toContain("Property 'ShariaCompliant' does not exist");

    // --check: clean now; then a spec edit without regeneration, then a hand edit, are caught.
    const stale = async () => (await runWorkspace({ root, config, check: true })).packages.flatMap((p) => [...p.report.written, ...p.report.removed]);
    expect(await stale()).toStrictEqual([]);
    schemas.Product.properties['Other'] = { type: 'string' };
    await writeFile(schemasFile, dump(schemas));
    expect(await stale()).toStrictEqual(['v2.3/checks.gen.ts', 'v2.3/schemas.gen.ts']);
    // (only the validators hold the schema; server and client files do not change)
    await runWorkspace({ root, config, check: false });
    const generatedFile = path.join(generated, 'v2.2/operations.gen.ts');
    await writeFile(generatedFile, `${await readFile(generatedFile, 'utf8')}// hand edit\n`);
    expect(await stale()).toStrictEqual(['v2.2/operations.gen.ts']);
  });
});
