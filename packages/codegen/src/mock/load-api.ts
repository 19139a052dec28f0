/**
 * Generates the validators, server and mocks of a spec into a temporary folder, makes the
 * folder runnable (generated-folder.ts) and imports what the mock server needs from it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, type GenerateOptions } from '../generate.js';
import type { ApiIR, Diagnostic } from '../ir/types.js';
import { findRuntimePackage, linkDependencies, writeRunnable } from './generated-folder.js';
import type { LoadedModules } from './loaded-modules.js';

/** A file the generator refuses to generate: its diagnostics name each problem by JSON pointer. */
export class MockSpecError extends Error {
  constructor(
    readonly spec: string,
    readonly diagnostics: readonly Diagnostic[],
  ) {
    const errors = diagnostics.filter((d) => d.severity === 'error');
    super(`${spec}: ${errors.length} error(s); the mock server cannot serve what the generator cannot represent`);
    this.name = 'MockSpecError';
  }
}

/** The generated code could not be loaded: a runtime package missing or not built. */
export class MockLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MockLoadError';
  }
}

/** The generated code of one spec, loaded, and the folder it lives in. */
export interface LoadedApi extends LoadedModules {
  readonly api: ApiIR;
  readonly diagnostics: readonly Diagnostic[];
  readonly dir: string;
  /**
   * Milliseconds spent generating the code, writing it as JavaScript (types stripped), and
   * importing it.
   */
  readonly timings: { readonly generate: number; readonly write: number; readonly load: number };
  /** Removes the folder (also done at process exit if nobody calls this). */
  remove(): Promise<void>;
}

export type LoadOptions = Omit<GenerateOptions, 'targets' | 'emit' | 'source'>;

/**
 * Generates and loads the validators, server and mocks of `options.spec`. Throws
 * `MockSpecError` when the generator reports errors; nothing is left on disk then.
 */
export async function loadMockApi(options: LoadOptions): Promise<LoadedApi> {
  const started = performance.now();
  // The transpiler takes half a second to load: it loads while the generator works.
  const transpiler = import('ts-morph').catch(() => undefined);
  const result = await generate({ ...options, targets: ['validators', 'server', 'mocks'] });
  if (result.diagnostics.some((d) => d.severity === 'error')) throw new MockSpecError(options.spec, result.diagnostics);
  const generated = performance.now();
  const serverRuntime = findRuntimePackage('server-stubs');
  if (!serverRuntime) throw new MockLoadError('the server runtime @bank-data-sharing/server-stubs is not installed beside codegen');

  const dir = await mkdtemp(path.join(os.tmpdir(), 'bds-mock-'));
  // Whatever ends the process, the folder goes with it (close() removes it sooner).
  const onExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', onExit);
  const remove = async () => {
    process.removeListener('exit', onExit);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
    await linkDependencies(dir);
    await transpiler;
    await writeRunnable(dir, result.files);
    const written = performance.now();
    const modules = await importModules(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ERR_MODULE_NOT_FOUND') throw error;
      throw new MockLoadError(`cannot load the generated code: ${error.message} (is @bank-data-sharing/server-stubs built? run "pnpm build")`, { cause: error });
    });
    return {
      ...modules,
      api: result.built.api,
      diagnostics: result.diagnostics,
      dir,
      timings: { generate: generated - started, write: written - generated, load: performance.now() - written },
      remove,
    };
  } catch (error) {
    await remove();
    throw error;
  }
}

async function importModules(dir: string): Promise<LoadedModules> {
  const load = (file: string) => import(pathToFileURL(path.join(dir, file)).href);
  // The runtime as the generated server resolves it (one copy: its ApiError is the router's).
  const runtimeEntry = createRequire(path.join(dir, 'package.json')).resolve('@bank-data-sharing/server-stubs/runtime');
  const [validators, server, mocks, mockRuntime, model, sample, random, runtime] = await Promise.all([
    load('validators/index.js'),
    load('server/index.js'),
    load('mocks/index.js'),
    load('mocks/mock.gen.js'),
    load('mocks/model.gen.js'),
    load('mocks/sample.gen.js'),
    load('mocks/random.gen.js'),
    import(pathToFileURL(runtimeEntry).href),
  ]);
  return {
    validators,
    server,
    mocks: mocks.mocks,
    mockRuntime,
    model: model.model,
    sample,
    random,
    runtime,
  } as LoadedModules;
}
