#!/usr/bin/env node
// Where the time goes: CPU profiles (node --cpu-prof) of the two HTTP workloads, summarised.
//
//   node src/profile.mjs server [--seconds 8] [--setup router-validated]
//       the server process of the server suite under autocannon load (10 connections);
//       --setup is a worker setup (router-validated, router-requests, router-off, plain,
//       eov, hub, hub-plain: see src/workers/http-server.mjs), the hub ones on page 37
//   node src/profile.mjs client [--runs 10] [--server hub|static] [--validate on|off]
//       a process reading 10,000 transactions `runs` times with the generated client
//
// Prints self time by package/area and the top functions (self and inclusive), and keeps
// the .cpuprofile under bench/.tmp/profiles/ (open it in Chrome DevTools or speedscope).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledSpec, HUB_PATH, loadTest, SERVER_PATH, startServerProcess } from './lib/http-bench.mjs';
import { benchRoot, repoRoot } from './lib/paths.mjs';
import { optionReader } from './lib/args.mjs';

const args = process.argv.slice(2);
const what = args[0];
const option = optionReader(args);
if (what !== 'server' && what !== 'client') {
  process.stderr.write('usage: node src/profile.mjs server|client [options] (see the top of this file)\n');
  process.exit(2);
}

const dir = path.join(benchRoot, '.tmp', 'profiles', `${what}-${Date.now()}`);
mkdirSync(dir, { recursive: true });
const profArgs = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=200'];

if (what === 'server') {
  const setup = option('setup', 'router-validated');
  const seconds = Number(option('seconds', '8'));
  const target = setup.startsWith('hub') ? HUB_PATH : SERVER_PATH;
  if (setup === 'eov') bundledSpec();
  const server = await startServerProcess(setup, { execArgv: profArgs });
  try {
    await loadTest(`${server.origin}${target}`, { duration: 2 });
    const r = await loadTest(`${server.origin}${target}`, { duration: seconds });
    process.stdout.write(`${setup}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms over ${seconds} s (profiled: slower than unprofiled)\n`);
  } finally {
    await server.stop();
  }
} else {
  const runs = option('runs', '10');
  const server = await startServerProcess(option('server', 'hub'));
  try {
    const reader = fileURLToPath(new URL('./workers/client-reader.mjs', import.meta.url));
    const res = spawnSync(process.execPath, [...profArgs, reader, server.origin, runs, option('validate', 'on')], { encoding: 'utf8', timeout: 300_000 });
    if (res.status !== 0) throw new Error(`client reader failed: ${res.stderr}`);
    const out = JSON.parse(res.stdout.trim());
    process.stdout.write(`client (validation ${option('validate', 'on')}) against ${option('server', 'hub')}: ${out.records} records, ${Math.round(out.rate)} records/s (profiled)\n`);
  } finally {
    await server.stop();
  }
}

const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
if (!file) throw new Error(`no profile written in ${dir}`);
summarise(JSON.parse(readFileSync(path.join(dir, file), 'utf8')));
process.stdout.write(`\nprofile: ${path.relative(repoRoot, path.join(dir, file))}\n`);

/** The package or area a script URL belongs to. */
function area(url, name) {
  if (name === '(garbage collector)') return 'GC';
  if (name === '(program)' || name === '(idle)' || name === '(root)') return name;
  if (!url) return 'V8 builtins / native';
  if (url.startsWith('node:internal/deps/undici')) return 'undici (fetch, in Node)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/').slice(0, 2).join('/')}`;
  const pnpm = /node_modules\/\.pnpm\/((?:@[^+/]+\+)?[^@/]+)@/.exec(url);
  if (pnpm) return pnpm[1].replace('+', '/');
  const pkg = /packages\/([^/]+)\/dist\/([^/]+)/.exec(url);
  if (pkg) return `@bank-data-sharing/${pkg[1]} (${pkg[2]})`;
  if (url.includes('/bench/')) return 'bench harness';
  return url;
}

function where(url, line) {
  if (!url) return '';
  const short = url.replace(/^file:\/\//, '').replace(/^.*node_modules\/\.pnpm\/[^/]+\/node_modules\//, '').replace(/^.*\/packages\//, 'packages/');
  return `${short}:${line + 1}`;
}

function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  const inclusive = new Map();
  const areas = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') return;
    total += dt;
    const key = `${functionName || '(anonymous)'}  ${where(url, lineNumber)}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    const a = area(url, functionName);
    areas.set(a, (areas.get(a) ?? 0) + dt);
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur).callFrame;
      if (!f.url) continue;
      const k = `${f.functionName || '(anonymous)'}  ${where(f.url, f.lineNumber)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + dt);
    }
  });
  const pct = (ms) => `${((ms / total) * 100).toFixed(1).padStart(5)} %`;
  const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);
  process.stdout.write(`\nbusy CPU sampled: ${total.toFixed(0)} ms (idle excluded)\n\nself time by area:\n`);
  for (const [a, ms] of top(areas, 16)) process.stdout.write(`  ${pct(ms)}  ${ms.toFixed(0).padStart(7)} ms  ${a}\n`);
  process.stdout.write('\ntop functions by self time:\n');
  for (const [k, ms] of top(self, 25)) process.stdout.write(`  ${pct(ms)}  ${ms.toFixed(0).padStart(7)} ms  ${k}\n`);
  process.stdout.write('\ntop functions by inclusive time (project code and dependencies):\n');
  for (const [k, ms] of top(new Map([...inclusive].filter(([k]) => !k.includes('node:'))), 30)) process.stdout.write(`  ${pct(ms)}  ${ms.toFixed(0).padStart(7)} ms  ${k}\n`);
}
