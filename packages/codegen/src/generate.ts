import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadSpec } from './load/load-spec.js';
import { buildIR, type BuiltIR } from './ir/build-ir.js';
import type { Diagnostic } from './ir/types.js';
import { emitValidators } from './emit/validators/emit-validators.js';
import { emitServer } from './emit/server/emit-server.js';
import { emitClient } from './emit/client/emit-client.js';
import type { EmitOptions, Emitter, GeneratedFile } from './emit/types.js';

export const TARGETS = ['validators', 'server', 'client'] as const;
export type Target = (typeof TARGETS)[number];

export interface GenerateOptions {
  spec: string;
  /** How generated headers name the spec (default: `spec` as given). */
  source?: string;
  targets: readonly Target[];
  /** Defaults suit a standalone output folder (`<out>/validators`, `<out>/server`, ...). */
  emit?: Partial<EmitOptions>;
}

export interface GenerateResult {
  built: BuiltIR;
  files: GeneratedFile[];
  diagnostics: Diagnostic[];
}

/** Emitters by target: each is a pure function of the IR. */
const EMITTERS: Record<Target, Emitter> = {
  validators: (built) => emitValidators(built.api),
  server: emitServer,
  client: emitClient,
};

const DEFAULT_EMIT_OPTIONS: EmitOptions = { validatorsImport: '../validators/index.js' };

/** Loads, builds the IR and runs the emitters; writes nothing. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const spec = await loadSpec(options.spec);
  if (options.source !== undefined) spec.source = options.source;
  const built = buildIR(spec);
  const emitOptions = { ...DEFAULT_EMIT_OPTIONS, ...options.emit };
  const files = options.targets.flatMap((target) => EMITTERS[target](built, emitOptions));
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
export async function writeFiles(
  outDir: string,
  files: GeneratedFile[],
  options: { check: boolean; ownAll?: boolean; ownNone?: boolean },
): Promise<WriteReport> {
  const report: WriteReport = { written: [], unchanged: [], removed: [] };
  // Folders whose other files are stale and removed; `ownNone` writes files and touches nothing else.
  const owned = options.ownNone ? new Set<string>() : options.ownAll ? new Set(['']) : new Set(files.map((f) => f.path.split('/')[0]!));
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
