/**
 * The corpus property of the mocks: for every operation, declared status and JSON media type
 * of every file below, seeded bodies are judged by ajv (an independent validator, with the
 * differential test's documented readings of OpenAPI). None may be invalid; the responses
 * no body can be generated for are listed here with the reason the mocks give.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { corpusLabel as label, OFFICIAL_FILES as OFFICIAL, OWN_FILES as OWN, PUBLISHED_FILES as PUBLISHED, README_EXAMPLE_FILES as README_EXAMPLES } from '../support/corpus-files.js';
import { removeScratchDirs } from '../support/generated-validators.js';
import { REAL_SPECS_DIR } from '../support/spec-files.js';
import { mockCorpus } from './support/mock-corpus.js';

/**
 * Responses no valid body exists for, by file: which responses (their `operation status
 * media-type`), the reason the mocks give, and why no value can satisfy the schema.
 */
const KNOWN_REFUSALS: Record<string, ReadonlyArray<{ responses: RegExp; reason: RegExp; why: string }>> = {
  'oas-examples/3.0/json/circular-request-bodies.json': [
    {
      responses: /^directCircular 200 application\/json:/,
      reason: /TreeNode\/properties\/parent: references nest deeper than 32/,
      why: 'TreeNode requires `parent`, itself a TreeNode: no finite value has an endless chain of parents',
    },
  ],
  'oas-examples/3.0/json/readme-legacy.json': [
    {
      responses: /^\w+ 40[01] application\/json:/,
      reason: /must match exactly one schema of oneOf, but matches \d/,
      why: 'the error variants of each oneOf (error_APIKEY_EMPTY, error_APIKEY_NOTFOUND, ...) accept the same values (their `error` member is any string, with only a default), so every value matches several',
    },
  ],
};

const SEEDS = 12;

describe('mocks of every file: every generated body is valid for ajv', () => {
  afterAll(removeScratchDirs);
  if (OFFICIAL.length === 0) console.log(`skipping the official files: ${REAL_SPECS_DIR} is not present`);
  for (const file of [...OWN, ...OFFICIAL, ...README_EXAMPLES, ...PUBLISHED]) {
    it(label(file), async () => {
      const report = await mockCorpus(file, SEEDS);
      expect(report.invalid.slice(0, 3)).toStrictEqual([]);
      const known = KNOWN_REFUSALS[label(file)] ?? [];
      const unexplained = report.refused.filter((r) => !known.some((k) => k.responses.test(r) && k.reason.test(r)));
      expect(unexplained).toStrictEqual([]);
      for (const entry of known) expect(report.refused.some((r) => entry.responses.test(r)), `still refused: ${entry.why}`).toBe(true);
      // Every JSON response that can have a body got one per seed.
      expect(report.bodies).toBe(SEEDS * (report.responses - report.refused.length));
    });
  }
});
