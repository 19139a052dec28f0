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

describe('start.js --lfi-url', () => {
  it('needs --lfi-credential, an http(s) origin, and refuses the credential alone (exit 2)', () => {
    const alone = run('start.js', '--lfi-url', 'http://127.0.0.1:9');
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain('--lfi-url needs --lfi-credential');
    const bad = run('start.js', '--lfi-url', 'ftp://lfi', '--lfi-credential', 'x');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--lfi-url must be http or https');
    const credential = run('start.js', '--lfi-credential', 'x');
    expect(credential.status).toBe(2);
    expect(credential.stderr).toContain('--lfi-credential goes with --lfi-url');
  });

  it('says why and exits 1 when the LFI cannot be reached', () => {
    const out = run('start.js', '--hub-port', '0', '--lfi-url', 'http://127.0.0.1:9', '--lfi-credential', 'x');
    expect(out.status).toBe(1);
    expect(out.stderr).toMatch(/Cannot use the LFI at http:\/\/127\.0\.0\.1:9: The institution (refused|closed) the connection/);
  });
});
