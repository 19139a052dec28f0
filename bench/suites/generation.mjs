// Generation: how long `codegen generate --target all` takes as a whole process (Node start
// included) and how much memory it peaks at, per spec; and `turbo run generate` twice in a row.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { codegenBin, OFFICIAL_MAIN, osTempDir, realSpecsDir, removeDir, repoRoot } from '../src/lib/paths.mjs';
import { runMeasured } from '../src/lib/proc.mjs';
import { median, summarize } from '../src/lib/stats.mjs';

/** spec/<v>/account-information.yaml of the project, then every official file. */
function specFiles() {
  const own = readdirSync(path.join(repoRoot, 'spec'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(path.join(repoRoot, 'spec', d.name, 'account-information.yaml')))
    .map((d) => ({ id: `spec-${d.name}`, label: `spec/${d.name}/account-information.yaml`, file: path.join(repoRoot, 'spec', d.name, 'account-information.yaml') }));
  const official = existsSync(realSpecsDir)
    ? readdirSync(realSpecsDir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort((a, b) => (a === OFFICIAL_MAIN ? -1 : b === OFFICIAL_MAIN ? 1 : a.localeCompare(b)))
        .map((f) => ({ id: `official-${f.replace(/\.ya?ml$/, '')}`, label: `official ${f}`, file: path.join(realSpecsDir, f), main: f === OFFICIAL_MAIN }))
    : [];
  return { own, official };
}

/** "2/5 tasks from cache; missed: a#build, b#generate" from turbo's output. */
function cacheSummary(output) {
  const cached = /Cached:\s+(\d+) cached, (\d+) total/.exec(output);
  const full = /FULL TURBO/.test(output);
  const missed = [...output.matchAll(/^(\S+?):(\S+): cache miss/gm)].map((m) => `${m[1]}#${m[2]}`);
  if (!cached) return 'cache status not printed';
  return `${cached[1]}/${cached[2]} tasks from cache${full ? ', FULL TURBO' : ''}${missed.length ? `; cache misses: ${[...new Set(missed)].join(', ')}` : ''}`;
}

export default {
  id: 'generation',
  title: 'Generation',
  description: 'codegen generate --target all per spec (whole process, peak RSS); turbo run generate twice',
  async run(ctx) {
    // more runs where there is a goal; every run is a whole process of 0.3–2 s
    const runsFor = (spec) => (ctx.quick ? 3 : spec.main ? 9 : 5);
    const warmup = 1;
    const { own, official } = specFiles();
    const how = `spawn "node packages/codegen/bin/codegen.mjs generate --spec <file> --out <tmp> --target all --quiet", timed from spawn to exit (Node start-up included); peak RSS = the child's process.resourceUsage().maxRSS written at exit by a --import hook`;
    ctx.note(`Each spec: ${warmup} warm-up run (file cache) then ${ctx.quick ? 3 : '9 (the goal file) or 5'} timed runs, each into a fresh temporary folder; median, min–max.`);
    ctx.note(how);
    if (official.length === 0) ctx.skip({ id: 'official', label: 'official files', reason: `not found at ../shared/real-specs (rows skipped)` });

    for (const spec of [...official.filter((s) => s.main), ...own, ...official.filter((s) => !s.main)]) {
      ctx.progress(`generate ${spec.label}`);
      const runs = runsFor(spec);
      const times = [];
      const rss = [];
      const cpu = [];
      let failure;
      for (let i = 0; i < warmup + runs; i++) {
        const out = osTempDir('gen');
        try {
          const res = runMeasured({ args: [codegenBin, 'generate', '--spec', spec.file, '--out', out, '--target', 'all', '--quiet'], rss: true, timeoutMs: 120_000 });
          if (res.status !== 0) {
            failure = `exit ${res.status}: ${(res.stderr || res.stdout).trim().split('\n').slice(-1)[0]}`;
            break;
          }
          if (i >= warmup) {
            times.push(res.ms / 1000);
            if (res.maxRssKb !== undefined) rss.push(res.maxRssKb / 1024);
            if (res.cpuMs !== undefined) cpu.push(res.cpuMs / 1000);
          }
        } finally {
          removeDir(out);
        }
      }
      if (failure) {
        ctx.skip({ id: `${spec.id}-wall`, label: `generate ${spec.label}`, reason: `generator failed (${failure})` });
        continue;
      }
      const runsText = `${runs} + ${warmup} warm-up`;
      ctx.row({
        id: `${spec.id}-wall`,
        label: `generate all targets: ${spec.label} (wall)`,
        unit: 's',
        samples: times,
        runs: runsText,
        goal: spec.main ? { text: 'median < 0.8 s', test: (m) => m < 0.8 } : undefined,
        detail: cpu.length ? `CPU time (user+sys) median ${median(cpu).toFixed(3)} s` : undefined,
        extra: cpu.length ? { cpuSeconds: summarize(cpu) } : undefined,
      });
      if (rss.length > 0) ctx.row({ id: `${spec.id}-rss`, label: `generate all targets: ${spec.label} (peak RSS)`, unit: 'MB', samples: rss, runs: runsText });
    }

    // turbo: the same command twice; the second should be served from the cache.
    const env = { TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' };
    for (const attempt of [1, 2]) {
      ctx.progress(`npx turbo run generate (${attempt} of 2)`);
      const res = runMeasured({ command: 'npx', args: ['turbo', 'run', 'generate'], env, timeoutMs: 240_000 });
      if (res.status !== 0) {
        ctx.skip({ id: `turbo-generate-${attempt}`, label: `npx turbo run generate, run ${attempt} of 2`, reason: `exit ${res.status}: ${(res.stderr || res.stdout).trim().split('\n').slice(-3).join(' | ')}` });
        continue;
      }
      ctx.row({
        id: `turbo-generate-${attempt}`,
        label: `npx turbo run generate, run ${attempt} of 2 (wall)`,
        unit: 's',
        samples: [res.ms / 1000],
        runs: '1 (a pair, back to back)',
        how: attempt === 1 ? 'run from the repository root, whole process including npx and turbo start-up; generate depends on the codegen build, so a changed codegen rebuilds here.' : 'the same command again with nothing changed: every task should be a cache hit.',
        note: `(${cacheSummary(res.stdout + res.stderr)})`,
      });
    }
  },
};
