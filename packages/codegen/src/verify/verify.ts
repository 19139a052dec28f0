import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, resolveTargets, TARGETS, type Target } from '../generate.js';
import { writeFiles } from '../write-files.js';
import type { Diagnostic } from '../ir/types.js';
import type { BuildOptions } from '../ir/build-ir.js';
import { generatedCodeCompilerOptions } from './compiler-options.js';
import { emitExamples } from './emit-examples.js';
import type { DirectionOptions } from '../ir/direction.js';
import { linkDependencies, transpile } from '../mock/generated-folder.js';

export interface ExampleFailure {
  pointer: string;
  issues: string[];
}

export interface VerifyReport {
  spec: string;
  /** The targets generated and type-checked. */
  targets: Target[];
  operations: number;
  schemas: number;
  examplesChecked: number;
  exampleFailures: ExampleFailure[];
  typeErrors: string[];
  diagnostics: Diagnostic[];
  ok: boolean;
}

/** The generate options that decide what validates, so that verify checks what generate writes. */
export interface VerifyOptions extends BuildOptions, DirectionOptions {
  spec: string;
  /** Keep the generated folder here instead of a temporary one. */
  keepDir?: string;
  /** Targets to generate and type-check (default: all); the validators always are. */
  targets?: readonly Target[];
  onProgress?: (step: string) => void;
}

/** Files to type-check, relative to the folder they were generated into. */
interface Folder {
  dir: string;
  files: string[];
}

/**
 * Type-checks the folders in one TypeScript program (zod and the runtime packages are read
 * once for all of them); the errors of each folder, in the order given.
 */
async function typeCheck(folders: Folder[]): Promise<string[][]> {
  const { Project, ts } = await import('ts-morph');
  const project = new Project({
    compilerOptions: generatedCodeCompilerOptions(ts),
    skipAddingFilesFromTsConfig: true,
  });
  for (const { dir, files } of folders) for (const file of files) project.addSourceFileAtPath(path.join(dir, file));
  const errors = folders.map((): string[] => []);
  for (const d of project.getPreEmitDiagnostics()) {
    const file = d.getSourceFile()?.getFilePath();
    // A problem outside every folder (a runtime package's types) concerns them all: the first reports it.
    const owner = Math.max(file === undefined ? -1 : folders.findIndex(({ dir }) => !path.relative(dir, file).startsWith('..')), 0);
    const where = file ? `${path.relative(folders[owner]!.dir, file)}:${d.getLineNumber() ?? 0}` : '';
    const message = d.getMessageText();
    errors[owner]!.push(`${where} ${typeof message === 'string' ? message : message.getMessageText()}`);
  }
  return errors;
}

/** Generates the targets (default: all), type-checks them strictly, and validates every example in the file. */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  return (await verifyAll([options], options.keepDir, options.onProgress))[0]!;
}

/**
 * `verify` for several files at once: each is generated into its own folder, and all are
 * type-checked in one TypeScript program, which reads zod and the runtime packages once.
 * `keepDir` keeps the folders there (one per file, numbered in the order given).
 */
export async function verifyAll(list: readonly Omit<VerifyOptions, 'keepDir'>[], keepDir?: string, onProgress?: (step: string) => void): Promise<VerifyReport[]> {
  const progress = onProgress ?? (() => {});
  const root = keepDir ? path.resolve(keepDir) : await mkdtemp(path.join(os.tmpdir(), 'bds-verify-'));
  try {
    progress('generating');
    const prepared = [];
    for (const [i, options] of list.entries()) prepared.push(await prepare(options, list.length === 1 ? root : path.join(root, String(i + 1))));
    const tsCount = prepared.reduce((n, p) => n + p.files.length, 0);
    progress(`type-checking ${tsCount} files`);
    const typeErrors = await typeCheck(prepared);
    progress('loading validators');
    const reports: VerifyReport[] = [];
    for (const [i, p] of prepared.entries()) reports.push(await checkExamples(p, typeErrors[i]!, progress));
    return reports;
  } finally {
    if (!keepDir) await rm(root, { recursive: true, force: true });
  }
}

interface Prepared extends Folder {
  options: Omit<VerifyOptions, 'keepDir'>;
  targets: Target[];
  result: Awaited<ReturnType<typeof generate>>;
}

/** Generates the targets and the examples module into `dir`, with what their imports need. */
async function prepare(options: Omit<VerifyOptions, 'keepDir'>, dir: string): Promise<Prepared> {
  // The examples are checked with the validators: they are always generated.
  const targets = resolveTargets([...new Set<Target>(['validators', ...(options.targets ?? TARGETS)])]).targets;
  const result = await generate({ ...options, targets });
  const examplesFile = emitExamples(result.built.api, result.built.examples);
  const files = [...result.files, examplesFile];
  await mkdir(dir, { recursive: true });
  await writeFiles(dir, files, { check: false });
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  await linkDependencies(dir);
  return { options, targets, result, dir, files: files.map((f) => f.path).filter((p) => p.endsWith('.ts')) };
}

async function checkExamples(prepared: Prepared, typeErrors: string[], progress: (step: string) => void): Promise<VerifyReport> {
  const { dir, files: tsFiles, result, options, targets } = prepared;
  await transpile(dir, tsFiles);
  const loaded = (await import(pathToFileURL(path.join(dir, 'validators/examples.verify.js')).href)) as {
    examples: Array<{ pointer: string; schema: { safeParse(v: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } } }; value: unknown }>;
  };
  progress(`checking ${loaded.examples.length} examples`);
  const exampleFailures: ExampleFailure[] = [];
  for (const example of loaded.examples) {
    const parsed = example.schema.safeParse(example.value);
    if (!parsed.success) {
      exampleFailures.push({
        pointer: example.pointer,
        issues: (parsed.error?.issues ?? []).map((i) => `${i.path.length ? i.path.map(String).join('.') : '(root)'}: ${i.message}`),
      });
    }
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  return {
    spec: options.spec,
    targets,
    operations: result.built.api.operations.length,
    schemas: result.built.api.schemas.length,
    examplesChecked: loaded.examples.length,
    exampleFailures,
    typeErrors,
    diagnostics: result.diagnostics,
    ok: exampleFailures.length === 0 && typeErrors.length === 0 && errors.length === 0,
  };
}
