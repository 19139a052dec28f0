/** The command lines of `npm start` and `npm run demo`: help and usage mistakes, with their exit codes. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

function run(script: string, ...args: string[]) {
  return spawnSync(process.execPath, [path.join(dist, script), ...args], { encoding: 'utf8', timeout: 30_000 });
}

describe.each(['start.js', 'demo.js'])('%s', (script) => {
  it('prints its usage for --help and exits 0', () => {
    const out = run(script, '--help');
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('--help');
    expect(out.stderr).toBe('');
  });

  it('names the mistake, prints its usage and exits 2 for an unknown option', () => {
    const out = run(script, '--bogus');
    expect(out.status).toBe(2);
    expect(out.stderr).toContain('bogus');
    expect(out.stderr).toContain('--help');
    expect(out.stdout).toBe('');
  });
});
