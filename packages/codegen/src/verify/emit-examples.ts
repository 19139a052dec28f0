import type { CheckedExample } from '../ir/build-ir.js';
import type { ApiIR } from '../ir/types.js';
import type { GeneratedFile } from '../emit/types.js';
import { patternGuardImport, validatorNames } from '../emit/validators/emit-validators.js';
import { jsonSchemasImport, printSchema, type PrintContext } from '../emit/validators/print-zod.js';
import { generatedHeader } from '../emit/shared/header.js';

/**
 * A module listing every example in the file with a validator for the schema it belongs to,
 * printed by the same printer as the validators, so `verify` checks what users will run.
 */
export function emitExamples(api: ApiIR, examples: CheckedExample[]): GeneratedFile {
  const naming = validatorNames(api);
  const ctx: PrintContext = { names: naming.names, recursive: new Set(api.schemas.filter((s) => s.recursive).map((s) => s.name)) };
  const ids = api.schemas.map((s) => naming.names.get(s.name));
  const entries = examples.map(
    (e) =>
      `  {\n    pointer: ${JSON.stringify(e.pointer)},\n    schema: ${printSchema(e.schema, ctx, '    ')},\n    value: ${JSON.stringify(e.value ?? null)},\n  },`,
  );
  const contents = [
    // A header like every generated file's, so that a folder kept with --keep can be reused.
    generatedHeader(api).trimEnd(),
    "import { z } from 'zod';",
    "import * as rt from './runtime.gen.js';",
    patternGuardImport(entries.join('\n')),
    jsonSchemasImport(entries.join('\n')),
    ids.length > 0 ? `import {\n${ids.map((id) => `  ${id},`).join('\n')}\n} from './schemas.gen.js';` : '',
    '',
    'void rt;',
    'export const examples: Array<{ pointer: string; schema: z.ZodType; value: unknown }> = [',
    ...entries,
    '];',
    '',
  ].join('\n');
  return { path: 'validators/examples.verify.ts', contents };
}
