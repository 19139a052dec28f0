/**
 * The body of a differential test for one spec file: runs the differential, prints the
 * counts, and asserts that ajv accepts every instance built as valid and that every
 * disagreement is one of the documented known ones.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { explain } from '../differential/known-disagreements.js';
import { DEFAULT_OPTIONS, formatCheckDisagreement, formatCounts, formatDisagreement, runDifferential, type DifferentialReport } from './differential.js';
import { removeScratchDirs } from './generated-validators.js';
import { specAvailable, type SpecFile } from './spec-files.js';

export function differentialSuite(spec: SpecFile): void {
  const available = specAvailable(spec);
  describe.skipIf(!available)(`zod and ajv agree on ${spec.label}`, () => {
    let report: DifferentialReport | undefined;
    afterAll(removeScratchDirs);

    it('checks seeded valid instances and mutations of every component schema', { timeout: 600_000 }, async () => {
      report = await runDifferential(spec.file, DEFAULT_OPTIONS);
      console.log(formatCounts(spec.label, report));
      const explained = new Map<string, number>();
      for (const d of report.disagreements) for (const k of explain(d)) explained.set(k.id, (explained.get(k.id) ?? 0) + 1);
      if (explained.size > 0) console.log(`  known disagreements seen: ${[...explained].map(([id, n]) => `${id} ×${n}`).join(', ')}`);
      if (report.oracle.notes.length > 0) console.log(`  ajv adaptations: ${report.oracle.notes.join('; ')}`);
      console.log(`  allOf nodes given the generator's reading for ajv: ${report.oracle.rewrittenAllOf.length}`);

      // Every component schema is exercised, with as many valid instances as asked.
      expect(report.skipped).toStrictEqual([]);
      expect(report.counts.every((c) => c.valid === DEFAULT_OPTIONS.validPerSchema && c.mutants > 0)).toBe(true);
      // An instance built as valid that ajv rejects is a bug in the instance generator.
      expect(report.generatorRejects.map(formatDisagreement)).toStrictEqual([]);
      // zod's output is the input, with defaults filled in as ajv's useDefaults fills them.
      expect(report.outputMismatches.map((m) => `${m.schema}: zod ${JSON.stringify(m.zod)} vs ajv ${JSON.stringify(m.ajv)}`)).toStrictEqual([]);
      // Check functions answer exactly as zod's parse does, on every instance, and most schemas have one.
      expect(report.checkDisagreements.map(formatCheckDisagreement)).toStrictEqual([]);
      expect(report.checked.schemas).toBeGreaterThan(report.counts.length * 0.8);
      // Any disagreement must be a known, documented one.
      const unexplained = report.disagreements.filter((d) => explain(d).length === 0);
      expect(unexplained.map(formatDisagreement)).toStrictEqual([]);
    });

    it('has mutants that both validators reject (the mutations are not vacuous)', () => {
      if (!report) throw new Error('the differential did not run');
      const mutants = report.counts.reduce((n, c) => n + c.mutants, 0);
      const rejected = report.counts.reduce((n, c) => n + c.rejected, 0);
      expect(rejected / mutants).toBeGreaterThan(0.5);
    });
  });
}
