/**
 * @readme/oas-examples `schema-visibility`: a request body and a response with a readOnly and a
 * writeOnly member. It generates and type-checks (`verify`, every target), and behaves as its
 * document says: "`writeOnly` properties should show up in the form and `readOnly` properties
 * should show up in response examples". The file is read from the installed package (never
 * copied here); version 8.2.2 holds it for OpenAPI 3.0 only, so the 3.1 case is the same
 * document with its `openapi` field changed, in memory.
 */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { verify } from '../src/index.js';
import { loadValidators, scratchDir, writeSpec } from './helpers/generated.js';

const require = createRequire(import.meta.url);
const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/codegen.mjs');
const PACKAGE = path.dirname(require.resolve('@readme/oas-examples/package.json'));
const DOCUMENT = JSON.parse(readFileSync(path.join(PACKAGE, '3.0/json/schema-visibility.json'), 'utf8')) as Record<string, unknown>;

type Schema = { safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } } };
interface Operation {
  request: { body: { content: Record<string, Schema> } };
  responses: Record<string, { content: Record<string, Schema> }>;
}

describe.each(['3.0.3', '3.1.0'])('@readme/oas-examples schema-visibility (OpenAPI %s)', (openapi) => {
  const document = { ...DOCUMENT, openapi };

  it('generates and type-checks every target', async () => {
    const spec = await writeSpec(document, 'schema-visibility.yaml');
    const report = await verify({ spec, keepDir: await scratchDir() });
    expect(report.typeErrors).toStrictEqual([]);
    expect(report.exampleFailures).toStrictEqual([]);
    expect(report.operations).toBe(1);
    expect(report.targets).toStrictEqual(['validators', 'server', 'client', 'mocks']);
  }, 240_000);

  it('from the command line: --write-only-in-response accept lets the response carry the writeOnly member; a wrong value is a usage error', async () => {
    const spec = await writeSpec(document, 'schema-visibility.yaml');
    const out = path.join(path.dirname(spec), 'cli-out');
    const run = (...flags: string[]) =>
      spawnSync(process.execPath, [BIN, 'generate', '--spec', spec, '--out', out, '--target', 'validators', '--quiet', ...flags], { encoding: 'utf8', timeout: 60_000 });
    expect(run().status).toBe(0);
    const operations = () => readFileSync(path.join(out, 'validators/operations.gen.ts'), 'utf8');
    expect(operations()).toContain('propWithWriteOnly: z.never().optional()');
    expect(run('--write-only-in-response', 'accept').status).toBe(0);
    expect(operations()).not.toContain('z.never()');
    const wrong = run('--write-only-in-response', 'strip');
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('--write-only-in-response takes refuse or accept');
  });

  it('accepts both members in the request (readOnly is ignored there), and refuses the writeOnly member in the response', async () => {
    const { operations } = await loadValidators(document);
    const [operation] = Object.values(operations) as Operation[];
    const request = operation!.request.body.content['application/json']!;
    const response = operation!.responses['200']!.content['application/json']!;
    // The form: id and the writeOnly member; a readOnly member sent anyway is accepted.
    expect(request.safeParse({ id: 'a', propWithWriteOnly: 'w' }).success).toBe(true);
    expect(request.safeParse({ id: 'a', propWithReadOnly: 'r', propWithWriteOnly: 'w' }).success).toBe(true);
    // The response: id and the readOnly member; the writeOnly one is never sent.
    expect(response.safeParse({ id: 'a', propWithReadOnly: 'r' }).success).toBe(true);
    const leaked = response.safeParse({ id: 'a', propWithReadOnly: 'r', propWithWriteOnly: 'w' });
    expect(leaked.success).toBe(false);
    expect(leaked.error!.issues.map((i) => i.path.join('.'))).toStrictEqual(['propWithWriteOnly']);
    // Types still hold in both directions.
    expect(request.safeParse({ propWithWriteOnly: 1 }).success).toBe(false);
    expect(response.safeParse({ propWithReadOnly: 1 }).success).toBe(false);
  });
});
