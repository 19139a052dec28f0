/**
 * The writers' differential test over the corpus: our files, the official files and
 * @readme/oas-examples. For every JSON response with a schema, seeded valid bodies must come out
 * byte for byte as JSON.stringify writes them, checking or not; mutations of them that zod
 * refuses must never be written when checking (the router then runs today's full check, which
 * names the same issues); whatever is written is JSON.stringify's text.
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeScratchDirs } from '../support/generated-validators.js';
import { REAL_SPECS_DIR, REPO_ROOT } from '../support/spec-files.js';
import { writerCorpus } from './support/writer-corpus.js';

const require = createRequire(import.meta.url);
const EXAMPLES = path.dirname(require.resolve('@readme/oas-examples/package.json'));

const OWN = ['spec/v2.1/account-information.yaml', 'spec/v2.2/account-information.yaml', 'spec/v2.1/lfi-paging.yaml', 'spec/v2.2/lfi-paging.yaml', 'spec/directory/directory.yaml'].map((f) => path.join(REPO_ROOT, f));
const OFFICIAL = existsSync(REAL_SPECS_DIR) ? readdirSync(REAL_SPECS_DIR).filter((f) => /\.(ya?ml|json)$/.test(f)).map((f) => path.join(REAL_SPECS_DIR, f)) : [];
const README_EXAMPLES = ['3.0', '3.1'].flatMap((version) =>
  readdirSync(path.join(EXAMPLES, version, 'json'), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.join(EXAMPLES, version, 'json', e.name)),
);

const SEEDS = 6;
const MUTATIONS = 8;

function label(file: string): string {
  if (file.startsWith(EXAMPLES)) return `oas-examples/${path.relative(EXAMPLES, file).split(path.sep).join('/')}`;
  if (file.startsWith(REAL_SPECS_DIR)) return `real-specs/${path.basename(file)}`;
  return path.relative(REPO_ROOT, file).split(path.sep).join('/');
}

const totals = { files: 0, withWriter: 0, withoutWriter: 0, written: 0, mutated: 0, invalid: 0 };

describe('JSON writers against JSON.stringify and zod, over the corpus', () => {
  afterAll(async () => {
    await removeScratchDirs();
    console.log(`writers: ${totals.files} files, ${totals.withWriter} JSON responses with a writer (${totals.withoutWriter} without), ${totals.written} valid bodies written byte-equal, ${totals.mutated} mutations (${totals.invalid} invalid, none written)`);
  });
  if (OFFICIAL.length === 0) console.log(`skipping the official files: ${REAL_SPECS_DIR} is not present`);
  for (const file of [...OWN, ...OFFICIAL, ...README_EXAMPLES]) {
    it(label(file), async () => {
      const report = await writerCorpus(file, SEEDS, MUTATIONS);
      totals.files++;
      totals.withWriter += report.withWriter;
      totals.withoutWriter += report.withoutWriter.length;
      totals.written += report.written;
      totals.mutated += report.mutated;
      totals.invalid += report.invalid;
      expect(report.differing.slice(0, 3)).toStrictEqual([]);
      expect(report.writtenInvalid.slice(0, 5)).toStrictEqual([]);
      expect(report.mutatedDiffering.slice(0, 3)).toStrictEqual([]);
      expect(report.leftValid.slice(0, 5)).toStrictEqual([]);
    });
  }
  it('is not vacuous: every file of ours and the official ones has writers, and mutations are refused', () => {
    expect(totals.withWriter).toBeGreaterThan(100);
    expect(totals.invalid).toBeGreaterThan(totals.mutated / 3);
  });
});
