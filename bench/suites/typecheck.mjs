// Type-check time of generated code: `tsc --noEmit` (typescript from bench/, the repository's
// strict compiler options) over the code generated from the official v2.1 account information
// file, over packages/validators as a whole, and over a consumer of the built validators package
// beside a file that uses zod alone.
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
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

export function timeTsc(ctx, { project, runs, warmup, timeoutMs = 180_000 }) {
  const times = [];
  const checks = [];
  const cpu = [];
  let diag;
  for (let i = 0; i < warmup + runs; i++) {
    const res = runMeasured({ args: [tscBin, '-p', project, '--noEmit', '--extendedDiagnostics', '--incremental', 'false'], rss: true, timeoutMs });
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

export const cpuText = (r) => (r.cpu.length ? `CPU median ${median(r.cpu).toFixed(2)} s; ` : '');

/** A tsconfig beside the generated folders (include is relative to it) extending the repository's base options. */
export function writeTsconfig(dir, id, include) {
  const base = path.relative(dir, path.join(repoRoot, 'tsconfig.base.json')).split(path.sep).join('/');
  const file = path.join(dir, `tsconfig.${id}.json`);
  writeFileSync(
    file,
    JSON.stringify({ extends: base, compilerOptions: { noEmit: true, declaration: false, declarationMap: false, sourceMap: false, types: [] }, include }, null, 2),
  );
  return file;
}

/**
 * What another service writes: five v2.2 schemas used as zod schemas (composed with `.extend`,
 * `.pick`, `.omit`, `.partial`, read through `.shape` and `.options`, inferred with `z.infer` and
 * `z.input`) and a check function, imported from the built package as a registry install gives it.
 */
const CONSUMER = `import { z } from 'zod';
import { Account, AccountType, Balance, ConsentData, Transaction, isAccount, type Account as AccountT } from '@bank-data-sharing/validators/v2.2';

export const WithOwner = Account.extend({ Owner: z.string().min(1) });
export const Summary = Account.pick({ AccountId: true, Nickname: true });
export const WithoutId = Account.omit({ AccountId: true });
export const Draft = Account.partial();
export const accountId = Account.shape.AccountId;
export const accountTypes: ReadonlyArray<z.infer<typeof AccountType>> = AccountType.options;
export type BalanceOut = z.infer<typeof Balance>;
export type TransactionIn = z.input<typeof Transaction>;
export const status: z.infer<typeof ConsentData>['Status'] = ConsentData.shape.Status.enum.Authorized;
export function owned(value: unknown): z.infer<typeof WithOwner> {
  return WithOwner.parse(value);
}
export function account(value: unknown): AccountT | undefined {
  return isAccount(value) ? value : undefined;
}
`;

/** The yardstick: zod alone and one schema, written by hand. */
const ZOD_ALONE = `import { z } from 'zod';

export const Account = z.strictObject({
  AccountId: z.string().min(1).max(40),
  Currency: z.string().regex(/^[A-Z]{3}$/),
  AccountType: z.enum(['Retail', 'SME', 'Corporate']),
  Nickname: z.string().optional(),
});
export type Account = z.infer<typeof Account>;
export function account(value: unknown): Account {
  return Account.parse(value);
}
`;

/** A folder where `@bank-data-sharing/validators` resolves to the built package (as installed) and `zod` to bench's. */
function consumerFolder() {
  const dir = scratchDir('consumer');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'bench-consumer', private: true, type: 'module' }, null, 2));
  mkdirSync(path.join(dir, 'node_modules', '@bank-data-sharing'), { recursive: true });
  symlinkSync(path.join(repoRoot, 'packages/validators'), path.join(dir, 'node_modules', '@bank-data-sharing', 'validators'), 'dir');
  writeFileSync(path.join(dir, 'consumer.ts'), CONSUMER);
  writeFileSync(path.join(dir, 'zod-alone.ts'), ZOD_ALONE);
  return { dir, consumer: writeTsconfig(dir, 'consumer', ['consumer.ts']), zodAlone: writeTsconfig(dir, 'zod-alone', ['zod-alone.ts']) };
}

export default {
  id: 'typecheck',
  title: 'Type-check time of generated code',
  description: 'tsc --noEmit over the code generated from the official v2.1 file, over packages/validators, and over a consumer of the built v2.2 validators beside zod alone',
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

    // A consumer of the built package beside zod alone, run in turn (one of each per round) so
    // that the machine's load falls on both alike.
    const built = path.join(repoRoot, 'packages/validators/dist/generated/v2.2/index.d.ts');
    const consumerRow = { id: 'consumer-vs-zod', label: 'tsc --noEmit: consumer of the v2.2 validators (5 schemas) ÷ zod alone (1 schema), whole process' };
    if (!existsSync(built)) ctx.skip({ ...consumerRow, reason: 'packages/validators is not built (pnpm build)' });
    else {
      const folder = consumerFolder();
      const rounds = ctx.quick ? 3 : 7;
      const consumer = { times: [], cpu: [], checks: [] };
      const zodAlone = { times: [], cpu: [], checks: [] };
      let failure;
      let diag;
      for (let round = 0; round <= rounds && !failure; round++) {
        ctx.progress(`consumer ÷ zod alone, round ${round}/${rounds}${round === 0 ? ' (warm-up)' : ''}`);
        for (const [project, into] of round % 2 === 0 ? [[folder.zodAlone, zodAlone], [folder.consumer, consumer]] : [[folder.consumer, consumer], [folder.zodAlone, zodAlone]]) {
          const r = timeTsc(ctx, { project, runs: 1, warmup: 0 });
          if (r.failure) {
            failure = `${path.basename(project)}: ${r.failure}`;
            break;
          }
          if (into === consumer) diag = r.diag;
          if (round === 0) continue;
          into.times.push(...r.times);
          into.cpu.push(...r.cpu);
          into.checks.push(...r.checks);
        }
      }
      if (failure) ctx.skip({ ...consumerRow, reason: failure });
      else {
        const roundsText = `${rounds} rounds + 1 warm-up, alternating`;
        const cpuRatio = consumer.cpu.length && zodAlone.cpu.length ? `; by CPU time ${(median(consumer.cpu) / median(zodAlone.cpu)).toFixed(2)}× (${median(consumer.cpu).toFixed(2)} s ÷ ${median(zodAlone.cpu).toFixed(2)} s)` : '';
        ctx.row({ id: 'consumer-wall', label: 'tsc --noEmit: consumer of the built v2.2 validators, 5 schemas (wall)', unit: 's', samples: consumer.times, runs: roundsText, detail: `${cpuText(consumer)}${diag?.files} files, ${diag?.types?.toLocaleString('en-US')} types` });
        ctx.row({ id: 'zod-alone-wall', label: 'tsc --noEmit: zod alone, 1 schema (wall)', unit: 's', samples: zodAlone.times, runs: roundsText, detail: cpuText(zodAlone).replace(/; $/, '') });
        ctx.row({
          ...consumerRow,
          unit: '×',
          samples: consumer.times.map((t, i) => t / zodAlone.times[i]),
          runs: roundsText,
          goal: { text: '≤ 1.3×', test: (m) => m <= 1.3 },
          detail: `ratio of the medians ${(median(consumer.times) / median(zodAlone.times)).toFixed(2)}×${cpuRatio}`,
        });
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
