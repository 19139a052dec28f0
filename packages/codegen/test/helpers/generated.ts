import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump } from 'js-yaml';
import { generate, writeFiles } from '../../src/index.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO_ROOT = path.resolve(PACKAGE_ROOT, '../..');
/** Official files, beside the repository when the machine has them (CI does). */
export const REAL_SPECS_DIR = path.resolve(REPO_ROOT, '../shared/real-specs');

/** A scratch folder inside the package, so generated code resolves `zod` from its node_modules. */
export async function scratchDir(): Promise<string> {
  const base = path.join(PACKAGE_ROOT, '.test-output');
  await mkdir(base, { recursive: true });
  return mkdtemp(path.join(base, 'run-'));
}

/** Writes an OpenAPI document (as an object) to a scratch YAML file. */
export async function writeSpec(document: unknown, name = 'spec.yaml'): Promise<string> {
  const dir = await scratchDir();
  const file = path.join(dir, name);
  await writeFile(file, dump(document));
  return file;
}

/** A minimal OpenAPI 3.0 document holding the given component schemas. */
export function specWithSchemas(schemas: Record<string, unknown>, openapi = '3.0.3'): Record<string, unknown> {
  return { openapi, info: { title: 'Fixture', version: '1.0.0' }, paths: {}, components: { schemas } };
}

type SafeParse = { success: boolean; data?: unknown; error?: { issues: Array<{ path: PropertyKey[]; message: string; code: string }> } };
export interface LoadedValidators {
  schemas: Record<string, { safeParse(value: unknown): SafeParse }>;
  operations: Record<string, unknown>;
  api: { title: string; version: string; pathPrefix: string; servers: string[] };
  [name: string]: unknown;
}

/** Generates the validators of a spec document and imports them. */
export async function loadValidators(document: unknown): Promise<LoadedValidators> {
  const spec = await writeSpec(document);
  const result = await generate({ spec, targets: ['validators'] });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => `${e.pointer}: ${e.message}`).join('\n'));
  const out = path.join(path.dirname(spec), 'out');
  await writeFiles(out, result.files, { check: false });
  return (await import(path.join(out, 'validators/index.ts'))) as LoadedValidators;
}
