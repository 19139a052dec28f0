import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { fileStem, planScaffold } from '../../src/scaffold/plan.js';
import { renderScaffold } from '../../src/scaffold/scaffold.js';
import { loadTemplates, TemplateError } from '../../src/scaffold/templates.js';
import { scratchDir } from '../helpers/generated.js';
import { FIXTURES } from '../helpers/scaffold-project.js';

async function petsPlan(server = '../gen/server/index.js') {
  const spec = path.join(FIXTURES, 'pets-v1.yaml');
  const api = buildIR(await loadSpec(spec)).api;
  return { api, spec, plan: planScaffold({ api, server, groupBy: 'tag' }) };
}

describe('scaffold plan', () => {
  it('groups by first tag (untagged operations by path segment), with unique identifiers and files', async () => {
    const { plan } = await petsPlan();
    expect(plan.groups.map((g) => [g.name, g.file, g.namespace, g.operations.map((o) => o.identifier)])).toStrictEqual([
      ['pets', 'pets.ts', 'pets', ['listPets', 'addPet', 'findPetById', 'deletePet']],
      ['health', 'health.ts', 'health', ['health']],
    ]);
    // `find pet by id` is named findPetById, its key in Handlers too: no alias is needed.
    expect(plan.aliases).toStrictEqual([]);
  });

  it('exports a handler whose name index.ts itself uses under another identifier, mapped by its name', async () => {
    const { api } = await petsPlan();
    const renamed = { ...api, operations: api.operations.map((o) => (o.name === 'health' ? { ...o, name: 'router' } : o)) };
    const plan = planScaffold({ api: renamed, server: 'x', groupBy: 'tag' });
    expect(plan.aliases).toStrictEqual([{ key: 'router', namespace: 'health', identifier: 'router_2' }]);
  });

  it('groups by path segment on request, and keeps file and namespace names legal', async () => {
    const { api } = await petsPlan();
    const byPath = planScaffold({ api, server: 'x', groupBy: 'path' });
    expect(byPath.groups.map((g) => g.file)).toStrictEqual(['pets.ts', 'health.ts']);
    expect(fileStem('Bank Data Sharing Consent')).toBe('bank-data-sharing-consent');
    expect(fileStem('DirectDebits')).toBe('direct-debits');
    expect(fileStem('***')).toBe('default');
    const reserved = planScaffold({ api: { ...api, operations: api.operations.map((o) => ({ ...o, tags: ['default'] })) }, server: 'x', groupBy: 'tag' });
    expect(reserved.groups[0]!.namespace).toBe('default_');
    const indexClash = planScaffold({ api: { ...api, operations: api.operations.map((o) => ({ ...o, tags: ['index'] })) }, server: 'x', groupBy: 'tag' });
    expect(indexClash.groups[0]!.file).toBe('index-2.ts');
  });
});

