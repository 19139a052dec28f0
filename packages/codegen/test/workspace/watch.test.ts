import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { scratchDir } from '../helpers/generated.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/codegen.mjs');

const api = (target: string) => ({
  openapi: '3.0.3',
  info: { title: 'Watched', version: '1.0.0' },
  paths: {
    '/items': {
      get: {
        operationId: 'ListItems',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `./types.yaml#/${target}` } } } } },
      },
    },
  },
});
const types = (member: string) => dump({ Item: { type: 'object', required: [member], properties: { [member]: { type: 'string' } } } });

/** Polls `probe` every 50 ms, at most `tries` times; returns its last answer (no timing is asserted). */
async function until<T>(probe: () => Promise<T> | T, done: (value: T) => boolean, tries = 600): Promise<T> {
  let value = await probe();
  for (let i = 0; i < tries && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await probe();
  }
  return value;
}

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

describe('workspace --watch', () => {
  it('regenerates after each of twenty edits of every kind, one line per run, and recovers from a broken $ref', async () => {
    const root = await scratchDir();
    await mkdir(path.join(root, 'spec'), { recursive: true });
    const apiFile = path.join(root, 'spec/api.yaml');
    const typesFile = path.join(root, 'spec/types.yaml');
    await writeFile(apiFile, dump(api('Item')));
    await writeFile(typesFile, types('committed'));
    await writeFile(
      path.join(root, 'codegen.config.json'),
      JSON.stringify({ packages: { validators: 'pkg' }, apis: [{ files: 'spec/api.yaml', subpath: 'v1' }] }),
    );
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: root, stdio: 'pipe' });
    git('init', '-q');
    git('add', 'spec');
    git('commit', '-qm', 'spec');

    const child = spawn(process.execPath, [BIN, 'workspace', '--watch', '--config', 'codegen.config.json'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const runLines = () => stdout.split('\n').filter((l) => /^\[\d\d:\d\d:\d\d\] /.test(l));
    const generated = path.join(root, 'pkg/src/generated/v1/schemas.gen.ts');
    const read = () => readFile(generated, 'utf8').catch(() => '');

    await until(() => stdout, (s) => s.includes('watching spec for changes'));
    expect(runLines()).toHaveLength(1);
    expect(runLines()[0]).toMatch(/\] start: ok: 1 API\(s\); 5 written/);
    expect(await read()).toContain('committed: string');

    type Edit = { kind: string; apply: () => Promise<unknown> | unknown; expect: string | 'failure' };
    const edits: Edit[] = [];
    for (let round = 1; round <= 4; round++) {
      const inPlace = `inplace${round}`;
      const sedded = `sed${round}`;
      const renamed = `renamed${round}`;
      edits.push(
        // An editor writing in place: same file, new bytes.
        { kind: 'in place', apply: () => writeFile(typesFile, types(inPlace)), expect: inPlace },
        // sed -i: a new file renamed over the old one.
        { kind: 'sed -i', apply: () => execFileSync('sed', ['-i', `s/${inPlace}/${sedded}/g`, typesFile]), expect: sedded },
        // An editor's write-then-rename.
        {
          kind: 'write then rename',
          apply: async () => {
            await writeFile(`${typesFile}.swap-${round}`, types(renamed));
            await rename(`${typesFile}.swap-${round}`, typesFile);
          },
          expect: renamed,
        },
        // git checkout of the file: back to the committed text.
        { kind: 'git checkout', apply: () => git('checkout', '--', 'spec/types.yaml'), expect: 'committed' },
        // A broken $ref fails (nothing written), then fixing it regenerates.
        { kind: 'broken $ref', apply: () => writeFile(apiFile, dump(api('Itemm'))), expect: 'failure' },
      );
      edits.push({ kind: 'fixed $ref', apply: () => writeFile(apiFile, dump(api('Item'))), expect: 'committed' });
    }
    // Twenty edits: three whole rounds, then an in-place write and a sed -i.
    edits.splice(20);
    expect(edits.map((e) => e.kind).slice(17)).toStrictEqual(['fixed $ref', 'in place', 'sed -i']);

    let previous = await read();
    for (const [index, edit] of edits.entries()) {
      const before = runLines().length;
      await edit.apply();
      if (edit.expect === 'failure') {
        const lines = await until(runLines, (l) => l.length > before && l.at(-1)!.includes('failed'));
        expect(lines.at(-1), `edit ${index + 1} (${edit.kind})`).toMatch(/failed: .*types\.yaml.*Itemm/);
        // The failed run changed nothing.
        expect(await read(), `edit ${index + 1} (${edit.kind})`).toBe(previous);
      } else {
        const member = `${edit.expect}: string`;
        const text = await until(read, (t) => t.includes(member) && runLines().length > before && runLines().at(-1)!.includes(': ok: '));
        expect(text, `edit ${index + 1} (${edit.kind})`).toContain(member);
        expect(runLines().at(-1), `edit ${index + 1} (${edit.kind})`).toMatch(/spec\/(types|api)\.yaml.* changed: ok: /);
        previous = text;
      }
    }
    // Every run printed exactly one line, and nothing went to standard error.
    expect(stdout.split('\n').filter(Boolean).every((l) => /^\[\d\d:\d\d:\d\d\] .*: (ok|failed): /.test(l) || l.startsWith('watching '))).toBe(true);
    expect(stderr).toBe('');

    child.kill('SIGTERM');
    const code = await until(() => child.exitCode, (c) => c !== null);
    expect(code).toBe(0);
  });
});
