// GitHub's REST description (@octokit/openapi, pinned; its plain OpenAPI 3.0 file with
// `$ref`s, 13 MB, about 1,200 operations) side by side with openapi-typescript on the same file:
// generation time of every target against openapi-typescript's types alone, peak memory, and
// tsc over each output. Runs of the two generators alternate, so that the machine's load falls
// on both alike.
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { listFiles } from '../src/lib/generated.mjs';
import { codegenBin, scratchDir } from '../src/lib/paths.mjs';
import { runMeasured } from '../src/lib/proc.mjs';
import { median } from '../src/lib/stats.mjs';
import { cpuText, timeTsc, writeTsconfig } from './typecheck.mjs';

const require = createRequire(import.meta.url);
const githubFile = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
const openapiTsPackage = path.dirname(require.resolve('openapi-typescript/package.json'));
const openapiTsBin = path.join(openapiTsPackage, require(path.join(openapiTsPackage, 'package.json')).bin['openapi-typescript']);

const BUDGET_MB = 512;
// A generator run of this file takes 5–30 s on a busy 2-core machine.
const GENERATE_TIMEOUT_MS = 240_000;

/** One measured run of a generator: its whole process, spawn to exit. */
function run(args, cwd) {
  const res = runMeasured({ args, cwd, rss: true, timeoutMs: GENERATE_TIMEOUT_MS });
  if (res.status !== 0) throw new Error(`exit ${res.status ?? res.signal}: ${(res.stderr || res.stdout).trim().split('\n').slice(-1)[0]}`);
  return { seconds: res.ms / 1000, rssMb: res.maxRssKb === undefined ? undefined : res.maxRssKb / 1024, cpuSeconds: res.cpuMs === undefined ? undefined : res.cpuMs / 1000 };
}

/** Our CLI (every target) and openapi-typescript (types alone), each into its own folder. */
function tools(root) {
  return {
    ours: (i) => run([codegenBin, 'generate', '--spec', githubFile, '--out', path.join(root, `ours-${i}`), '--target', 'all', '--quiet'], root),
    // Run from the scratch folder: from the repository root it would read our redocly.yaml instead of the file.
    openapiTs: (i) => run([openapiTsBin, githubFile, '--output', path.join(root, `openapi-ts-${i}`, 'schema.ts')], root),
  };
}

const pick = (results, key) => results.map((r) => r[key]).filter((v) => v !== undefined);

