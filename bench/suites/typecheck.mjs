// Type-check time of generated code: `tsc --noEmit` (typescript from bench/, the repository's
// strict compiler options) over the code generated from the official v2.1 account information
// file, and over packages/validators as a whole.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { generate, listFiles } from '../src/lib/generated.mjs';
import { OFFICIAL_MAIN, officialSpec, repoRoot, scratchDir } from '../src/lib/paths.mjs';
import { runMeasured } from '../src/lib/proc.mjs';
import { median } from '../src/lib/stats.mjs';

const require = createRequire(import.meta.url);
const tscBin = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');

/** Numbers tsc prints with --extendedDiagnostics. */
function diagnostics(output) {
  const read = (name) => {
    const m = new RegExp(`^${name}:\\s+([\\d.]+)(s|K)?$`, 'm').exec(output);
    return m ? Number(m[1]) : undefined;
  };
  return { files: read('Files'), lines: read('Lines of TypeScript'), types: read('Types'), checkS: read('Check time'), totalS: read('Total time'), memoryKB: read('Memory used') };
}

function timeTsc(ctx, { project, runs, warmup }) {
  const times = [];
  const checks = [];
  const cpu = [];
  let diag;
  for (let i = 0; i < warmup + runs; i++) {
    const res = runMeasured({ args: [tscBin, '-p', project, '--noEmit', '--extendedDiagnostics', '--incremental', 'false'], rss: true, timeoutMs: 180_000 });
    const out = res.stdout + res.stderr;
    if (res.status !== 0) {
      const errors = out.split('\n').filter((l) => /error TS\d+/.test(l));
      return { failure: `${errors.length} type error(s), first: ${(errors[0] ?? out.trim().split('\n')[0] ?? '').trim().slice(0, 300)}` };
    }
    diag = diagnostics(out);
    if (i >= warmup) {
      times.push(res.ms / 1000);
      if (diag.checkS !== undefined) checks.push(diag.checkS);
      if (res.cpuMs !== undefined) cpu.push(res.cpuMs / 1000);
    }
  }
  return { times, checks, cpu, diag };
}

const cpuText = (r) => (r.cpu.length ? `CPU median ${median(r.cpu).toFixed(2)} s; ` : '');

/** A tsconfig beside the generated folders (include is relative to it) extending the repository's base options. */
function writeTsconfig(dir, id, include) {
  const base = path.relative(dir, path.join(repoRoot, 'tsconfig.base.json')).split(path.sep).join('/');
  const file = path.join(dir, `tsconfig.${id}.json`);
  writeFileSync(
    file,
    JSON.stringify({ extends: base, compilerOptions: { noEmit: true, declaration: false, declarationMap: false, sourceMap: false, types: [] }, include }, null, 2),
  );
  return file;
}

export default {
  id: 'typecheck',
  title: 'Type-check time of generated code',
  description: 'tsc --noEmit over the code generated from the official v2.1 file, and over packages/validators',
  async run(ctx) {
    const runs = ctx.quick ? 2 : 3;
    const warmup = 1;
    const runsText = `${runs} + ${warmup} warm-up`;
    ctx.note(
      `Whole tsc process, spawn to exit (Node start and loading typescript included): "node typescript/bin/tsc -p <tsconfig> --noEmit --extendedDiagnostics", ${warmup} warm-up then ${runs} timed runs, median; ` +
        'the generated code is checked with a tsconfig that extends the repository\'s tsconfig.base.json (strict, noUncheckedIndexedAccess, NodeNext). "check" rows are tsc\'s own "Check time" (type checking only, no parse/bind/start-up).',
    );
    const spec = officialSpec(OFFICIAL_MAIN);
    if (!spec) ctx.skip({ id: 'official', label: `tsc over code generated from ${OFFICIAL_MAIN}`, reason: 'official file not found at ../shared/real-specs' });
    else {
      const root = scratchDir('typecheck');
      ctx.progress(`generate all targets of ${OFFICIAL_MAIN}`);
      generate(spec, root, 'all');
      const targets = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && listFiles(path.join(root, d.name), '.ts').length > 0).map((d) => d.name).sort();
      const sets = [{ id: 'validators', label: 'validators', include: ['validators/**/*.ts'] }];
      if (targets.some((t) => t !== 'validators')) sets.push({ id: 'all', label: `all targets (${targets.join(', ')})`, include: targets.map((t) => `${t}/**/*.ts`) });
      else ctx.note('All targets: only the validators target emitted files for this spec so far, so there is no separate all-targets row.');
      for (const set of sets) {
        const projectForSet = writeTsconfig(root, set.id, set.include);
        ctx.progress(`tsc over generated ${set.label}`);
        const r = timeTsc(ctx, { project: projectForSet, runs, warmup });
        if (r.failure) {
          ctx.skip({ id: `official-${set.id}`, label: `tsc --noEmit: official v2.1 ${set.label}`, reason: r.failure });
          continue;
        }
        const detail = `${cpuText(r)}${r.diag.files} files, ${r.diag.lines?.toLocaleString('en-US')} lines of TS, ${r.diag.types?.toLocaleString('en-US')} types, ${Math.round((r.diag.memoryKB ?? 0) / 1024)} MB`;
        ctx.row({ id: `official-${set.id}-wall`, label: `tsc --noEmit: official v2.1 ${set.label} (wall)`, unit: 's', samples: r.times, runs: runsText, goal: { text: 'median < 2 s', test: (m) => m < 2 }, detail });
        if (r.checks.length > 0) ctx.row({ id: `official-${set.id}-check`, label: `tsc --noEmit: official v2.1 ${set.label} (check time)`, unit: 's', samples: r.checks, runs: runsText });
      }
    }

    const pkg = path.join(repoRoot, 'packages/validators/tsconfig.json');
    if (!existsSync(pkg)) ctx.skip({ id: 'package', label: 'tsc --noEmit: packages/validators', reason: 'packages/validators/tsconfig.json not found' });
    else {
      ctx.progress('tsc over packages/validators');
      const r = timeTsc(ctx, { project: pkg, runs, warmup });
      if (r.failure) ctx.skip({ id: 'package', label: 'tsc --noEmit: packages/validators', reason: r.failure });
      else {
        const detail = `its typecheck config (src + test); ${cpuText(r)}${r.diag.files} files, ${r.diag.lines?.toLocaleString('en-US')} lines of TS, ${r.diag.types?.toLocaleString('en-US')} types, ${Math.round((r.diag.memoryKB ?? 0) / 1024)} MB`;
        ctx.row({ id: 'package-validators-wall', label: 'tsc --noEmit: packages/validators (wall)', unit: 's', samples: r.times, runs: runsText, detail });
        if (r.checks.length > 0) ctx.row({ id: 'package-validators-check', label: 'tsc --noEmit: packages/validators (check time)', unit: 's', samples: r.checks, runs: runsText });
      }
    }
  },
};
