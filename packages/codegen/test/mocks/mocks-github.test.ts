/**
 * The corpus property of the mocks on GitHub's REST description (the pinned @octokit/openapi
 * devDependency, about 1,200 operations): every JSON response body, two seeds each, judged by
 * ajv. Kept apart from the smaller files: it is the slowest of them.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeScratchDirs } from '../support/generated-validators.js';
import { mockCorpus } from './support/mock-corpus.js';

const require = createRequire(import.meta.url);
const GITHUB = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
const SEEDS = 2;

describe("mocks of GitHub's REST description", () => {
  afterAll(removeScratchDirs);

  it('every generated body is valid for ajv', async () => {
    const report = await mockCorpus(GITHUB, SEEDS);
    expect(report.invalid.slice(0, 3)).toStrictEqual([]);
    expect(report.refused).toStrictEqual([]);
    expect(report.responses).toBeGreaterThan(1000);
    expect(report.bodies).toBe(SEEDS * report.responses);
  }, 600_000);
});
