import type { BuiltIR } from '../ir/build-ir.js';

/** One file an emitter produces, relative to the output folder. */
export interface GeneratedFile {
  path: string;
  contents: string;
}

/** Where generated code finds the code it imports. */
export interface EmitOptions {
  /** Module specifier of this API's validators, as seen from the server and client folders. */
  validatorsImport: string;
}

export type Emitter = (built: BuiltIR, options: EmitOptions) => GeneratedFile[];
