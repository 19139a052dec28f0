#!/usr/bin/env node
// `pnpm conformance`: how the generator's validators answer the JSON-Schema-Test-Suite.
// Runs the built generator (packages/codegen/dist) through the same harness as the codegen
// test; the suite is read from ../shared/json-schema-test-suite beside the repository.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HARNESS = path.join(ROOT, 'packages/codegen/test/conformance/index.mjs');
const CODEGEN = path.join(ROOT, 'packages/codegen/dist/index.js');

const HELP = `Usage: pnpm conformance [options]

Generates validators for every required keyword file of the JSON-Schema-Test-Suite
(draft 2020-12 as OpenAPI 3.1.0, draft 4 as OpenAPI 3.0.3), runs each test's data through
the zod schema and the check function, and prints per file how many tests pass, are
refused by the generator (with its error codes) or are answered wrongly; then the wrong
tests and the totals per draft. Files needing remote references, dynamic scopes or
vocabularies run too but are counted apart, as allowed refusals.

Options:
  --draft <2020-12|4>  only this draft
  --file <name>        only this keyword file (e.g. allOf or allOf.json)
  --suite <dir>        the suite's folder (default: ../shared/json-schema-test-suite
                       beside the repository)
  --json               print the results as JSON instead of tables
  -h, --help           print this help

Exit code: 0 when no test is answered wrongly, 1 when some are, 2 on a usage error.
Refused tests do not change the exit code. Progress goes to stderr.`;

function usageError(message) {
  process.stderr.write(`conformance: ${message}\nRun "pnpm conformance --help" for the options.\n`);
  process.exit(2);
}

let options;
try {
  ({ values: options } = parseArgs({
    options: {
      draft: { type: 'string' },
      file: { type: 'string' },
      suite: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  usageError(error.message);
}
if (options.help) {
  process.stdout.write(`${HELP}\n`);
  process.exit(0);
}
if (!existsSync(CODEGEN)) {
  process.stderr.write('conformance: the generator is not built yet. Run "pnpm build" (or "npm run setup") at the repository root first.\n');
  process.exit(2);
}

const harness = await import(pathToFileURL(HARNESS).href);
const drafts = harness.DRAFTS.map((d) => d.draft);
if (options.draft !== undefined && !drafts.includes(options.draft)) usageError(`--draft takes ${drafts.join(' or ')} (got ${JSON.stringify(options.draft)})`);
const suiteDir = path.resolve(options.suite ?? harness.defaultSuiteDir(ROOT));
if (!existsSync(path.join(suiteDir, 'tests'))) usageError(`no JSON-Schema-Test-Suite at ${suiteDir} (it has no tests/ folder)`);

const api = await import(pathToFileURL(CODEGEN).href);
const started = Date.now();
const results = await harness.runConformance({
  api,
  suiteDir,
  drafts: options.draft === undefined ? undefined : [options.draft],
  file: options.file,
  onProgress: ({ done, total, draft, file }) => process.stderr.write(`[${done + 1}/${total}] draft ${draft} ${file}\n`),
});
if (results.length === 0) usageError(`no keyword file named ${JSON.stringify(options.file)}${options.draft ? ` in draft ${options.draft}` : ''}`);
process.stderr.write(`done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

process.stdout.write(options.json ? `${JSON.stringify(harness.jsonReport(results), null, 2)}\n` : harness.formatReport(results));
process.exitCode = harness.wrongTests(results).length > 0 ? 1 : 0;
