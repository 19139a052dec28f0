#!/usr/bin/env node
// Server CPU per request of a few setups against the first, from short slices measured in turn
// (cpuSlices in lib/http-bench.mjs), over several generations of fresh server processes: for
// an A/B comparison on a shared machine, where the load drifts over seconds and each process
// has its own luck with the JIT and its memory.
//
//   node src/cpu-ratios.mjs --setups fastify-glue,router-node,router-node-text
//                           [--generations 4] [--slices 12] [--requests 1500]
//
// Setups are those of src/workers/http-server.mjs; every one is loaded on the server suite's
// route (GET transactions, 100 records), the hub ones on page 37.
import os from 'node:os';
import { cpuSlices, HUB_PATH, loadTest, SERVER_PATH, startServerProcess } from './lib/http-bench.mjs';
import { quantile } from './lib/stats.mjs';
import { optionReader } from './lib/args.mjs';

const args = process.argv.slice(2);
const option = optionReader(args);
if (args.includes('--help') || !args.includes('--setups')) {
  process.stdout.write('usage: node src/cpu-ratios.mjs --setups a,b[,c...] [--generations 4] [--slices 12] [--requests 1500] (see the top of this file)\n');
  process.exit(args.includes('--help') ? 0 : 2);
}
const setups = option('setups', '').split(',').filter(Boolean);
const generations = Number(option('generations', '4'));
const slices = Number(option('slices', '12'));
const requests = Number(option('requests', '1500'));
const pathOf = (setup) => (setup.startsWith('hub') ? HUB_PATH : SERVER_PATH);

const samples = new Map(setups.map((s) => [s, []]));
const load = os.loadavg()[0];
for (let g = 0; g < generations; g++) {
  const running = [];
  try {
    for (const setup of setups) running.push({ id: setup, path: pathOf(setup), ...(await startServerProcess(setup)) });
    for (const r of running) await loadTest(`${r.origin}${r.path}`, { duration: 2 });
    const sliced = await cpuSlices(running, { slices, requests });
    for (const setup of setups) samples.get(setup).push(...sliced.get(setup));
    process.stderr.write(`generation ${g + 1}/${generations}: ${setups.map((s) => `${s} ${quantile(sliced.get(s), 0.5).toFixed(0)} µs`).join(', ')}\n`);
  } finally {
    for (const r of running) await r.stop();
  }
}

const base = setups[0];
process.stdout.write(
  `Server CPU per request: ${generations} generations of fresh processes × ${slices} slices of ${requests} requests per setup, in turn, the order rotating; ` +
    `ratios slice by slice against ${base}, median (IQR). Node ${process.version}, ${os.cpus().length} CPUs, load average ${load.toFixed(1)} at start, ${os.loadavg()[0].toFixed(1)} at end\n\n`,
);
for (const setup of setups) {
  const own = samples.get(setup);
  const ratios = own.map((x, i) => x / samples.get(base)[i]);
  const figure = (list, digits) => `${quantile(list, 0.5).toFixed(digits)} (${quantile(list, 0.25).toFixed(digits)}–${quantile(list, 0.75).toFixed(digits)})`;
  process.stdout.write(`${setup.padEnd(24)}${`${figure(own, 0)} µs`.padStart(22)}${`${figure(ratios, 3)}×`.padStart(26)}\n`);
}
