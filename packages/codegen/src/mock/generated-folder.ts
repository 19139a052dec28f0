/**
 * A folder of generated code made runnable: its imports resolvable (`zod` and the runtime
 * packages linked in) and its TypeScript transpiled beside it. `verify` loads the validators
 * this way; the mock server loads validators, server and mocks.
 */
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { writtenByGenerator } from '../write-files.js';

const require = createRequire(import.meta.url);

/** The runtime packages generated server and client code import. */
const RUNTIME_PACKAGES = ['server-stubs', 'client', 'wire'] as const;

/**
 * Where a runtime package lives: installed beside codegen, or next to it in this workspace.
 *
 * @example
 * findRuntimePackage('server-stubs') // '/repo/packages/server-stubs'
 */
export function findRuntimePackage(name: string): string | undefined {
  for (const candidate of [`@bank-data-sharing/${name}/package.json`, `../../../${name}/package.json`]) {
    try {
      return path.dirname(require.resolve(candidate));
    } catch {
      // Not there: try the next place.
    }
  }
  return undefined;
}

function resolvable(specifier: string): string | undefined {
  try {
    return require.resolve(specifier, { paths: [process.cwd(), path.dirname(require.resolve('zod/package.json'))] });
  } catch {
    return undefined;
  }
}

/**
 * Makes what the generated code imports resolvable from `dir`: `zod`, and the server and
 * client runtime packages (their own dependencies resolve from their real folders; their
 * `dist` must be built). A package that cannot be found is left out: whoever loads the code
 * then reports the missing module, which is the truth.
 */
export async function linkDependencies(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'node_modules', '@bank-data-sharing'), { recursive: true });
  // A folder kept from an earlier run (verify --keep) already has the links: replace them.
  const link = async (target: string, at: string) => {
    await rm(at, { recursive: true, force: true });
    await symlink(target, at, 'dir');
  };
  await link(path.dirname(require.resolve('zod/package.json')), path.join(dir, 'node_modules', 'zod'));
  // MSW is an optional peer of the msw target: linked where the project has it installed.
  const msw = resolvable('msw/package.json');
  if (msw) await link(path.dirname(msw), path.join(dir, 'node_modules', 'msw'));
  for (const name of RUNTIME_PACKAGES) {
    const root = findRuntimePackage(name);
    if (root) await link(root, path.join(dir, 'node_modules', '@bank-data-sharing', name));
  }
}

/**
 * The JavaScript of one generated module, types stripped (nothing is type-checked here).
 * esbuild strips types about six times faster than TypeScript's transpiler, and loading it
 * costs nothing next to loading TypeScript: the mock server's start-up is mostly this.
 */
function toJavaScript(source: string): string {
  const out = transformSync(source, { loader: 'ts', format: 'esm', target: 'es2022', legalComments: 'inline' }).code;
  // The JavaScript keeps the header, so that a folder kept with verify --keep is known as the
  // generator's on the next run.
  const header = source.slice(0, source.indexOf('\n') + 1);
  return writtenByGenerator(source) && !writtenByGenerator(out) ? `${header}${out}` : out;
}

/** Writes `x.js` beside each `x.ts` of `files` (paths relative to `dir`). */
export async function transpile(dir: string, files: readonly string[]): Promise<void> {
  await Promise.all(
    files.map(async (file) => {
      const source = await readFile(path.join(dir, file), 'utf8');
      await writeFile(path.join(dir, file.replace(/\.ts$/, '.js')), toJavaScript(source));
    }),
  );
}

/**
 * Writes generated files into `dir` ready to run: each `x.ts` as `x.js` only (nothing reads
 * the TypeScript), any other file as it is.
 */
export async function writeRunnable(dir: string, files: ReadonlyArray<{ path: string; contents: string }>): Promise<void> {
  await Promise.all([...new Set(files.map((f) => path.dirname(path.join(dir, f.path))))].map((folder) => mkdir(folder, { recursive: true })));
  await Promise.all(
    files.map((file) =>
      file.path.endsWith('.ts')
        ? writeFile(path.join(dir, file.path.replace(/\.ts$/, '.js')), toJavaScript(file.contents))
        : writeFile(path.join(dir, file.path), file.contents),
    ),
  );
}
