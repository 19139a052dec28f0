import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate, verify } from '../src/index.js';
import { REAL_SPECS_DIR, REPO_ROOT } from './helpers/generated.js';

const OWN_SPECS = [
  { file: 'spec/v2.2/account-information.yaml', operations: 17 },
  { file: 'spec/v2.1/account-information.yaml', operations: 15 },
  { file: 'spec/v2.2/lfi-paging.yaml' },
  { file: 'spec/v2.1/lfi-paging.yaml' },
  { file: 'spec/directory/directory.yaml' },
];

const realSpecs = existsSync(REAL_SPECS_DIR) ? readdirSync(REAL_SPECS_DIR).filter((f) => f.endsWith('.yaml')).sort() : [];
if (realSpecs.length === 0) console.log(`official specs not found beside the repository (${path.basename(REAL_SPECS_DIR)}): skipping their end-to-end checks`);

describe('our own spec/ end to end', () => {
  for (const { file, operations } of OWN_SPECS) {
    it(`verify passes on ${file}`, async () => {
      const report = await verify({ spec: path.join(REPO_ROOT, file) });
      expect(report.typeErrors).toStrictEqual([]);
      expect(report.exampleFailures).toStrictEqual([]);
      expect(report.diagnostics.filter((d) => d.severity !== 'info')).toStrictEqual([]);
      if (operations !== undefined) expect(report.operations).toBe(operations);
      expect(report.ok).toBe(true);
    });
  }
});

describe.skipIf(realSpecs.length === 0)('official files end to end', () => {
  for (const name of realSpecs) {
    it(`verify passes on ${name}`, async () => {
      const report = await verify({ spec: path.join(REAL_SPECS_DIR, name) });
      expect(report.typeErrors).toStrictEqual([]);
      expect(report.exampleFailures).toStrictEqual([]);
      expect(report.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
      expect(report.schemas).toBeGreaterThan(0);
      expect(report.ok).toBe(true);
    });
  }

  it.skipIf(!realSpecs.includes('trust-framework-directory.yaml'))('loads the directory file despite its YAML defect, with a warning naming the line', async () => {
    const result = await generate({ spec: path.join(REAL_SPECS_DIR, 'trust-framework-directory.yaml'), targets: ['validators'] });
    const warnings = result.diagnostics.filter((d) => d.code === 'yaml-tolerated');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toContain('line 2279');
  });

  it('generates the same bytes twice', async () => {
    const spec = path.join(REAL_SPECS_DIR, realSpecs[0]!);
    const a = await generate({ spec, targets: ['validators', 'server', 'client'] });
    const b = await generate({ spec, targets: ['validators', 'server', 'client'] });
    expect(a.files).toStrictEqual(b.files);
  });
});
