// JSON writers: the writer the validators compile from a response schema, checking and
// writing in one walk, against JSON.stringify on the official file's payloads.
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CASES, describeLoop, loopOptions, officialValidators, ratioSamples } from '../src/lib/validator-runs.mjs';
import { runMeasured } from '../src/lib/proc.mjs';

const worker = fileURLToPath(new URL('../src/workers/write-json.mjs', import.meta.url));

const SETUPS = [
  ['stringify', 'JSON.stringify'],
  ['write-checked', 'writer, checking (one walk)'],
  ['write-unchecked', 'writer, not checking'],
  ['router-before', 'check, then JSON.stringify, then Buffer.from (the router before)'],
  ['router-now', 'writer checking, then Buffer.from (the router now)'],
];

export default {
  id: 'writers',
  title: 'JSON writers (official v2.1 account information)',
  description: 'compiled writer vs JSON.stringify ops/s on a 100-transaction page and a single account',
  async run(ctx) {
    const official = officialValidators(ctx);
    if (!official) {
      ctx.skip({ id: 'writers', label: 'JSON writers', reason: 'official file not found at ../shared/real-specs' });
      return;
    }
    const loop = loopOptions(ctx);
    const configFile = path.join(path.dirname(official.validatorsDir), 'worker-writers.json');
    writeFileSync(configFile, JSON.stringify({ validatorsDir: official.validatorsDir, cases: CASES, loop }));
    ctx.progress('time the writers and JSON.stringify in one worker');
    const res = runMeasured({ args: [worker, configFile], timeoutMs: 180_000 });
    const report = JSON.parse(res.stdout.trim().split('\n').pop() || '{}');
    if (!report.ok) throw new Error(`writers worker: ${report.error ?? res.stderr.slice(0, 500)}`);
    ctx.note(
      'Validators generated from the official file, transpiled and imported in a fresh process; the writer is the one the generated schema carries (the router\'s). ' +
        `Throughput loop: ${describeLoop(loop)} per setup, batches interleaved; ops/s is the median over batches; ratios are taken per round. ` +
        'Before timing, the writer must write the payload and its text must be JSON.stringify\'s for its member order.',
    );
    for (const info of report.cases) {
      const label = CASES.find((c) => c.id === info.id).label;
      ctx.note(`${label}: ${info.writer}, ${info.payloadBytes.toLocaleString('en-US')} bytes of JSON.`);
      for (const [id, what] of SETUPS) {
        const r = info.results[id];
        ctx.row({ id: `${info.id}-${id}`, label: `${label}: ${what}`, unit: 'ops/s', stats: r.opsPerSec, runs: `${r.batches} batches × ${r.batchSize.toLocaleString('en-US')} calls` });
      }
      const r = info.results;
      ctx.row({ id: `${info.id}-write-ratio`, label: `${label}: writer checking ÷ JSON.stringify`, unit: '×', samples: ratioSamples(r['write-checked'], r.stringify), runs: `${r.stringify.batches} rounds`, goal: { text: 'writer ≥ 2× JSON.stringify', test: (m) => m >= 2 } });
      ctx.row({ id: `${info.id}-unchecked-ratio`, label: `${label}: writer not checking ÷ JSON.stringify`, unit: '×', samples: ratioSamples(r['write-unchecked'], r.stringify), runs: `${r.stringify.batches} rounds` });
      ctx.row({ id: `${info.id}-router-ratio`, label: `${label}: router now ÷ router before (to bytes)`, unit: '×', samples: ratioSamples(r['router-now'], r['router-before']), runs: `${r.stringify.batches} rounds` });
    }
  },
};
