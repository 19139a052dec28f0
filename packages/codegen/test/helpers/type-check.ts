import { generatedCodeCompilerOptions } from '../../src/index.js';

/**
 * Type-checks one file (and what it imports) with the options generated code is checked with,
 * and returns its problems as `line: message` (none means it type-checks, `@ts-expect-error`
 * lines included: an unused one is a problem).
 */
export async function typeCheckFile(file: string): Promise<string[]> {
  const { Project, ts } = await import('ts-morph');
  const project = new Project({ compilerOptions: generatedCodeCompilerOptions(ts), skipAddingFilesFromTsConfig: true });
  project.addSourceFileAtPath(file);
  return project.getPreEmitDiagnostics().map((d) => {
    const message = d.getMessageText();
    return `${d.getLineNumber() ?? 0}: ${typeof message === 'string' ? message : message.getMessageText()}`;
  });
}
