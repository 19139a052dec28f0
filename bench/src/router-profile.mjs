#!/usr/bin/env node
// Where a server's CPU per request goes beyond the work itself: user and system (kernel) CPU,
// page faults, context switches and garbage collections per request, for setups of the
// server suite side by side (by default the floor, a raw node:http handler, and the router as
// the node:http listener with checks off and on). Made for a shared machine: CPU time per
// request, not throughput; interleaved rounds, each with fresh server processes.
//
//   node src/router-profile.mjs [--setups raw-node,router-node-off,router-node] [--rounds 5]
//                               [--seconds 3] [--warmup 2] [--strace]
//
// --strace: afterwards, one more process per setup under `strace -c -f` for one load run, and
// the system calls per request it counted (strace slows the server down; counts only).
// For a CPU profile of one setup: node src/profile.mjs server --setup <setup>.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadTest, SERVER_PATH, startServerProcess } from './lib/http-bench.mjs';
import { median } from './lib/stats.mjs';
import { optionReader } from './lib/args.mjs';

const args = process.argv.slice(2);
const option = optionReader(args);
const setups = option('setups', 'raw-node,router-node-off,router-node').split(',');
const rounds = Number(option('rounds', '5'));
const seconds = Number(option('seconds', '3'));
const warmup = Number(option('warmup', '2'));
const target = (setup) => (setup.startsWith('hub') ? `${SERVER_PATH.split('?')[0]}?page=37` : SERVER_PATH);

/** Per-request figures of one measured run, from the worker's before and after reports. */
function perRequest(before, after, requests) {
  const r0 = before.resources;
  const r1 = after.resources;
  const gc = (kind) => ((after.gc[kind] ?? 0) - (before.gc[kind] ?? 0)) / requests;
  return {
    user: (after.user - before.user) / requests,
    system: (after.system - before.system) / requests,
    minorFaults: (r1.minorPageFault - r0.minorPageFault) / requests,
    voluntarySwitches: (r1.voluntaryContextSwitches - r0.voluntaryContextSwitches) / requests,
    involuntarySwitches: (r1.involuntaryContextSwitches - r0.involuntaryContextSwitches) / requests,
    scavengesPer1000: gc('scavenge') * 1000,
    markCompactsPer1000: (gc('markCompact') + gc('incremental')) * 1000,
    gcMicros: gc('ms') * 1000,
  };
}

const samples = new Map(setups.map((s) => [s, []]));
const load = os.loadavg()[0];
for (let round = 0; round < rounds; round++) {
  const running = [];
  try {
    for (const setup of setups) running.push({ setup, ...(await startServerProcess(setup, { env: { BENCH_COUNT_GC: '1' } })) });
    for (const { setup, origin } of running) if (warmup > 0) await loadTest(`${origin}${target(setup)}`, { duration: warmup });
    for (let k = 0; k < running.length; k++) {
      const { setup, origin, cpu } = running[(round + k) % running.length];
      const before = await cpu();
      const r = await loadTest(`${origin}${target(setup)}`, { duration: seconds });
      const after = await cpu();
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${setup}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
      samples.get(setup).push(perRequest(before, after, r.total));
      process.stderr.write(`round ${round + 1}/${rounds} ${setup}: ${Math.round(r.rps)} req/s\n`);
    }
  } finally {
    for (const r of running) await r.stop();
  }
}

const columns = [
  ['user', 'user µs', 1],
  ['system', 'system µs', 1],
  ['minorFaults', 'minor faults', 2],
  ['voluntarySwitches', 'vol. switches', 2],
  ['involuntarySwitches', 'invol. switches', 2],
  ['scavengesPer1000', 'scavenges/1k', 1],
  ['markCompactsPer1000', 'mark-compacts/1k', 2],
  ['gcMicros', 'GC pause µs', 1],
];
process.stdout.write(
  `Per request, median of ${rounds} rounds (fresh processes each round, ${warmup} s warm-up, ${seconds} s measured, 10 connections); ` +
    `Node ${process.version}, ${os.cpus().length} CPUs, load average ${load.toFixed(1)} at start, ${os.loadavg()[0].toFixed(1)} at end\n\n`,
);
process.stdout.write(`${'setup'.padEnd(18)}${columns.map(([, label]) => label.padStart(17)).join('')}\n`);
for (const [setup, list] of samples) {
  process.stdout.write(`${setup.padEnd(18)}${columns.map(([key, , digits]) => median(list.map((x) => x[key])).toFixed(digits).padStart(17)).join('')}\n`);
}

if (args.includes('--strace')) {
  process.stdout.write('\nSystem calls per request under strace -c -f (one run of each setup; the top 8):\n');
  for (const setup of setups) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'router-strace-'));
    const server = await startServerProcess(setup);
    try {
      await loadTest(`${server.origin}${target(setup)}`, { duration: warmup });
      const file = path.join(dir, 'strace.txt');
      const strace = spawn('strace', ['-c', '-f', '-o', file, '-p', String(server.pid)], { stdio: 'ignore' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const r = await loadTest(`${server.origin}${target(setup)}`, { duration: seconds });
      const exited = new Promise((resolve) => strace.once('exit', resolve));
      strace.kill('SIGINT');
      await exited;
      const rows = readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .filter((f) => f.length >= 5 && /^\d/.test(f[0]) && f.at(-1) !== 'total')
        .map((f) => ({ name: f.at(-1), calls: Number(f[3]) }))
        .sort((a, b) => b.calls - a.calls)
        .slice(0, 8);
      process.stdout.write(`  ${setup.padEnd(18)}${rows.map((x) => `${x.name} ${(x.calls / r.total).toFixed(2)}`).join(', ')}\n`);
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
