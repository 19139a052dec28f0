/**
 * `codegen mock` as a user runs it (the built CLI, bin/codegen.mjs → dist): usage errors,
 * a file it refuses, and a server that starts, answers, and stops cleanly on SIGTERM.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeSpec } from '../helpers/generated.js';
import { oasExample } from './support.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codegen.mjs');

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('codegen mock (CLI)', () => {
  it('explains itself with an example, and is listed in the main help', () => {
    const help = run('mock', '--help');
    expect(help.code).toBe(0);
    for (const text of ['--spec <file>', '--port', '--seed', '--delay', '--dynamic', '--prefix', 'Prefer: code=404', 'Example:']) expect(help.stdout).toContain(text);
    expect(run('--help').stdout).toMatch(/\n {2}mock {7}/);
  });

  it('exits 2 on wrong usage', () => {
    for (const args of [['mock'], ['mock', '--spec', 'x.yaml', '--port', '70000'], ['mock', '--spec', 'x.yaml', '--delay', '-1'], ['mock', '--spec', 'x.yaml', '--seed', 'one'], ['mock', '--spec', 'x.yaml', '--prefix', 'v1'], ['mock', '--nope']]) {
      const result = run(...args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('codegen mock --help');
    }
  });

  it('refuses a file the generator cannot represent, naming the JSON pointer, exit 1', async () => {
    const spec = await writeSpec({
      openapi: '3.0.3',
      info: { title: 'Broken', version: '1' },
      paths: { '/things': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } } } } },
      components: { schemas: { Thing: { type: 'strange' } } },
    });
    const result = run('mock', '--spec', spec, '--port', '0');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('#/components/schemas/Thing/type');
    expect(result.stdout).toBe('');
  });

  it('starts, prints the base URL and a curl line, answers, and stops on SIGTERM leaving nothing behind', async () => {
    const tmp = await scratchDir();
    const child = spawn(process.execPath, [BIN, 'mock', '--spec', oasExample('3.0/json/petstore-expanded.json'), '--port', '0', '--delay', '20', '--prefix', '/mock'], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!/try: /.test(stdout) && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
      const url = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/mock)$/m.exec(stdout)?.[1];
      expect(url, `${stdout}\n${stderr}`).toBeDefined();
      expect(stdout).toMatch(/try: curl -i .*\/mock\/pets/);
      expect(stdout).toMatch(/generated in \d+ ms .*serving \d+ ms later/);
      expect((await readdir(tmp)).filter((f) => f.startsWith('bds-mock-'))).toHaveLength(1);
      const started = Date.now();
      const res = await fetch(`${url}/pets`, { signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(19);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('mock server stopped (SIGTERM)');
    expect((await readdir(tmp)).filter((f) => f.startsWith('bds-mock-'))).toStrictEqual([]);
  });
});
