/**
 * The writers' differential test over the corpus: our files, the official files and
 * @readme/oas-examples. For every JSON response with a schema, seeded valid bodies must come out
 * byte for byte as JSON.stringify writes them, checking or not; mutations of them that zod
 * refuses must never be written when checking (the router then runs today's full check, which
 * names the same issues); whatever is written is JSON.stringify's text.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { corpusLabel as label, OFFICIAL_FILES as OFFICIAL, OWN_FILES as OWN, PUBLISHED_FILES as PUBLISHED, README_EXAMPLE_FILES as README_EXAMPLES } from '../support/corpus-files.js';
import { removeScratchDirs } from '../support/generated-validators.js';
import { REAL_SPECS_DIR } from '../support/spec-files.js';
import { writerCorpus } from './support/writer-corpus.js';

const SEEDS = 6;
const MUTATIONS = 8;

const totals = { files: 0, withWriter: 0, withoutWriter: 0, written: 0, mutated: 0, invalid: 0 };

describe('JSON writers against JSON.stringify and zod, over the corpus', () => {
  afterAll(async () => {
    await removeScratchDirs();
    console.log(`writers: ${totals.files} files, ${totals.withWriter} JSON responses with a writer (${totals.withoutWriter} without), ${totals.written} valid bodies written byte-equal, ${totals.mutated} mutations (${totals.invalid} invalid, none written)`);
  });
  if (OFFICIAL.length === 0) console.log(`skipping the official files: ${REAL_SPECS_DIR} is not present`);
  for (const file of [...OWN, ...OFFICIAL, ...README_EXAMPLES, ...PUBLISHED]) {
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
    // Every JSON response has one: reference cycles and unmerged allOf included.
    expect(totals.withoutWriter).toBe(0);
    expect(totals.invalid).toBeGreaterThan(totals.mutated / 3);
  });
});
