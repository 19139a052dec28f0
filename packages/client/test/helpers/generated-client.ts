/**
 * Generates validators and client from a spec into a scratch folder inside the package (so the
 * runtime and zod resolve as for any user, the runtime from its sources by the vitest alias),
 * and loads the client: for features no checked-in client exercises.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generate, writeFiles } from '@bank-data-sharing/codegen';

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const repoRoot = path.resolve(packageRoot, '../..');

export interface GeneratedOutput {
  /** The folder holding `validators/` and `client/`. */
  dir: string;
  remove(): Promise<void>;
}

/** Writes the generated `validators/` and `client/` of `spec` under `.test-output/<name>`. */
export async function generateInto(spec: string, name: string): Promise<GeneratedOutput> {
  const dir = path.join(packageRoot, '.test-output', name);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const result = await generate({ spec, targets: ['validators', 'client'] });
  await writeFiles(dir, result.files, { check: false });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Imports the generated client module of an output folder. */
export async function importClient<T>(output: GeneratedOutput): Promise<T> {
  return (await import(pathToFileURL(path.join(output.dir, 'client/index.ts')).href)) as T;
}
