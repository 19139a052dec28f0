import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSpec } from './load/load-spec.js';
import { buildIR, type BuiltIR } from './ir/build-ir.js';
import type { Diagnostic } from './ir/types.js';
import { emitValidators } from './emit/validators/emit-validators.js';
import type { GeneratedFile } from './emit/types.js';

export const TARGETS = ['validators'] as const;
export type Target = (typeof TARGETS)[number];

export interface GenerateOptions {
  spec: string;
  targets: readonly Target[];
}

export interface GenerateResult {
  built: BuiltIR;
  files: GeneratedFile[];
  diagnostics: Diagnostic[];
}

/** Emitters by target: each is a pure function of the IR. */
const EMITTERS: Record<Target, (built: BuiltIR) => GeneratedFile[]> = {
  validators: (built) => emitValidators(built.api),
};

/** Loads, builds the IR and runs the emitters; writes nothing. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const spec = await loadSpec(options.spec);
  const built = buildIR(spec);
  const files = options.targets.flatMap((target) => EMITTERS[target](built));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { built, files, diagnostics: built.api.diagnostics };
}

export interface WriteReport {
  written: string[];
  unchanged: string[];
  removed: string[];
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out;
}

/**
 * Writes generated files under `outDir`, touching only files whose bytes change, and removes
 * stale files from the target folders it owns (so a removed schema does not linger).
 */
export async function writeFiles(outDir: string, files: GeneratedFile[], options: { check: boolean }): Promise<WriteReport> {
  const report: WriteReport = { written: [], unchanged: [], removed: [] };
  const owned = new Set(files.map((f) => f.path.split('/')[0]!));
  const expected = new Set(files.map((f) => path.join(outDir, f.path)));
  for (const file of files) {
    const target = path.join(outDir, file.path);
    let current: string | undefined;
    try {
      current = await readFile(target, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === file.contents) {
      report.unchanged.push(file.path);
      continue;
    }
    report.written.push(file.path);
    if (!options.check) {
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(target, file.contents);
    }
  }
  for (const folder of owned) {
    for (const existing of await listFiles(path.join(outDir, folder))) {
      if (expected.has(existing)) continue;
      report.removed.push(path.relative(outDir, existing).split(path.sep).join('/'));
      if (!options.check) await rm(existing);
    }
  }
  return report;
}
