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
};

const DEFAULT_EMIT_OPTIONS: EmitOptions = { validatorsImport: '../validators/index.js' };

/** Loads, builds the IR and runs the emitters; writes nothing. */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const spec = await loadSpec(options.spec);
  spec.source = options.source ?? path.basename(options.spec);
  const built = buildIR(spec);
  const emitOptions = { ...DEFAULT_EMIT_OPTIONS, ...options.emit };
  const files = options.targets.flatMap((target) => EMITTERS[target](built, emitOptions));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { built, files, diagnostics: built.api.diagnostics };
}
