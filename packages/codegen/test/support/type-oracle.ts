/**
 * openapi-typescript as an independent type oracle: for every component schema, the type
 * our zod validator outputs must be assignable to the type openapi-typescript derives from
 * the same file.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { generatedCodeCompilerOptions } from '../../src/verify/compiler-options.js';
import { writeGeneratedValidators } from './generated-validators.js';

export interface OracleCheck {
  /** Folder with `validators/`, `oracle.ts` and `check.ts`. */
  dir: string;
  /** Component schemas compared. */
  schemas: string[];
  /** Type errors, with the schema whose check failed (undefined: outside the checks). */
  errors: Array<{ schema: string | undefined; message: string }>;
  /**
   * Errors of a negative control (a schema's output assigned to an unrelated type): there
   * must be some, else the checker would be vacuous (e.g. `any` types or unresolved modules).
   */
  controlErrors: number;
}

function flatten(message: string | ts.DiagnosticMessageChain): string {
  return ts.flattenDiagnosticMessageText(message, '\n');
}

/** Runs openapi-typescript and our generator on `spec`, then type-checks one assignment per schema. */
export async function checkAgainstOracle(spec: string): Promise<OracleCheck> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const { dir, result } = await writeGeneratedValidators(spec, 'oracle');
  const ast = await openapiTS(pathToFileURL(spec), { silent: true, emptyObjectsUnknown: true });
  await writeFile(path.join(dir, 'oracle.ts'), astToString(ast));

  const names = result.built.api.schemas.map((s) => s.name);
  const fnName = (i: number): string => `check_${i}`;
  const lines = [
    "import type { z } from 'zod';",
    "import type { schemas } from './validators/index.js';",
    "import type { components } from './oracle.js';",
    '',
    ...names.map(
      (name, i) =>
        `export function ${fnName(i)}(value: z.output<(typeof schemas)[${JSON.stringify(name)}]>): components['schemas'][${JSON.stringify(name)}] {\n  return value;\n}`,
    ),
    `export function control(value: z.output<(typeof schemas)[${JSON.stringify(names[0] ?? '')}]>): { readonly control: unique symbol } {\n  return value;\n}`,
    '',
  ];
  const checkFile = path.join(dir, 'check.ts');
  await writeFile(checkFile, lines.join('\n'));

  const program = ts.createProgram([checkFile], generatedCodeCompilerOptions(ts));
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const checkSource = program.getSourceFile(checkFile);
  let controlErrors = 0;
  const errors: OracleCheck['errors'] = [];
  for (const d of diagnostics) {
    let schema: string | undefined;
    let where = '';
    if (d.file && d.start !== undefined) {
      const { line } = d.file.getLineAndCharacterOfPosition(d.start);
      where = `${path.relative(dir, d.file.fileName)}:${line + 1} `;
      if (d.file === checkSource) {
        // Each check function spans three lines after the four header lines.
        const index = Math.floor((line - 4) / 3);
        if (index === names.length) {
          controlErrors++;
          continue;
        }
        schema = names[index];
      }
    }
    errors.push({ schema, message: `${where}${flatten(d.messageText)}` });
  }
  return { dir, schemas: names, errors, controlErrors };
}
