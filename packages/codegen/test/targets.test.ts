import { spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseTargetList, resolveTargets } from '../src/generate.js';
import { scratchDir } from './helpers/generated.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/codegen.mjs');

function run(cwd: string, ...args: string[]) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Targets', version: '1.0.0' },
  paths: {
    '/things': {
      get: {
        operationId: 'ListThings',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string', example: 'a' } } } } } } },
      },
    },
  },
};

async function project(): Promise<string> {
  const dir = await scratchDir();
  await writeFile(path.join(dir, 'api.yaml'), dump(SPEC));
  return dir;
}

const folders = async (dir: string) => (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();

describe('--target', () => {
  it('reads one target, a comma-separated list or all, and adds what the others import', () => {
    expect(parseTargetList('server')).toStrictEqual(['server']);
    expect(parseTargetList('client, validators')).toStrictEqual(['validators', 'client']);
    expect(parseTargetList('all')).toStrictEqual(['validators', 'server', 'client', 'mocks']);
    expect(() => parseTargetList('server,nope')).toThrow('--target takes validators, server, client');
    expect(() => parseTargetList('all,server')).toThrow();
    expect(resolveTargets(['server', 'client'])).toStrictEqual({ targets: ['validators', 'server', 'client'], added: [{ target: 'validators', neededBy: ['server', 'client'] }] });
    expect(resolveTargets(['validators'])).toStrictEqual({ targets: ['validators'], added: [] });
    expect(resolveTargets(['mocks'])).toStrictEqual({ targets: ['validators', 'mocks'], added: [{ target: 'validators', neededBy: ['mocks'] }] });
  });

  it('generates a list of targets and nothing else', async () => {
    const dir = await project();
    const result = run(dir, 'generate', '--spec', 'api.yaml', '--out', 'gen', '--target', 'validators,client');
    expect(result.code).toBe(0);
    expect(await folders(path.join(dir, 'gen'))).toStrictEqual(['client', 'validators']);
    expect(result.stdout).not.toContain('also written');
  });

  it('--target server alone also writes the validators it imports, and says so', async () => {
    const dir = await project();
    const result = run(dir, 'generate', '--spec', 'api.yaml', '--out', 'gen', '--target', 'server');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('also written: validators (imported by server)');
    expect(await folders(path.join(dir, 'gen'))).toStrictEqual(['server', 'validators']);
    // Every relative import of the server code names a file that was written.
    for (const file of await readdir(path.join(dir, 'gen/server'))) {
      const text = await readFile(path.join(dir, 'gen/server', file), 'utf8');
      for (const [, specifier] of text.matchAll(/from '(\.[^']+)'/g)) {
        const target = path.resolve(dir, 'gen/server', specifier!.replace(/\.js$/, '.ts'));
        await expect(readFile(target, 'utf8'), `${file} imports ${specifier}`).resolves.toBeTypeOf('string');
      }
    }
  });

  it('rejects an unknown target with exit 2', async () => {
    const dir = await project();
    const result = run(dir, 'generate', '--spec', 'api.yaml', '--out', 'gen', '--target', 'validators,sever');
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"validators,sever"');
  });

  it('verify --target generates and type-checks only those targets (with the validators)', async () => {
    const dir = await project();
    const result = run(dir, 'verify', '--spec', 'api.yaml', '--target', 'client', '--keep', 'kept');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('api.yaml (validators, client):');
    expect(result.stdout).toMatch(/examples checked, 0 example failures, 0 type errors, 0 errors, 0 warnings — OK/);
    expect(await folders(path.join(dir, 'kept'))).toStrictEqual(['client', 'node_modules', 'validators']);
  });
});
