/**
 * `npm run codegen -- <command>` from the repository's root script reads relative paths from
 * the folder the user typed it in (npm passes it as INIT_CWD), not from the repository root
 * npm runs the script in; version names still come from the nearest codegen.config.json.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/generated.js';
import { FIXTURES } from './helpers/scaffold-project.js';

/** npm as a user runs it: without the npm_config_* variables of the runner's own package manager. */
function npmRunCodegen(cwd: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|pnpm_|INIT_CWD$)/i.test(key)) env[key] = value;
  const result = spawnSync('npm', ['--prefix', REPO_ROOT, 'run', '--silent', 'codegen', '--', ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('npm run codegen from another folder', () => {
  let elsewhere: string;
  beforeAll(async () => {
    elsewhere = await mkdtemp(path.join(os.tmpdir(), 'bds-codegen-caller-'));
    await copyFile(path.join(FIXTURES, 'pets-v1.yaml'), path.join(elsewhere, 'old.yaml'));
    await copyFile(path.join(FIXTURES, 'pets-v2.yaml'), path.join(elsewhere, 'new.yaml'));
  });
  afterAll(async () => {
    await rm(elsewhere, { recursive: true, force: true });
  });

  it('reads the files of diff from the folder it was typed in', () => {
    const out = npmRunCodegen(elsewhere, 'diff', '--from', 'old.yaml', '--to', 'new.yaml');
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('Pet Shelter 1.0.0 → Pet Shelter 2.0.0');
  });

  it('reads from the folder it runs in when started there by another script (INIT_CWD names where that script began)', () => {
    // `cd specs && node <repo>/scripts/codegen.mjs ...` inside a project's own npm script.
    const env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: os.tmpdir() };
    const result = spawnSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'codegen.mjs'), 'diff', '--from', 'old.yaml', '--to', 'new.yaml'], { cwd: elsewhere, env, encoding: 'utf8', timeout: 120_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('Pet Shelter 1.0.0 → Pet Shelter 2.0.0');
  });

  it('finds the versions of codegen.config.json from a folder below the repository root', () => {
    const out = npmRunCodegen(path.join(REPO_ROOT, 'packages', 'codegen'), 'diff', '--from', 'v2.1', '--to', 'v2.2');
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/v2\.1 → .*v2\.2/);
  });
});
