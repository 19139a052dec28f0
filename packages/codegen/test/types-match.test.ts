import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate, writeFiles } from '../src/index.js';
import { REAL_SPECS_DIR, REPO_ROOT, scratchDir } from './helpers/generated.js';
import { SEMANTICS_FIXTURE } from './helpers/fixtures.js';
import { dump } from 'js-yaml';

const require = createRequire(import.meta.url);

/**
 * Validators are declared with written-out types and built through an untyped handle (fast to
 * type-check). This proves those types are exactly what zod infers from the same expressions,
 * both ways assignable, per schema, and that every builder call type-checks against zod.
 */
async function checkTypesMatch(spec: string): Promise<{ compared: number; errors: string }> {
  const dir = await scratchDir();
  const result = await generate({ spec, targets: ['validators'] });
  await writeFiles(dir, result.files, { check: false });
  // The file is not type-checked where it is used (`// @ts-nocheck`, see SCHEMAS_NO_CHECK):
  // here it is, in full.
  const generated = await readFile(path.join(dir, 'validators/schemas.gen.ts'), 'utf8');
  const noCheck = /^\/\/ @ts-nocheck$/m;
  if (!noCheck.test(generated)) throw new Error('schemas.gen.ts: the @ts-nocheck line this test removes was not found');
  const declared = generated.replace(noCheck, '// (type-checked here)');
  await writeFile(path.join(dir, 'validators/schemas.gen.ts'), declared);
  const recursive = new Set(result.built.api.schemas.filter((s) => s.recursive).map((s) => s.name));
  // Each schema: `export const X = /* @__PURE__ */ (() =>\n  <expression>)() as unknown as <zod type>;`
  const castPattern = /^(export const ([\w$]+) = \/\* @__PURE__ \*\/ \(\(\) =>\n[\s\S]*?\)\(\)) as unknown as [\s\S]*?;(?=\n\n|\n*(?![\s\S]))/gm;
  // The file builds its schemas through an untyped handle; here zod's own types are put back,
  // so that every builder call is type-checked as well.
  const untypedHandle = /^const z: any = zod;$/m;
  if (!untypedHandle.test(declared)) throw new Error('schemas.gen.ts: the untyped builder handle this test restores was not found');
  // The same file without the casts: TypeScript infers every validator's type from zod.
  // Without `rt.compiledOnFirstUse` (typed `ZodType<output, input>`) too, so that each schema has
  // the zod class its builders give, to compare with the declared one.
  const compiled = /^(export const [\w$]+ = \/\* @__PURE__ \*\/ \(\(\) =>\n  )rt\.compiledOnFirstUse\(([\s\S]*?)(?:, C\.[\w$]+)*\)(\)\(\))$/;
  const inferred = declared
    .replace(untypedHandle, 'const z = zod;')
    .replace(castPattern, (whole, head: string, id: string) => (recursive.has(id) ? whole : `${head.replace(compiled, '$1$2$3')};`));
  await writeFile(path.join(dir, 'validators/inferred.gen.ts'), inferred);
  const ids = [...declared.matchAll(castPattern)].map((m) => m[2]!).filter((id) => !recursive.has(id));
  // The written-out type, what zod infers from the expression, and what the declared zod type
  // gives, output and input, all equal.
  const checks = ids.map(
    (id) =>
      `export const ${id}_a: D.${id} = null as unknown as z.output<typeof I.${id}>;\n` +
      `export const ${id}_b: z.output<typeof I.${id}> = null as unknown as D.${id};\n` +
      `export const ${id}_c: D.${id} = null as unknown as z.output<typeof D.${id}>;\n` +
      `export const ${id}_d: z.output<typeof D.${id}> = null as unknown as D.${id};\n` +
      `export const ${id}_e: z.input<typeof D.${id}> = null as unknown as z.input<typeof I.${id}>;\n` +
      `export const ${id}_f: z.input<typeof I.${id}> = null as unknown as z.input<typeof D.${id}>;\n` +
      // The declared zod class is the one zod's builders return (`.extend`, `.shape` and the
      // rest are typed as they behave).
      `export const ${id}_g: typeof D.${id} = null as unknown as typeof I.${id};\n` +
      `export const ${id}_h: typeof I.${id} = null as unknown as typeof D.${id};`,
  );
  await writeFile(
    path.join(dir, 'validators/check.ts'),
    `import type { z } from 'zod';\nimport type * as D from './schemas.gen.js';\nimport type * as I from './inferred.gen.js';\n${checks.join('\n')}\n`,
  );
  try {
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck', 'validators/check.ts'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { compared: ids.length, errors: '' };
  } catch (error) {
    return { compared: ids.length, errors: String((error as { stdout?: string }).stdout).split('\n').slice(0, 20).join('\n') };
  }
}

describe('declared types equal the types zod infers', () => {
  it('for the semantics fixture (every construct the emitter prints)', async () => {
    const dir = await scratchDir();
    const spec = path.join(dir, 'fixture.yaml');
    await writeFile(spec, dump(SEMANTICS_FIXTURE));
    const { compared, errors } = await checkTypesMatch(spec);
    expect(errors).toBe('');
    expect(compared).toBeGreaterThan(15);
  });

  it('for the per-direction variants of readOnly and writeOnly members', async () => {
    const dir = await scratchDir();
    const spec = path.join(dir, 'directions.yaml');
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const schemas = {
      Account: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'secret', 'owner', 'tags'],
        properties: {
          id: { type: 'string', readOnly: true },
          secret: { type: 'string', writeOnly: true, default: 'x' },
          owner: { type: 'object', required: ['since'], properties: { since: { type: 'string', format: 'date', readOnly: true } } },
          tags: { type: 'array', items: ref('Tag') },
        },
      },
      Tag: { type: 'object', required: ['key', 'hidden'], properties: { key: { type: 'string' }, hidden: { type: 'integer', writeOnly: true } } },
      Extended: { allOf: [ref('Account'), { type: 'object', properties: { note: { type: 'string' } } }] },
    };
    const body = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });
    const document = {
      openapi: '3.0.3',
      info: { title: 'Directions', version: '1' },
      paths: { '/a': { post: { operationId: 'post', requestBody: body('Extended'), responses: { '200': { description: 'ok', ...body('Extended') } } } } },
      components: { schemas },
    };
    await writeFile(spec, dump(document));
    const { compared, errors } = await checkTypesMatch(spec);
    expect(errors).toBe('');
    // The three schemas as written and their five variants (Tag has no readOnly member: no request variant).
    expect(compared).toBe(8);
  });

  it('for our v2.2 spec', async () => {
    const { compared, errors } = await checkTypesMatch(path.join(REPO_ROOT, 'spec/v2.2/account-information.yaml'));
    expect(errors).toBe('');
    expect(compared).toBeGreaterThan(100);
  });

  it.skipIf(!existsSync(REAL_SPECS_DIR))('for the official account-information file', async () => {
    const { compared, errors } = await checkTypesMatch(path.join(REAL_SPECS_DIR, 'standards-v2.1-errata2-account-information.yaml'));
    expect(errors).toBe('');
    expect(compared).toBeGreaterThan(200);
  });
});