export default {
  id: 'github',
  title: "GitHub's REST description beside openapi-typescript",
  description: 'generate every target of @octokit/openapi api.github.com.json (time, peak RSS) against openapi-typescript types alone; tsc over both outputs',
  async run(ctx) {
    if (!existsSync(githubFile)) {
      ctx.skip({ id: 'github', label: 'GitHub REST description', reason: '@octokit/openapi is not installed in bench/' });
      return;
    }
    const runs = ctx.quick ? 2 : 5;
    const warmup = 1;
    const runsText = `${runs} + ${warmup} warm-up each, alternating`;
    const root = scratchDir('github');
    const { ours, openapiTs } = tools(root);
    ctx.note(`File: @octokit/openapi ${require('@octokit/openapi/package.json').version}, generated/api.github.com.json (OpenAPI 3.0.3 with $refs; the package's .deref.json flavour is the same API inlined, 73 MB).`);
    ctx.note(
      `Generation: whole processes, spawn to exit (Node start-up included), ${warmup} warm-up then ${runs} timed runs of each tool, one of each per round: ` +
        `"node packages/codegen/bin/codegen.mjs generate --spec <file> --out <dir> --target all --quiet" (validators, server, client) and ` +
        `"node openapi-typescript/bin/cli.js <file> --output <dir>/schema.ts" (types only), openapi-typescript 7.13.0. Median, min–max. ` +
        'Peak RSS is each child\'s process.resourceUsage().maxRSS, written at exit by a --import hook; CPU time is its user + system time.',
    );

    const ourRuns = [];
    const theirRuns = [];
    for (let i = 0; i < warmup + runs; i++) {
      ctx.progress(`round ${i + 1} of ${warmup + runs}: our generator, then openapi-typescript`);
      const a = ours(i);
      const b = openapiTs(i);
      if (i >= warmup) {
        ourRuns.push(a);
        theirRuns.push(b);
      }
    }
    const ourTimes = pick(ourRuns, 'seconds');
    const theirTimes = pick(theirRuns, 'seconds');
    const ourCpu = pick(ourRuns, 'cpuSeconds');
    const theirCpu = pick(theirRuns, 'cpuSeconds');
    const cpuDetail = (cpu) => (cpu.length ? `CPU time (user+sys) median ${median(cpu).toFixed(2)} s` : undefined);
    ctx.row({ id: 'ours-wall', label: 'generate every target (validators, server, client) (wall)', unit: 's', samples: ourTimes, runs: runsText, detail: cpuDetail(ourCpu) });
    ctx.row({ id: 'openapi-ts-wall', label: 'openapi-typescript, types alone (wall)', unit: 's', samples: theirTimes, runs: runsText, detail: cpuDetail(theirCpu) });
    // Per round: both tools ran back to back, so the load on the machine was alike.
    const ratios = ourTimes.map((t, i) => t / theirTimes[i]);
    const cpuRatio = ourCpu.length === theirCpu.length && ourCpu.length > 0 ? median(ourCpu.map((c, i) => c / theirCpu[i])) : undefined;
    ctx.row({
      id: 'ours-vs-openapi-ts',
      label: 'our generation of every target ÷ openapi-typescript types alone (wall, per round)',
      unit: '×',
      samples: ratios,
      runs: `${runs} rounds`,
      goal: { text: 'median ≤ 1×', test: (m) => m <= 1 },
      detail: cpuRatio === undefined ? undefined : `CPU-time ratio median ${cpuRatio.toFixed(2)}×`,
    });
    const ourRss = pick(ourRuns, 'rssMb');
    const theirRss = pick(theirRuns, 'rssMb');
    if (ourRss.length > 0) ctx.row({ id: 'ours-rss', label: 'generate every target (peak RSS)', unit: 'MB', samples: ourRss, runs: runsText, goal: { text: `< ${BUDGET_MB} MB`, test: (m) => m < BUDGET_MB } });
    if (theirRss.length > 0) ctx.row({ id: 'openapi-ts-rss', label: 'openapi-typescript, types alone (peak RSS)', unit: 'MB', samples: theirRss, runs: runsText });

    // tsc over each tool's output of the last round: ours with the server and client runtimes
    // (resolved from bench/node_modules), theirs a single file of types.
    const tscRuns = ctx.quick ? 1 : 2;
    const tscText = `${tscRuns}, no warm-up (the files were just written)`;
    ctx.note(
      `tsc: whole process, "node typescript/bin/tsc -p <tsconfig> --noEmit --extendedDiagnostics" with a tsconfig extending the repository's tsconfig.base.json (strict, noUncheckedIndexedAccess, NodeNext); ${tscText}; a type error makes the row "skipped" with the first error.`,
    );
    const last = warmup + runs - 1;
    const ourDir = path.join(root, `ours-${last}`);
    const targets = readdirSync(ourDir, { withFileTypes: true }).filter((d) => d.isDirectory() && listFiles(path.join(ourDir, d.name), '.ts').length > 0).map((d) => d.name).sort();
    for (const [id, label, dir, include] of [
      ['ours', `tsc --noEmit: our generated ${targets.join(', ')}`, ourDir, targets.map((t) => `${t}/**/*.ts`)],
      ['openapi-ts', 'tsc --noEmit: openapi-typescript schema.ts', path.join(root, `openapi-ts-${last}`), ['schema.ts']],
    ]) {
      ctx.progress(label);
      const r = timeTsc(ctx, { project: writeTsconfig(dir, id, include), runs: tscRuns, warmup: 0, timeoutMs: 600_000 });
      if (r.failure) {
        ctx.skip({ id: `tsc-${id}`, label, reason: r.failure });
        continue;
      }
      const detail = `${cpuText(r)}${r.diag.files} files, ${r.diag.lines?.toLocaleString('en-US')} lines of TS, ${r.diag.types?.toLocaleString('en-US')} types, ${Math.round((r.diag.memoryKB ?? 0) / 1024)} MB`;
      ctx.row({ id: `tsc-${id}-wall`, label: `${label} (wall)`, unit: 's', samples: r.times, runs: tscText, detail });
      if (r.checks.length > 0) ctx.row({ id: `tsc-${id}-check`, label: `${label} (check time)`, unit: 's', samples: r.checks, runs: tscText });
    }
  },
};
