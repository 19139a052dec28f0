import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../helpers/generated.js';
import { FIXTURES } from '../helpers/scaffold-project.js';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');
const BIN = path.resolve(SRC, '../bin/codegen.mjs');

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('codegen scaffold CLI', () => {
  it('has help (exit 0), listed in the main help', () => {
    const help = run('scaffold', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: codegen scaffold --spec <file|version> --out <dir>');
    expect(help.stdout).toContain('--templates <dir>');
    expect(run('--help').stdout).toMatch(/scaffold +Write handler files/);
  });

  it('exits 2 on wrong usage and says what is wrong', () => {
    expect(run('scaffold', '--out', 'x')).toMatchObject({ code: 2, stderr: expect.stringContaining('--spec is required') });
    expect(run('scaffold', '--spec', path.join(FIXTURES, 'pets-v1.yaml'))).toMatchObject({ code: 2, stderr: expect.stringContaining('--out is required') });
    expect(run('scaffold', '--spec', 'a', '--out', 'b', '--group-by', 'size')).toMatchObject({ code: 2, stderr: expect.stringContaining('--group-by must be tag or path') });
    expect(run('scaffold', '--bogus').code).toBe(2);
    // The versions come from the nearest codegen.config.json above the current folder (the repository's).
    expect(run('scaffold', '--spec', 'no-such-file.yaml', '--out', 'b').stderr).toMatch(/"no-such-file.yaml" is neither a file nor a version \(known: v2.1, .*v2.2\/lfi/);
  });

  it('exits 1 naming the file and the problem: no server module for a spec outside the workspace, a file in the way', async () => {
    const dir = await scratchDir();
    const spec = path.join(FIXTURES, 'pets-v1.yaml');
    const noServer = run('scaffold', '--spec', spec, '--out', path.join(dir, 'h'));
    expect(noServer.code).toBe(1);
    expect(noServer.stderr).toContain('a new scaffold needs the module of the generated server stubs of');
    expect(noServer.stderr).toContain('Pass it with --server <module>');
    await mkdir(path.join(dir, 'taken'));
    await writeFile(path.join(dir, 'taken', 'pets.ts'), '// ours\n');
    const inTheWay = run('scaffold', '--spec', spec, '--out', path.join(dir, 'taken'), '--server', 'x');
    expect(inTheWay.code).toBe(1);
    expect(inTheWay.stderr).toContain('pets.ts already exists and scaffold.json does not');
    expect(await readdir(path.join(dir, 'taken'))).toStrictEqual(['pets.ts']);
  });

  it('--check exits 1 listing what it would write, and writes nothing; then the real run exits 0', async () => {
    const dir = path.join(await scratchDir(), 'h');
    const spec = path.join(FIXTURES, 'pets-v1.yaml');
    const check = run('scaffold', '--spec', spec, '--out', dir, '--server', 'x', '--check');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('would scaffold Pet Shelter 1.0.0: 5 operations, 5 files');
    expect(check.stdout).toMatch(/create +\S*pets\.ts +pets: listPets, addPet, findPetById, deletePet/);
    expect(existsSync(dir)).toBe(false);
    const real = run('scaffold', '--spec', spec, '--out', dir, '--server', 'x');
    expect(real.code).toBe(0);
    expect(JSON.parse(await readFile(path.join(dir, 'scaffold.json'), 'utf8')).server).toBe('x');
  });
});

describe('generate stays free of ts-morph', () => {
  /** Files reachable from `file` through static (non-type) imports. */
  async function staticGraph(file: string, seen = new Set<string>()): Promise<Set<string>> {
    if (seen.has(file)) return seen;
    seen.add(file);
    const text = await readFile(file, 'utf8');
    for (const match of text.matchAll(/^import (?!type )[^;]*?from '(\.[^']+)'/gms)) {
      await staticGraph(path.resolve(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')), seen);
    }
    return seen;
  }

  it('the CLI module loads neither the scaffold code nor ts-morph until the scaffold command runs', async () => {
    const graph = await staticGraph(path.join(SRC, 'cli.ts'));
    expect([...graph].some((f) => f.includes(`${path.sep}scaffold${path.sep}`))).toBe(false);
    for (const file of graph) expect(await readFile(file, 'utf8'), file).not.toMatch(/^import (?!type )[^;]*from 'ts-morph'/m);
    expect(await readFile(path.join(SRC, 'cli.ts'), 'utf8')).toContain("await import('./scaffold/command.js')");
  });
});
