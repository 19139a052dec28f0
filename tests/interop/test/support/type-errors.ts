/** Problems strict tsc reports for a file (and what it imports), as `file:line: message`. */
import path from 'node:path';
import { generatedCodeCompilerOptions } from '@bank-data-sharing/codegen';
import ts from 'typescript';

export function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], generatedCodeCompilerOptions(ts));
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return `${path.basename(d.file?.fileName ?? '')}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/**
 * `source` without its `// @ts-expect-error` lines: a test compiles both, so that each line
 * they excused must be an error, and not merely be allowed to be one.
 */
export function withoutExpectedErrors(source: string): string {
  return source.replace(/\/\/ @ts-expect-error .*\n/g, '');
}
