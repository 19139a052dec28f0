import path from 'node:path';
import { loadSpec } from './load/load-spec.js';
import { buildIR, type BuildOptions, type BuiltIR } from './ir/build-ir.js';
import { applyDirections, type DirectionOptions } from './ir/direction.js';
import type { Diagnostic } from './ir/types.js';
import { writerNotes } from './emit/validators/print-writer.js';
import { emitValidators } from './emit/validators/emit-validators.js';
import { emitServer } from './emit/server/emit-server.js';
import { emitClient } from './emit/client/emit-client.js';
import { emitMocks } from './emit/mocks/emit-mocks.js';
import { emitMsw } from './emit/mocks/emit-msw.js';
import type { EmitOptions, Emitter, GeneratedFile } from './emit/types.js';

/**
 * The targets of `all` (and the default of `generate` and `verify`): every target but `msw`,
 * whose handlers import the optional peer `msw` and are written only when asked for by name.
 */
export const TARGETS = ['validators', 'server', 'client', 'mocks'] as const;
/** Every target `--target` takes: `TARGETS` and `msw` (MSW handlers in `mocks/msw.ts`). */
export const ALL_TARGETS = [...TARGETS, 'msw'] as const;
export type Target = (typeof ALL_TARGETS)[number];

/** What each target's code imports from the others (when written beside them). */
const TARGET_NEEDS: Record<Target, readonly Target[]> = {
  validators: [],
  server: ['validators'],
  client: ['validators'],
  mocks: ['validators'],
  msw: ['mocks', 'validators'],
};

/**
 * The targets to write for `requested`: each with what it imports, in ALL_TARGETS order, and the
 * ones added because another needs them.
 */
export function resolveTargets(requested: readonly Target[]): { targets: Target[]; added: Array<{ target: Target; neededBy: Target[] }> } {
  const wanted = new Set(requested);
  const added: Array<{ target: Target; neededBy: Target[] }> = [];
  for (const target of ALL_TARGETS) {
    if (wanted.has(target)) continue;
    const neededBy = requested.filter((r) => TARGET_NEEDS[r].includes(target));
    if (neededBy.length > 0) added.push({ target, neededBy: [...new Set(neededBy)] });
  }
  for (const { target } of added) wanted.add(target);
  return { targets: ALL_TARGETS.filter((t) => wanted.has(t)), added };
}

/**
 * Reads `--target`: one target, a comma-separated list, or `all` (every target but `msw`). Throws an Error naming the
 * unknown entries.
 */
export function parseTargetList(text: string): Target[] {
  const entries = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (entries.length === 1 && entries[0] === 'all') return [...TARGETS];
  const unknown = entries.filter((e) => !(ALL_TARGETS as readonly string[]).includes(e));
  if (entries.length === 0 || unknown.length > 0) {
    throw new Error(`--target takes ${ALL_TARGETS.join(', ')} (one, or several separated by commas) or all (got ${JSON.stringify(text)})`);
  }
  return ALL_TARGETS.filter((t) => entries.includes(t));
}

/** How schemas are read (`BuildOptions`) and how bodies are shaped by direction (`DirectionOptions`). */
export interface GenerateOptions extends BuildOptions, DirectionOptions {
  spec: string;
  /**
   * How generated headers name the spec: a path relative to a fixed place (the workspace root).
   * Default: the file name alone, so that the output never depends on how the path was typed
   * or on the working directory.
   */
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
  mocks: emitMocks,
  msw: emitMsw,
};

const DEFAULT_EMIT_OPTIONS: EmitOptions = { validatorsImport: '../validators/index.js' };

/** Loads, builds the IR and runs the emitters; writes nothing. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  // Skipping, a remote reference is one more schema the generator cannot represent.
  const spec = await loadSpec(options.spec, { remoteRefs: options.unsupported === 'skip' ? 'leave' : 'refuse' });
  spec.source = options.source ?? path.basename(options.spec);
  // readOnly and writeOnly by direction (ir/direction.ts): request bodies and responses are
  // validated and typed by their per-direction variants.
  const built = applyDirections(buildIR(spec, options), options);
  const emitOptions = { ...DEFAULT_EMIT_OPTIONS, ...options.emit };
  // With the default (relative) validators import, the validators the other targets import
  // are written beside them: the output never imports a file it did not write.
  // With another validators import, the other targets a target imports (msw: the mocks) are
  // still written, as they are in the same folder.
  const targets =
    options.emit?.validatorsImport === undefined
      ? resolveTargets(options.targets).targets
      : resolveTargets(options.targets).targets.filter((t) => t !== 'validators' || options.targets.includes('validators'));
  const files = targets.flatMap((target) => EMITTERS[target](built, emitOptions));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Which JSON bodies are written by JSON.stringify rather than a compiled writer, once each.
  const notes = targets.includes('validators') ? writerNotes(built.api) : [];
  return { built, files, diagnostics: [...built.api.diagnostics, ...notes] };
}
