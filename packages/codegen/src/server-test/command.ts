/**
 * The `codegen test` command once its arguments are read: run, print progress and the
 * report, write the JUnit file, choose the exit code. Loaded by the CLI only when the
 * command runs.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { SpecLoadError } from '../load/parse-document.js';
import { MockLoadError, MockSpecError } from '../mock/load-api.js';
import { progressLine, reportJson, reportJunit, reportText } from './report.js';
import { readSigningKey, requestSigner, type RequestSigner } from './request-signer.js';
import { ServerTestUsageError, testServer } from './run.js';
import type { ServerTestOptions } from './types.js';

export { ServerTestUsageError };

/** The request signer of `--sign-key <file>` and its companions. */
export async function signerFromFile(file: string, options: { alg?: string | undefined; kid?: string | undefined; issuer?: string | undefined }): Promise<RequestSigner> {
  const key = readSigningKey(await readFile(file, 'utf8'));
  return requestSigner({ key, ...(options.alg !== undefined ? { alg: options.alg } : {}), ...(options.kid !== undefined ? { kid: options.kid } : {}), ...(options.issuer !== undefined ? { issuer: options.issuer } : {}) });
}

export interface TestCommandOptions extends Omit<ServerTestOptions, 'onProgress'> {
  json?: boolean;
  junit?: string;
  /** An operation not reached (or not tested for lack of time) fails the run. */
  requireReached?: boolean;
}

/**
 * Runs the checks; 0 when none failed, 1 when one did or the file cannot be used, or, with
 * `requireReached`, when an operation was not reached.
 */
export async function runTestCommand(options: TestCommandOptions): Promise<number> {
  const { json = false, junit, requireReached = false, ...run } = options;
  const progress = json ? process.stderr : process.stdout;
  progress.write(`codegen test: ${run.spec} against ${run.baseUrl} (seed ${run.seed ?? 1}, ${run.maxExamples ?? 20} example(s) per operation)\n`);
  let report;
  try {
    report = await testServer({ ...run, onProgress: ({ index, total, summary }) => progress.write(`${progressLine(summary, index, total)}\n`) });
  } catch (error) {
    if (error instanceof MockSpecError) {
      for (const d of error.diagnostics) if (d.severity === 'error') process.stderr.write(`${d.severity} [${d.code}] ${d.pointer}: ${d.message}\n`);
      process.stderr.write(`codegen test: ${run.spec}: the generator refuses this file, so it cannot judge a server by it\n`);
      return 1;
    }
    if (error instanceof SpecLoadError || error instanceof MockLoadError) {
      process.stderr.write(`codegen test: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (json) process.stdout.write(reportJson(report));
  else process.stdout.write(reportText(report));
  if (junit !== undefined) {
    await mkdir(path.dirname(path.resolve(junit)), { recursive: true });
    await writeFile(junit, reportJunit(report));
    progress.write(`JUnit report written to ${junit}\n`);
  }
  if (report.failures.length > 0) return 1;
  const unreached = report.operations.filter((op) => !op.reached).length;
  if (requireReached && (unreached > 0 || report.timedOut)) {
    process.stderr.write(`codegen test: --require-reached: ${unreached > 0 ? `${unreached} operation(s) not reached` : 'the time budget ran out before every operation was tested'}\n`);
    return 1;
  }
  return 0;
}
