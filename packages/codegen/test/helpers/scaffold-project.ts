import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REPO_ROOT, scratchDir } from './generated.js';

const require = createRequire(import.meta.url);

/** Strict options a team would type-check its handlers with. */
export const STRICT_TSCONFIG = {
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  },
  include: ['src'],
};

/**
 * A scratch project as a team would have it: package.json, a strict tsconfig.json, and
 * node_modules linking the workspace packages (their `dist` must be built), zod and Node's types.
 */
export async function scratchProject(): Promise<string> {
  const dir = await scratchDir();
  const scope = path.join(dir, 'node_modules', '@bank-data-sharing');
  await mkdir(scope, { recursive: true });
  for (const name of ['server-stubs', 'validators', 'client']) await symlink(path.join(REPO_ROOT, 'packages', name), path.join(scope, name), 'dir');
  await symlink(path.dirname(require.resolve('zod/package.json')), path.join(dir, 'node_modules', 'zod'), 'dir');
  await mkdir(path.join(dir, 'node_modules', '@types'));
  await symlink(path.dirname(require.resolve('@types/node/package.json')), path.join(dir, 'node_modules', '@types', 'node'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  await writeFile(path.join(dir, 'tsconfig.json'), `${JSON.stringify(STRICT_TSCONFIG, null, 2)}\n`);
  return dir;
}

export const FIXTURES = path.join(REPO_ROOT, 'packages', 'codegen', 'test', 'scaffold', 'fixtures');
export const SPEC_V21 = path.join(REPO_ROOT, 'spec', 'v2.1', 'account-information.yaml');
export const SPEC_V22 = path.join(REPO_ROOT, 'spec', 'v2.2', 'account-information.yaml');

/**
 * True when `before` survives in `after` line by line, byte for byte and in order: `after`
 * only has lines inserted (stubs, imports, comments). `replaced` lists substitutions allowed
 * inside a kept line (an import specifier moving to a new version).
 */
export function onlyInsertions(before: string, after: string, replaced: Array<[string, string]> = []): boolean {
  const oldLines = before.split('\n');
  const newLines = after.split('\n');
  let i = 0;
  for (const line of newLines) {
    if (i >= oldLines.length) break;
    const expected = replaced.reduce((l, [from, to]) => l.split(from).join(to), oldLines[i]!);
    if (line === expected) i++;
  }
  return i === oldLines.length;
}
