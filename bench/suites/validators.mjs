// Validators: throughput of the generated zod validators (as generated today, `safeParse`)
// against ajv 8 + ajv-formats 3 compiled from the same schema of the same official file.
import { CASES, describeLoop, loopOptions, officialValidators, ratioSamples, runVariant } from '../src/lib/validator-runs.mjs';

export default {
  id: 'validators',
  title: 'Validators (official v2.1 account information)',
  description: 'zod safeParse vs ajv ops/s on a 100-transaction page and a single account',
  async run(ctx) {
    const official = officialValidators(ctx);
    if (!official) {
      ctx.skip({ id: 'validators', label: 'validator throughput', reason: 'official file not found at ../shared/real-specs' });
      return;
    }
    ctx.progress('time zod safeParse and ajv in one worker');
    const report = runVariant(ctx, official, { id: 'as-generated', modes: [{ id: 'safeParse', method: 'safeParse' }] });
    const loop = loopOptions(ctx);
    ctx.note(
      'Validators generated from the official file into a scratch folder, transpiled with ts.transpileModule and imported; ajv 8 (+ ajv-formats 3, full formats) compiled from the same component schema, in the same process. ' +
        `Throughput loop: ${describeLoop(loop)} per validator, zod and ajv batches alternating; ops/s is the median over batches; the ratio is taken per round (zod batch / the ajv batch next to it). ` +
        'Every timed call\'s result is counted and must be "valid" (so nothing is optimised away).',
    );
    for (const info of report.cases) {
      const label = CASES.find((c) => c.id === info.id).label;
      const zod = info.modes[0].result;
      const runs = `${zod.batches} batches × ${zod.batchSize.toLocaleString('en-US')} calls`;
      ctx.note(`${label}: schema ${info.component} (the 200 application/json response of ${CASES.find((c) => c.id === info.id).operationId}${info.sameAsOperation ? ', same object as the operation map entry' : ''}), payload ${info.payloadBytes.toLocaleString('en-US')} bytes of JSON, accepted by both before timing; ajv: ${info.ajvMode}.`);
      ctx.row({ id: `${info.id}-zod`, label: `${label}: zod safeParse`, unit: 'ops/s', stats: zod.opsPerSec, runs });
      ctx.row({ id: `${info.id}-ajv`, label: `${label}: ajv`, unit: 'ops/s', stats: info.ajv.opsPerSec, runs: `${info.ajv.batches} batches × ${info.ajv.batchSize.toLocaleString('en-US')} calls` });
      ctx.row({
        id: `${info.id}-ratio`,
        label: `${label}: zod / ajv`,
        unit: '×',
        samples: ratioSamples(zod, info.ajv),
        runs: `${zod.batches} rounds`,
        goal: { text: 'zod ≥ 2× ajv', test: (m) => m >= 2 },
      });
    }
  },
};
