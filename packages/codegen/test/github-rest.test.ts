/**
 * GitHub's REST description (the pinned @octokit/openapi devDependency): a 13 MB OpenAPI 3.0
 * file with about 1,200 operations, whose operationIds are not identifiers (`repos/get`). Every
 * target is generated and type-checked strictly, with the options `codegen verify` uses, in a
 * folder where zod and the built runtime packages resolve as in a user's project.
 * (Its generation time and memory are figures of `pnpm bench`, not assertions here.)
 */
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, generatedCodeCompilerOptions, writeFiles } from '../src/index.js';
import { isOperationName } from '../src/ir/operation-names.js';
import { REPO_ROOT } from './helpers/generated.js';
import { removeScratchDirs, scratchDir } from './support/generated-validators.js';

const require = createRequire(import.meta.url);
/** The plain description (with `$ref`s), not the dereferenced one: what a user would feed in. */
const GITHUB = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');

/** Strict type errors of `files` (paths inside `dir`), as `file:line message`. */
async function typeErrors(dir: string, files: string[]): Promise<string[]> {
  const { Project, ts } = await import('ts-morph');
  const project = new Project({ compilerOptions: generatedCodeCompilerOptions(ts), skipAddingFilesFromTsConfig: true });
  for (const file of files) project.addSourceFileAtPath(path.join(dir, file));
  return project.getPreEmitDiagnostics().map((d) => {
    const message = d.getMessageText();
    return `${path.relative(dir, d.getSourceFile()?.getFilePath() ?? dir)}:${d.getLineNumber() ?? 0} ${typeof message === 'string' ? message : message.getMessageText()}`;
  });
}

describe("GitHub's REST description", () => {
  afterAll(removeScratchDirs);

  it('generates every target, which type-checks strictly with 0 errors, one identifier per operation', async () => {
    const result = await generate({ spec: GITHUB, targets: ['validators', 'server', 'client'] });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const dir = await scratchDir('github');
    await writeFiles(dir, result.files, { check: false });
    // The runtimes the server and client import, built (their package exports point at dist).
    await mkdir(path.join(dir, 'node_modules', '@bank-data-sharing'), { recursive: true });
    for (const name of ['server-stubs', 'client']) await symlink(path.join(REPO_ROOT, 'packages', name), path.join(dir, 'node_modules', '@bank-data-sharing', name), 'dir');
    const files = result.files.map((f) => f.path).filter((p) => p.endsWith('.ts'));
    expect(files.filter((f) => f.startsWith('server/')).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('client/')).length).toBeGreaterThan(0);
    expect(await typeErrors(dir, files)).toEqual([]);

    // The handlers interface and the client have one member per operation, named alike.
    const handlers = await readFile(path.join(dir, 'server/handlers.gen.ts'), 'utf8');
    const client = await readFile(path.join(dir, 'client/index.ts'), 'utf8');
    const handlerNames = [...handlers.matchAll(/^ {2}([^\s(]+)\((?:$|request: )/gm)].map((m) => m[1]!);
    const clientMethods = [...client.matchAll(/^ {4}([^\s:]+): core\.operation\(/gm)].map((m) => m[1]!);
    expect(handlerNames.length).toBeGreaterThan(1000);
    expect(new Set(handlerNames).size).toBe(handlerNames.length);
    expect(handlerNames.every(isOperationName)).toBe(true);
    expect([...clientMethods].sort()).toStrictEqual([...handlerNames].sort());
    expect(handlerNames).toContain('reposGet');
  }, 900_000);
});
