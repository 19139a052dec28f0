#!/usr/bin/env node
// The benchmark harness: runs the registered suites (suites/index.mjs), prints one table of
// figures with how each was taken, and writes them as JSON (results/latest.json by default).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { suites } from '../suites/index.mjs';
import { machineInfo } from './lib/env.mjs';
import { goalText, spread, table, withUnit } from './lib/format.mjs';
import { benchRoot, codegenDist, removeScratch, resultsDir } from './lib/paths.mjs';
import { summarize } from './lib/stats.mjs';

const HELP = `Usage: pnpm bench [-- options]

Options:
  --only <ids>      Run only these suites (comma-separated): ${suites.map((s) => s.id).join(', ')}
  --skip <ids>      Run every suite but these
  --quick           Fewer runs and batches (a smoke test; figures are noisier)
  --out <file>      Write the JSON here instead of bench/results/latest.json
  --results <name>  Write the JSON to bench/results/<name>.json (for package scripts)
  --compare <file>  Print each figure beside the one in an earlier JSON result
  --clock <cpu|wall> Clock of the validator throughput loops (default cpu: process CPU time,
                    steady on a shared machine; wall: elapsed time). Both land in the JSON.
  --keep            Keep the scratch folders under bench/.tmp
  --list            List the suites and exit
  -h, --help        Show this help`;

function parseArgs(argv) {
  const opts = { only: undefined, skip: [], quick: false, clock: 'cpu', out: path.join(resultsDir, 'latest.json'), compare: undefined, keep: false, list: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    if (arg === '--') continue; // `pnpm bench -- --only x` passes the separator through
    let inline;
    if (arg.startsWith('--') && arg.includes('=')) [arg, inline] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    const list = () => value().split(',').map((s) => s.trim()).filter(Boolean);
    switch (arg) {
      case '--only': opts.only = list(); break;
      case '--skip': opts.skip = list(); break;
      case '--quick': opts.quick = true; break;
      case '--out': opts.out = path.resolve(process.env.INIT_CWD ?? process.cwd(), value()); break;
      case '--results': { const name = value(); if (!/^[\w.-]+$/.test(name)) throw new Error('--results takes a plain name'); opts.out = path.join(resultsDir, `${name}.json`); break; }
      case '--compare': opts.compare = path.resolve(process.env.INIT_CWD ?? process.cwd(), value()); break;
      case '--keep': opts.keep = true; break;
      case '--clock': opts.clock = value(); if (!['cpu', 'wall'].includes(opts.clock)) throw new Error('--clock must be cpu or wall'); break;
      case '--list': opts.list = true; break;
      case '-h': case '--help': opts.help = true; break;
      default: throw new Error(`unknown option ${arg} (see --help)`);
    }
  }
  const known = new Set(suites.map((s) => s.id));
  for (const id of [...(opts.only ?? []), ...opts.skip]) if (!known.has(id)) throw new Error(`unknown suite "${id}" (known: ${[...known].join(', ')})`);
  return opts;
}

const progress = (msg) => process.stderr.write(`  ${msg}\n`);

function makeContext(suite, opts, shared) {
  const rows = [];
  const notes = [];
  return {
    rows,
    notes,
    quick: opts.quick,
    clock: opts.clock,
    keep: opts.keep,
    shared,
    progress: (msg) => progress(`[${suite.id}] ${msg}`),
    note: (text) => notes.push(text),
    /**
     * A figure. `samples` (raw per-run values) or `stats` (already summarized); `runs` says how
     * many runs/batches and warm-up; `how` says what exactly was timed.
     */
    row({ id, label, unit, samples, stats, runs, how, goal, note, detail, extra }) {
      const s = stats ?? summarize(samples);
      const met = goal ? goal.test(s.median) : undefined;
      rows.push({ suite: suite.id, id, label, unit, median: s.median, stats: s, runs, how, goal: goal ? { text: goal.text, met } : undefined, note, detail, extra });
    },
    skip({ id, label, reason }) {
      rows.push({ suite: suite.id, id, label, skipped: reason });
    },
  };
}

