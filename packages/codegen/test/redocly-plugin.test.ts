/**
 * The Redocly plugin (src/redocly-plugin.ts, loaded from the built package as teams load it):
 * the real `redocly lint` reports each super-linear pattern as a warning at its pointer, and
 * our own contracts, linted with the repository's redocly.yaml, have none.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT, REPO_ROOT } from './support/spec-files.js';

const run = promisify(execFile);
const REDOCLY = path.join(REPO_ROOT, 'node_modules/@redocly/cli/bin/cli.js');
const PLUGIN = path.join(PACKAGE_ROOT, 'dist/redocly-plugin.js');
const RULE = 'bank-data-sharing/super-linear-pattern';

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: Array<{ pointer: string }>;
}

/** One JSON report per API linted, written one after the other. */
function reports(stdout: string): Array<{ problems: Problem[] }> {
  return JSON.parse(`[${stdout.replace(/\}\s*\{(?=\s*"totals")/g, '},{')}]`) as Array<{ problems: Problem[] }>;
}

/** `redocly lint --format=json`; it exits non-zero only on errors, which the callers check. */
async function lint(args: string[], cwd: string): Promise<{ problems: Problem[]; apis: number; code: number }> {
  let stdout: string;
  let code = 0;
  try {
    ({ stdout } = await run(process.execPath, [REDOCLY, 'lint', '--format=json', ...args], { cwd, maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    ({ stdout, code } = error as { stdout: string; code: number });
  }
  const all = reports(stdout);
  return { problems: all.flatMap((r) => r.problems), apis: all.length, code };
}

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the Redocly rule bank-data-sharing/super-linear-pattern', () => {
  it('warns at each super-linear pattern, as a team configures it', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'bds-redocly-'));
    dirs.push(dir);
    await writeFile(path.join(dir, 'redocly.yaml'), `plugins:\n  - ${JSON.stringify(PLUGIN)}\nextends:\n  - recommended\nrules:\n  ${RULE}: warn\n`);
    const { problems, code } = await lint([path.join(PACKAGE_ROOT, 'test/fixtures/super-linear-patterns.yaml')], dir);
    expect(code).toBe(0); // warnings, not a failure
    const found = problems.filter((p) => p.ruleId === RULE);
    expect(found.map((p) => [p.severity, p.location[0]!.pointer]).sort()).toStrictEqual(
      [
        ['warn', '#/components/schemas/Article/patternProperties/^x-(a|a)*$'],
        ['warn', '#/components/schemas/Article/properties/author/pattern'],
        ['warn', '#/components/schemas/Article/properties/reviewer/pattern'],
        ['warn', '#/paths/~1articles~1{slug}/get/parameters/0/schema/pattern'],
      ].sort(),
    );
    expect(found.find((p) => p.location[0]!.pointer.endsWith('author/pattern'))!.message).toContain('is polynomial (degree 2)');
    // The safe pattern of the same file is not reported.
    expect(found.some((p) => p.location[0]!.pointer.endsWith('/id/pattern'))).toBe(false);
    expect(problems.filter((p) => p.ruleId !== RULE)).toStrictEqual([]);
  });

  it('finds no super-linear pattern in our contracts, linted with the repository configuration', { timeout: 120_000 }, async () => {
    const { problems, apis, code } = await lint(['--config', path.join(REPO_ROOT, 'redocly.yaml')], REPO_ROOT);
    expect(code).toBe(0);
    expect(apis).toBeGreaterThanOrEqual(5);
    expect(problems.filter((p) => p.ruleId === RULE)).toStrictEqual([]);
  });

  it('is configured in the repository, so that npm run lint applies it', async () => {
    const { readFile } = await import('node:fs/promises');
    const config = await readFile(path.join(REPO_ROOT, 'redocly.yaml'), 'utf8');
    expect(config).toContain('packages/codegen/dist/redocly-plugin.js');
    expect(config).toMatch(new RegExp(`${RULE}: warn`));
  });
});
