export { generate, writeFiles, TARGETS, type Target, type GenerateOptions, type GenerateResult } from './generate.js';
export { loadSpec, type LoadedSpec } from './load/load-spec.js';
export { SpecLoadError } from './load/parse-document.js';
export { buildIR, type BuiltIR, type CheckedExample } from './ir/build-ir.js';
export type * from './ir/types.js';
export { emitValidators } from './emit/validators/emit-validators.js';
export { verify, type VerifyReport } from './verify/verify.js';
export { generatedCodeCompilerOptions } from './verify/compiler-options.js';
export { main } from './cli.js';