function printResults(result, previous) {
  const prev = new Map((previous?.suites ?? []).flatMap((s) => s.rows.map((r) => [`${r.suite}/${r.id}`, r])));
  const lines = [];
  lines.push(`Node ${result.machine.node} · ${result.machine.cpu} · ${result.machine.cores} cores · ${result.machine.memoryGiB} GiB · ${result.machine.platform}`);
  const [load1] = result.machine.loadAverageAtStart;
  const busy = load1 > result.machine.cores * 0.5 || result.machine.loadAverageAtEnd[0] > result.machine.cores * 1.5;
  lines.push(`load average (1 min) ${load1} at start, ${result.machine.loadAverageAtEnd[0]} at end${busy ? ' — the machine was busy: wall times are inflated and noisy; ratios measured in one process hold better' : ''}`);
  lines.push(`typescript ${result.machine.tools.typescript} · zod ${result.machine.tools.zod} · ajv ${result.machine.tools.ajv} · ajv-formats ${result.machine.tools['ajv-formats']}${result.machine.commit ? ` · commit ${result.machine.commit.slice(0, 12)}` : ''}${result.quick ? ' · QUICK MODE' : ''}`);
  for (const suite of result.suites) {
    lines.push('', `== ${suite.title} (${suite.id}, ${suite.seconds.toFixed(0)} s) ==`);
    const header = ['figure', 'median', 'spread min–max', 'runs', 'goal'];
    if (previous) header.push('previous', 'change');
    header.push('notes');
    const body = suite.rows.map((r) => {
      if (r.skipped) return [r.label, 'skipped', '', '', '', ...(previous ? ['', ''] : []), r.skipped];
      const cells = [r.label, withUnit(r.median, r.unit), spread(r.stats, r.unit), r.runs ?? '', goalText(r)];
      if (previous) {
        const before = prev.get(`${r.suite}/${r.id}`);
        cells.push(before?.median !== undefined ? withUnit(before.median, r.unit) : '', before?.median ? `${r.median >= before.median ? '+' : ''}${((r.median / before.median - 1) * 100).toFixed(1)}%` : '');
      }
      cells.push(r.detail ?? '');
      return cells;
    });
    lines.push(table(header, body));
    const hows = suite.rows.filter((r) => r.how || r.note);
    if (hows.length > 0 || suite.notes.length > 0) {
      lines.push('', 'How:');
      for (const n of suite.notes) lines.push(`  - ${n}`);
      for (const r of hows) lines.push(`  - ${r.label}: ${[r.how, r.note].filter(Boolean).join(' ')}`);
    }
    if (suite.error) lines.push(`  ! suite failed: ${suite.error}`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.help) return void process.stdout.write(`${HELP}\n`);
  if (opts.list) {
    for (const s of suites) process.stdout.write(`${s.id.padEnd(14)} ${s.title}: ${s.description}\n`);
    return;
  }
  if (!existsSync(codegenDist)) throw new Error('codegen is not built: run "pnpm build" (or build packages/codegen) first');
  const selected = suites.filter((s) => (!opts.only || opts.only.includes(s.id)) && !opts.skip.includes(s.id));
  const started = performance.now();
  const result = { format: 'bds-bench/1', date: new Date().toISOString(), quick: opts.quick, clock: opts.clock, machine: machineInfo(), suites: [] };
  const shared = new Map();
  process.stderr.write(`bench: ${selected.map((s) => s.id).join(', ')}${opts.quick ? ' (quick)' : ''}\n`);
  try {
    for (const suite of selected) {
      const ctx = makeContext(suite, opts, shared);
      const t0 = performance.now();
      let error;
      try {
        await suite.run(ctx);
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
        progress(`[${suite.id}] FAILED: ${error}`);
      }
      result.suites.push({ id: suite.id, title: suite.title, seconds: (performance.now() - t0) / 1000, notes: ctx.notes, rows: ctx.rows, error });
    }
  } finally {
    if (!opts.keep) removeScratch();
  }
  result.seconds = (performance.now() - started) / 1000;
  result.machine.loadAverageAtEnd = os.loadavg().map((x) => Number(x.toFixed(2)));
  const previous = opts.compare ? JSON.parse(readFileSync(opts.compare, 'utf8')) : undefined;
  printResults(result, previous);
  mkdirSync(path.dirname(opts.out), { recursive: true });
  writeFileSync(opts.out, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`\n${result.seconds.toFixed(0)} s in all; results written to ${path.relative(process.env.INIT_CWD ?? benchRoot, opts.out) || opts.out}\n`);
  if (result.suites.some((s) => s.error)) process.exitCode = 1;
}

main().catch((e) => {
  process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
