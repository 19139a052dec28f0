import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { specWithSchemas, writeSpec } from './helpers/generated.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/codegen.mjs');

describe('generate notes', () => {
  it('names the JSON pointer of each note, not only their count', async () => {
    const spec = await writeSpec(
      specWithSchemas({
        Thing: { type: 'object', properties: { code: { type: 'string', format: 'iban' }, size: { type: 'integer', format: 'uint16' } } },
      }),
    );
    const result = spawnSync(process.execPath, [BIN, 'generate', '--spec', spec, '--out', path.join(path.dirname(spec), 'out'), '--target', 'validators'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('notes: 2 unknown-format');
    expect(result.stdout).toContain('#/components/schemas/Thing/properties/code/format: format "iban" is not checked');
    expect(result.stdout).toContain('#/components/schemas/Thing/properties/size/format: format "uint16" is not checked');
  });
});

describe('notes of other kinds', () => {
  it('are not all called formats: the summary line fits a pattern and an unknown keyword too', async () => {
    const spec = await writeSpec(specWithSchemas({ Tag: { type: 'string', pattern: '^[a-z\\:]+$', min_length: 2 } }));
    const result = spawnSync(process.execPath, [BIN, 'generate', '--spec', spec, '--out', path.join(path.dirname(spec), 'out'), '--target', 'validators'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(0);
    const summary = result.stdout.split('\n').find((line) => line.startsWith('notes: '));
    expect(summary).toContain('1 pattern-without-unicode');
    expect(summary).toContain('1 unknown-keyword');
    expect(summary).not.toContain('formats');
  });
});