describe('scaffold templates', () => {
  it('render a group file, index.ts and scaffold.json to exact text', async () => {
    const { plan, spec } = await petsPlan();
    const files = renderScaffold({ plan, templates: await loadTemplates(), spec, dir: path.join(FIXTURES, 'out'), groupBy: 'tag' });
    expect([...files.keys()]).toStrictEqual(['pets.ts', 'health.ts', 'index.ts', 'README.md', 'scaffold.json']);
    expect(files.get('health.ts')).toBe(
      [
        '// health: handlers of Pet Shelter.',
        '// Scaffolded by @bank-data-sharing/codegen; this file is yours. Fill in the handlers: a stub',
        '// answers 501 Not Implemented until you do. "codegen scaffold" adds stubs for new operations',
        '// on a spec bump and never changes what you wrote.',
        "import { ApiError } from '@bank-data-sharing/server-stubs/runtime';",
        "import type { Handlers } from '../gen/server/index.js';",
        '',
        '/** GET /health */',
        "export const health: Handlers['health'] = async () => {",
        "  throw new ApiError(501, 'NotImplemented', 'health is not implemented yet');",
        '};',
        '',
      ].join('\n'),
    );
    const pets = files.get('pets.ts')!;
    expect(pets).toContain(
      [
        '/** GET /pets/{id} — Read one pet */',
        "export const findPetById: Handlers['findPetById'] = async () => {",
        "  throw new ApiError(501, 'NotImplemented', 'find pet by id is not implemented yet');",
        '};',
        '',
        '/**',
        ' * DELETE /pets/{id}',
        ' *',
        ' * @deprecated The spec marks this operation as deprecated.',
        ' */',
        "export const deletePet: Handlers['deletePet'] = async () => {",
      ].join('\n'),
    );
    expect(files.get('index.ts')).toBe(
      [
        '// Pet Shelter: every handler, and the router that serves them.',
        '// Scaffolded by @bank-data-sharing/codegen; this file is yours.',
        "import type { ApiRouter, RouterOptions } from '@bank-data-sharing/server-stubs/runtime';",
        "import { createRouter, type Handlers } from '../gen/server/index.js';",
        "import * as pets from './pets.js';",
        "import * as health from './health.js';",
        '',
        '/** One handler per operation, from the files beside this one. */',
        'export const handlers: Handlers = {',
        '  ...pets,',
        '  ...health,',
        '};',
        '',
        '/**',
        ' * The router serving Pet Shelter with `handlers`.',
        ' *',
        ' * @example',
        ' * app.use(router({ authorize }));',
        ' */',
        'export function router(options: RouterOptions = {}): ApiRouter {',
        '  return createRouter(handlers, options);',
        '}',
        '',
      ].join('\n'),
    );
    expect(JSON.parse(files.get('scaffold.json')!)).toStrictEqual({
      '//': 'Written by codegen scaffold: what this folder was scaffolded from. Do not edit.',
      spec: '../pets-v1.yaml',
      title: 'Pet Shelter',
      version: '1.0.0',
      server: '../gen/server/index.js',
      groupBy: 'tag',
      files: ['health.ts', 'index.ts', 'pets.ts'],
    });
    expect(files.get('README.md')).toMatch(/^# Pet Shelter: handlers\n\nScaffolded by `codegen scaffold` from `[^`]*pets-v1\.yaml`/);
  });

  it('take a team template of the same name in place of the shipped one', async () => {
    const dir = await scratchDir();
    await mkdir(path.join(dir, 'templates'));
    await writeFile(
      path.join(dir, 'templates', 'operation.ts.hbs'),
      "// {{operationId}} ({{method}} {{path}})\nexport const {{identifier}}: Handlers[{{{key}}}] = () => {\n  throw new ApiError(501, 'Todo', {{{notImplemented}}});\n};\n",
    );
    const templates = await loadTemplates(path.join(dir, 'templates'));
    expect(templates.sources['operation.ts.hbs']).toBe(path.join(dir, 'templates', 'operation.ts.hbs'));
    const { plan } = await petsPlan();
    const health = templates.group({ ...plan, ...plan.groups[1]! });
    expect(health).toContain("// health (get /health)\nexport const health: Handlers['health'] = () => {\n  throw new ApiError(501, 'Todo', 'health is not implemented yet');\n};\n");
  });

  it('name the template and the field when a team template asks for something the scaffold does not provide', async () => {
    const dir = await scratchDir();
    await writeFile(path.join(dir, 'index.ts.hbs'), '{{titel}}\n');
    const templates = await loadTemplates(dir);
    const { plan } = await petsPlan();
    expect(() => templates.index(plan)).toThrow(TemplateError);
    expect(() => templates.index(plan)).toThrow(/index\.ts\.hbs: "titel" not defined/);
    await writeFile(path.join(dir, 'handler.hbs'), '');
    await expect(loadTemplates(dir)).rejects.toThrow(/handler\.hbs: unknown template/);
  });
});
