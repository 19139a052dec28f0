// Shared by the validator suites: the official v2.1 account information validators, generated
// and transpiled once per harness run, and the worker process that times them.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, transpileDir } from './generated.mjs';
import { OFFICIAL_MAIN, officialSpec, scratchDir } from './paths.mjs';
import { runMeasured } from './proc.mjs';

const worker = fileURLToPath(new URL('../workers/validate.mjs', import.meta.url));

/** What is validated: the 200 application/json response of two operations. */
export const CASES = [
  { id: 'page', label: '100-transaction page', operationId: 'GetAccountsAccountIdTransactions', status: '200', mediaType: 'application/json', payload: 'transactionsPage', payloadArgs: [100] },
  { id: 'account', label: 'single account', operationId: 'GetAccountsAccountId', status: '200', mediaType: 'application/json', payload: 'singleAccount' },
];

/** Generated + transpiled validators of the official main file, or undefined when it is absent. */
export function officialValidators(ctx) {
  if (ctx.shared.has('official-validators')) return ctx.shared.get('official-validators');
  const specFile = officialSpec(OFFICIAL_MAIN);
  let value;
  if (specFile) {
    const root = scratchDir('validators');
    ctx.progress(`generate + transpile validators of ${OFFICIAL_MAIN}`);
    generate(specFile, root, 'validators');
    transpileDir(path.join(root, 'validators'));
    value = { specFile, root, validatorsDir: path.join(root, 'validators') };
  }
  ctx.shared.set('official-validators', value);
  return value;
}

export function loopOptions(ctx) {
  const clock = ctx.clock ?? 'cpu';
  return ctx.quick ? { warmupMs: 150, batchMs: 30, batches: 5, clock } : { warmupMs: 300, batchMs: 40, batches: 15, clock };
}

/** Runs one variant in a fresh Node process and returns its parsed report. */
export function runVariant(ctx, { validatorsDir, specFile }, variant, loop = loopOptions(ctx)) {
  const configFile = path.join(path.dirname(validatorsDir), `worker-${variant.id}.json`);
  writeFileSync(configFile, JSON.stringify({ validatorsDir, specFile, cases: CASES, variant, loop }));
  const res = runMeasured({ args: [worker, configFile], timeoutMs: 120_000 });
  const line = res.stdout.trim().split('\n').pop() ?? '';
  let report;
  try {
    report = JSON.parse(line);
  } catch {
    throw new Error(`worker ${variant.id} printed no report (exit ${res.status}): ${res.stderr.trim().slice(0, 500)}`);
  }
  if (!report.ok) throw new Error(`variant ${variant.id}: ${report.error}`);
  return report;
}

/** Per-round ratio a/b of two interleaved measurements (same rounds, so same machine state). */
export function ratioSamples(a, b) {
  return a.samples.map((x, i) => x / b.samples[i]);
}

export function describeLoop(loop) {
  return `${loop.batches} interleaved batches of ~${loop.batchMs} ms (${loop.clock === 'cpu' ? 'process CPU time' : 'wall time'}) after ${loop.warmupMs} ms warm-up`;
}
