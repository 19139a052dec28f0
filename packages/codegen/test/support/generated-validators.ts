import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, writeFiles, type GenerateResult } from '../../src/index.js';

const require = createRequire(import.meta.url);

export interface SafeParseResult {
  success: boolean;
  data?: unknown;
  error?: { issues: Array<{ path: PropertyKey[]; message: string; code: string }> };
}
export interface ParseableSchema {
  safeParse(value: unknown): SafeParseResult;
}

export interface GeneratedValidators {
  /** Temporary folder holding `validators/`, with `zod` linked into its node_modules. */
  dir: string;
  result: GenerateResult;
  /** The generated `schemas` export: every component schema by its exact name. */
  schemas: Record<string, ParseableSchema>;
  /** The generated `checks` export: the check function of every schema that has one. */
  checks: Record<string, (value: unknown) => boolean>;
}

const created: string[] = [];

/**
 * A fresh temporary folder where generated code can import `zod` (linked in, as `verify`
 * does). It lives outside the package: other test runs empty the package's scratch folder.
 */
export async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `bds-${prefix}-`));
  created.push(dir);
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await symlink(path.dirname(require.resolve('zod/package.json')), path.join(dir, 'node_modules', 'zod'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  return dir;
}

/** Removes every folder `scratchDir` made in this process (call it from `afterAll`). */
export async function removeScratchDirs(): Promise<void> {
  for (const dir of created.splice(0)) await rm(dir, { recursive: true, force: true });
}

/** Generates the validators of a spec file into a scratch folder, without importing them. */
export async function writeGeneratedValidators(spec: string, prefix = 'differential'): Promise<{ dir: string; result: GenerateResult }> {
  const result = await generate({ spec, targets: ['validators'] });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`${spec}: the generator reported errors:\n${errors.map((e) => `${e.pointer}: ${e.message}`).join('\n')}`);
  const dir = await scratchDir(prefix);
  await writeFiles(dir, result.files, { check: false });
  return { dir, result };
}

/** Generates the validators of a spec file and imports them (vitest compiles the TypeScript). */
export async function loadGeneratedValidators(spec: string): Promise<GeneratedValidators> {
  const { dir, result } = await writeGeneratedValidators(spec);
  const module = (await import(pathToFileURL(path.join(dir, 'validators/index.ts')).href)) as Pick<GeneratedValidators, 'schemas' | 'checks'>;
  return { dir, result, schemas: module.schemas, checks: module.checks };
}
