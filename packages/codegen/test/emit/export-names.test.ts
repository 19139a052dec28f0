/**
 * Export names of the validators module never clash with what the module declares itself
 * (`api`, `schemas`, the zod import...) nor with each other (`isFoo` the schema beside the
 * check function of `Foo`); an export that cannot have its natural name says why.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/index.js';
import { loadValidators, specWithSchemas, writeSpec, type LoadedValidators } from '../helpers/generated.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codegen.mjs');

const SPEC = {
  ...specWithSchemas({
    Foo: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
    isFoo: { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
    api: { type: 'object', required: ['c'], properties: { c: { type: 'string' } } },
    zod: { type: 'string', maxLength: 2 },
    ZodType: { type: 'integer' },
    schemas: { type: 'boolean' },
  }),
  paths: { '/api': { get: { operationId: 'api', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/api' } } } } } } } },
};

type Schema = { safeParse(value: unknown): { success: boolean } };

describe('export names of the validators', () => {
  let mod: LoadedValidators;
  let files: Map<string, string>;
  beforeAll(async () => {
    mod = await loadValidators(SPEC);
    const result = await generate({ spec: await writeSpec(SPEC), targets: ['validators'] });
    files = new Map(result.files.map((f) => [f.path, f.contents]));
  });

  it('keeps the module metadata `api` and gives the schema api another name', () => {
    expect(mod.api.title).toBe('Fixture');
    expect((mod['api_2'] as Schema).safeParse({ c: 'x' }).success).toBe(true);
    expect(mod.schemas['api']).toBe(mod['api_2']);
    expect(mod.operations['api']).toBe(mod['api_3']);
    expect(files.get('validators/schemas.gen.ts')).toContain('/** Exported as api_2: api is a name the generated module declares itself. */\nexport const api_2 =');
  });

  it('gives schemas named like the zod import their own names', () => {
    expect((mod['zod_2'] as Schema).safeParse('ab').success).toBe(true);
    expect((mod['zod_2'] as Schema).safeParse('abc').success).toBe(false);
    expect((mod['ZodType_2'] as Schema).safeParse(1).success).toBe(true);
    expect(mod.schemas['schemas']).toBe(mod['schemas_']);
  });

  it('keeps the schema isFoo apart from the check function of Foo, and says so', () => {
    expect((mod['isFoo'] as Schema).safeParse({ b: 1 }).success).toBe(true);
    const checkFoo = mod['isFoo_2'] as (v: unknown) => boolean;
    expect((mod as unknown as { checks: Record<string, unknown> }).checks['Foo']).toBe(checkFoo);
    expect(checkFoo({ a: 'x' })).toBe(true);
    expect(checkFoo({ b: 1 })).toBe(false);
    expect(files.get('validators/checks.gen.ts')).toContain(' * Exported as isFoo_2: isFoo is the schema isFoo.\n */\nexport function isFoo_2(');
  });

  it('type-checks strictly', async () => {
    const spec = await writeSpec(SPEC);
    const result = spawnSync(process.execPath, [BIN, 'verify', '--spec', spec, '--target', 'validators'], { encoding: 'utf8', timeout: 120_000 });
    expect(result.stdout + result.stderr).toContain('0 type errors');
    expect(result.status).toBe(0);
  });
});
