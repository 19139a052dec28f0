// Where things are, found relative to this file: no machine paths anywhere.
import { existsSync, mkdirSync, mkdtempSync, rmdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/ */
export const benchRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The repository root (the folder holding pnpm-workspace.yaml). */
export const repoRoot = path.resolve(benchRoot, '..');
/** Official OpenAPI files: test inputs only, read in place, never copied into the repo. */
export const realSpecsDir = path.resolve(repoRoot, '../shared/real-specs');
/** The codegen CLI the benchmarks spawn. */
export const codegenBin = path.join(repoRoot, 'packages/codegen/bin/codegen.mjs');
export const codegenDist = path.join(repoRoot, 'packages/codegen/dist/cli.js');
/** Scratch space inside bench/ (gitignored), so that generated code resolves `zod` from bench/node_modules. */
export const scratchRoot = path.join(benchRoot, '.tmp');
export const resultsDir = path.join(benchRoot, 'results');

/** The main official file the goals are stated for. */
export const OFFICIAL_MAIN = 'standards-v2.1-errata2-account-information.yaml';

export function officialSpec(name) {
  const file = path.join(realSpecsDir, name);
  return existsSync(file) ? file : undefined;
}

/** A fresh temporary folder under the OS temp dir (no module resolution needed there). */
export function osTempDir(prefix) {
  return mkdtempSync(path.join(os.tmpdir(), `bds-bench-${prefix}-`));
}

const created = new Set();

/** A fresh folder under bench/.tmp (for code that imports `zod` or is type-checked). */
export function scratchDir(prefix) {
  mkdirSync(scratchRoot, { recursive: true });
  const dir = mkdtempSync(path.join(scratchRoot, `${prefix}-`));
  created.add(dir);
  return dir;
}

/** Removes the scratch folders this process created (not another run's). */
export function removeScratch() {
  for (const dir of created) rmSync(dir, { recursive: true, force: true });
  created.clear();
  try {
    rmdirSync(scratchRoot); // only when empty: another run may be using it
  } catch {
    // not empty, or not there
  }
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Repo-relative display of a path (tables and JSON carry no machine paths either). */
export function display(file) {
  return path.relative(repoRoot, file).split(path.sep).join('/');
}
