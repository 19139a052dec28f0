import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDir, specWithSchemas, writeSpec } from './helpers/generated.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/codegen.mjs');

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const GOOD = specWithSchemas({ Thing: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } });

describe('codegen CLI', () => {
  it('prints help with exit 0 for --help, and usage with exit 2 when no command is given', () => {
    const help = run('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: codegen <command>');
    // Every version the loader reads, 3.2 included.
    expect(help.stdout).toContain('Contract-first code generation for OpenAPI 3.0, 3.1 and 3.2 files.');
    expect(run('generate', '--help').stdout).toContain('--target <list>');
    expect(run().code).toBe(2);
  });

  it('rejects wrong usage with exit 2 and says what is wrong', () => {
    const missing = run('generate', '--out', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--spec is required');
    expect(run('frobnicate').stderr).toContain('unknown command "frobnicate"');
    expect(run('generate', '--spec', 'a', '--out', 'b', '--target', 'nope').stderr).toContain('--target takes validators, server, client');
    expect(run('generate', '--bogus').stderr).toContain('unknown option --bogus');
  });

  it('fails with exit 1 and one clear line for a missing file, bad YAML and Swagger 2', async () => {
    const dir = await scratchDir();
    const missing = run('generate', '--spec', path.join(dir, 'none.yaml'), '--out', dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/none\.yaml: no such file/);
    expect(missing.stderr).not.toMatch(/at .*\.js:\d+/);

    const badYaml = path.join(dir, 'bad.yaml');
    await writeFile(badYaml, 'openapi: 3.0.0\ninfo: [unclosed\n');
    const yaml = run('generate', '--spec', badYaml, '--out', dir);
    expect(yaml.code).toBe(1);
    expect(yaml.stderr).toMatch(/bad\.yaml:\d+:\d+/);

    const swagger = path.join(dir, 'swagger.yaml');
    await writeFile(swagger, 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n');
    const old = run('generate', '--spec', swagger, '--out', dir);
    expect(old.code).toBe(1);
    expect(old.stderr).toContain('only OpenAPI 3.0, 3.1 and 3.2 are supported (found swagger 2.0)');

    const noVersion = path.join(dir, 'no-version.yaml');
    await writeFile(noVersion, 'info: {title: x, version: "1"}\npaths: {}\n');
    const missingField = run('generate', '--spec', noVersion, '--out', dir);
    expect(missingField.code).toBe(1);
    expect(missingField.stderr).toContain('no-version.yaml: the "openapi" field is missing');
    expect(missingField.stderr).not.toContain('undefined');
  });

  it('names the file, the line and the target of a $ref that cannot be resolved, once', async () => {
    const dir = await scratchDir();
    await writeFile(path.join(dir, 'types.yaml'), 'DateTime: {type: string}\n');
    const spec = path.join(dir, 'api.yaml');
    await writeFile(
      spec,
      [
        'openapi: 3.0.3',
        'info: {title: x, version: "1"}',
        'paths: {}',
        'components:',
        '  schemas:',
        '    When:',
        "      $ref: './types.yaml#/DateTimee'",
        '',
      ].join('\n'),
    );
    const result = run('generate', '--spec', spec, '--out', path.join(dir, 'out'));
    expect(result.code).toBe(1);
    const expected = `api.yaml:7:7: cannot resolve $ref "./types.yaml#/DateTimee" (at #/components/schemas/When)`;
    expect(result.stderr).toContain(expected);
    expect(result.stderr.split(expected)).toHaveLength(2);
  });

  it('refuses to approximate: an unsupported keyword fails with its JSON pointer, and nothing is written', async () => {
    const spec = await writeSpec(specWithSchemas({ A: { $dynamicRef: '#meta' } }));
    const out = path.join(path.dirname(spec), 'out');
    const result = run('generate', '--spec', spec, '--out', out);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('#/components/schemas/A/$dynamicRef');
    await expect(readFile(path.join(out, 'validators/index.ts'), 'utf8')).rejects.toThrow();
  });

  it('reads the 3.0 nullable idiom as accepting null, with a warning, and --nullable literal as 3.0.3 writes it', async () => {
    const spec = await writeSpec(specWithSchemas({ X: { type: 'string' }, Y: { nullable: true, allOf: [{ $ref: '#/components/schemas/X' }] } }));
    const out = path.join(path.dirname(spec), 'out');
    const lenient = run('generate', '--spec', spec, '--out', out, '--target', 'validators');
    expect(lenient.code).toBe(0);
    expect(lenient.stderr).toContain('nullable-idiom');
    expect(lenient.stderr).toContain('#/components/schemas/Y/nullable');
    expect(await readFile(path.join(out, 'validators/schemas.gen.ts'), 'utf8')).toMatch(/export const Y\b[\s\S]*?X\.nullable\(\)/);
    const literal = run('generate', '--spec', spec, '--out', out, '--target', 'validators', '--nullable', 'literal');
    expect(literal.code).toBe(0);
    expect(literal.stderr).toContain('nullable-without-type');
    expect(await readFile(path.join(out, 'validators/schemas.gen.ts'), 'utf8')).not.toContain('X.nullable()');
    expect(run('generate', '--spec', spec, '--out', out, '--nullable', 'maybe').code).toBe(2);
  });

  it('takes --reading, --formats and --unsupported, in generate and in verify', async () => {
    const spec = await writeSpec(
      specWithSchemas({
        Links: { required: ['Self'], properties: { Self: { type: 'string' } } },
        When: { type: 'string', format: 'date-time' },
        Dyn: { $dynamicRef: '#meta' },
      }),
    );
    const out = path.join(path.dirname(spec), 'out');
    const schemas = () => readFile(path.join(out, 'validators/schemas.gen.ts'), 'utf8');
    expect(run('generate', '--spec', spec, '--out', out, '--target', 'validators').code).toBe(1);
    const skipped = run('generate', '--spec', spec, '--out', out, '--target', 'validators', '--unsupported', 'skip');
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain('warning [unsupported-keyword] #/components/schemas/Dyn/$dynamicRef');
    // A 3.0 file is read leniently by default (Links has its keywords' type); exactly on request.
    expect(await schemas()).not.toContain('J.schemas');
    expect(await schemas()).toContain('rt.isDateTime');
    expect(run('generate', '--spec', spec, '--out', out, '--target', 'validators', '--unsupported', 'skip', '--reading', 'exact', '--formats', 'annotate').code).toBe(0);
    expect(await schemas()).toContain('J.schemas.zod("#/components/schemas/Links")');
    expect(await schemas()).not.toContain('rt.isDateTime');
    expect(run('verify', '--spec', spec, '--target', 'validators', '--unsupported', 'skip', '--reading', 'exact').code).toBe(0);
    expect(run('verify', '--spec', spec, '--target', 'validators').code).toBe(1);
    const wrong = run('generate', '--spec', spec, '--out', out, '--reading', 'loose');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--reading takes exact or lenient');
  }, 120_000);

  it('generates deterministically, and --check catches hand edits and stale files', async () => {
    const spec = await writeSpec(GOOD);
    const out = path.join(path.dirname(spec), 'out');
    expect(run('generate', '--spec', spec, '--out', out).code).toBe(0);
    const first = await readFile(path.join(out, 'validators/schemas.gen.ts'), 'utf8');
    expect(first.startsWith('// Generated by @bank-data-sharing/codegen from ')).toBe(true);
    expect(run('generate', '--spec', spec, '--out', out, '--check').code).toBe(0);

    await writeFile(path.join(out, 'validators/schemas.gen.ts'), `${first}// edited\n`);
    const edited = run('generate', '--spec', spec, '--out', out, '--check');
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('changed  ');
    expect(edited.stderr).toContain('schemas.gen.ts');

    // A file the generator wrote (its header) and no longer produces is stale: listed, then removed.
    await writeFile(path.join(out, 'validators/leftover.gen.ts'), first);
    const stale = run('generate', '--spec', spec, '--out', out, '--check');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('stale    ');
    expect(run('generate', '--spec', spec, '--out', out).code).toBe(0);
    expect(await readFile(path.join(out, 'validators/schemas.gen.ts'), 'utf8')).toBe(first);
    await expect(readFile(path.join(out, 'validators/leftover.gen.ts'), 'utf8')).rejects.toThrow();
  });

  it('verify type-checks the output and fails on an example that does not validate', async () => {
    const good = await writeSpec({ ...GOOD, components: { schemas: { Thing: { type: 'string', example: 'fine' } } } });
    const ok = run('verify', '--spec', good);
    expect(ok.stdout).toContain('1 examples checked, 0 example failures, 0 type errors');
    expect(ok.code).toBe(0);

    // Into a kept folder, twice: the second run reuses the folder of the first.
    const kept = path.join(path.dirname(good), 'kept');
    expect(run('verify', '--spec', good, '--keep', kept).code).toBe(0);
    expect(run('verify', '--spec', good, '--keep', kept).code).toBe(0);

    const bad = await writeSpec({ ...GOOD, components: { schemas: { Thing: { type: 'string', maxLength: 2, example: 'too long' } } } });
    const failed = run('verify', '--spec', bad);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('example does not validate: #/components/schemas/Thing/example');
  });
});
