import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as codegen from '../../src/index.js';
import { REPO_ROOT } from '../helpers/generated.js';
import { compareWithKnown, defaultSuiteDir, DRAFTS, formatKnown, formatTotals, knownFrom, runConformance, type FileResult, type Known } from './index.mjs';

const SUITE_DIR = defaultSuiteDir(REPO_ROOT);
const KNOWN_FILE = new URL('./known.json', import.meta.url);
/** CONFORMANCE_UPDATE=1 rewrites known.json from this run instead of comparing with it. */
const UPDATE = process.env['CONFORMANCE_UPDATE'] === '1';

const present = existsSync(path.join(SUITE_DIR, 'tests'));
if (!present) console.log(`JSON-Schema-Test-Suite not found beside the repository (${path.basename(SUITE_DIR)}): skipping the conformance run`);

describe.skipIf(!present)('JSON-Schema-Test-Suite conformance', () => {
  const results: FileResult[] = [];

  // Generation is in-process and batched per keyword file: about ten seconds alone, but
  // `npm test` shares two cores with the other test files.
  for (const { draft } of DRAFTS) {
    it(`draft ${draft}: nothing newly wrong or refused, and no entry of known.json that now passes`, { timeout: 300_000 }, async () => {
      const ran = await runConformance({ api: codegen, suiteDir: SUITE_DIR, drafts: [draft] });
      results.push(...ran);
      console.log(formatTotals(ran));
      if (UPDATE) return;
      const known = JSON.parse(await readFile(KNOWN_FILE, 'utf8')) as Known;
      const problems = compareWithKnown({ results: ran, known });
      expect(problems, 'answers differ from known.json: fix the regression, or remove the entries that now pass (CONFORMANCE_UPDATE=1 rewrites the file)').toStrictEqual([]);
    });
  }

  it.runIf(UPDATE)('rewrites known.json from this run', async () => {
    expect(results.length).toBeGreaterThan(0);
    await writeFile(KNOWN_FILE, formatKnown(knownFrom(results)));
  });
});
