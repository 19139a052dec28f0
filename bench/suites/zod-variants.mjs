// The zod investigation: what makes the generated validators faster with the same semantics.
// Every variant runs in its own process beside ajv (the ratio to ajv is the figure: it cancels
// most machine noise between processes). Text variants edit COPIES of the generated files.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { copyDir, generate, transpileDir } from '../src/lib/generated.mjs';
import { OFFICIAL_MAIN, realSpecsDir, repoRoot, scratchDir } from '../src/lib/paths.mjs';
import { runMeasured } from '../src/lib/proc.mjs';
import { CASES, describeLoop, loopOptions, officialValidators, ratioSamples, runVariant } from '../src/lib/validator-runs.mjs';
import { median } from '../src/lib/stats.mjs';
import * as T from '../src/lib/zod-transforms.mjs';

const RUNTIME = { id: 'runtime', label: 'safeParse', method: 'safeParse' };
const COMPILED = { id: 'compiled', label: 'compile() + safeParse', method: 'safeParse', compile: true };

/** Variants. `edit` rewrites copies of the generated files; `equivalent` = same accepted inputs. */
const VARIANTS = [
  {
    id: 'as-generated',
    label: 'as generated',
    equivalent: true,
    modes: [RUNTIME, { id: 'runtime-validate', label: '.validate()', method: 'validate' }, COMPILED, { id: 'compiled-validate', label: 'compile() + .validate()', method: 'validate', compile: true }],
  },
  { id: 'jitless', label: 'z.config({ jitless: true })', equivalent: true, jitless: true, modes: [RUNTIME] },
  { id: 'global-compile', label: 'import "zod/compile" (global AOT)', equivalent: true, globalCompile: true, modes: [RUNTIME] },
  { id: 'enum-literal', label: 'z.enum([...]) printed as z.literal([...])', equivalent: true, edit: { schemas: T.enumAsLiteral }, modes: [RUNTIME, COMPILED] },
  { id: 'regex-no-u', label: '.regex(/…/u) without u where u cannot matter', equivalent: true, edit: { schemas: T.regexWithoutUnicodeFlag }, modes: [RUNTIME, COMPILED] },
  { id: 'format-stringFormat', label: 'format .refine(rt.isX) printed as z.stringFormat(name, rt.isX)', equivalent: true, edit: { schemas: T.formatAsStringFormat }, modes: [RUNTIME, COMPILED] },
  { id: 'fast-date-time', label: 'rt.isDateTime as a character scan (runtime.gen.ts)', equivalent: true, edit: { runtime: T.fastDateTime }, modes: [RUNTIME, COMPILED] },
  { id: 'strip-objects', label: 'z.strictObject printed as z.object (NOT same semantics)', equivalent: false, edit: { schemas: T.strictAsStrip }, modes: [RUNTIME, COMPILED] },
  { id: 'loose-objects', label: 'z.strictObject printed as z.looseObject (NOT same semantics)', equivalent: false, edit: { schemas: T.strictAsLoose }, modes: [RUNTIME, COMPILED] },
  {
    id: 'combined',
    label: 'all same-semantics edits (stringFormat + fast date-time + literal + no-u)',
    equivalent: true,
    edit: { schemas: (t) => chain(t, [T.formatAsStringFormat, T.enumAsLiteral, T.regexWithoutUnicodeFlag]), runtime: T.fastDateTime },
    modes: [RUNTIME, COMPILED],
  },
];

/** A little shorter than the validators suite's loop: there are many variants. */
function variantLoop(ctx) {
  const loop = loopOptions(ctx);
  return ctx.quick ? loop : { ...loop, warmupMs: 250, batchMs: 30, batches: 12 };
}

function chain(text, edits) {
  let count = 0;
  for (const edit of edits) {
    const r = edit(text);
    text = r.text;
    count += r.count;
  }
  return { text, count };
}

/** Copies the generated validators, applies the variant's edits and transpiles the copy. */
function prepareVariant(official, variant) {
  if (!variant.edit) return { validatorsDir: official.validatorsDir, edits: 0 };
  const root = scratchDir(`variant-${variant.id}`);
  const dir = path.join(root, 'validators');
  copyDir(official.validatorsDir, dir);
  let edits = 0;
  const apply = (file, edit) => {
    const full = path.join(dir, file);
    const r = edit(readFileSync(full, 'utf8'));
    writeFileSync(full, r.text);
    edits += r.count;
  };
  if (variant.edit.schemas) for (const file of ['schemas.gen.ts', 'operations.gen.ts']) apply(file, variant.edit.schemas);
  if (variant.edit.runtime) apply('runtime.gen.ts', variant.edit.runtime);
  transpileDir(dir);
  return { validatorsDir: dir, edits };
}

/** The fast date-time predicate must answer exactly like the generated one. */
async function checkDateTimeEquivalence(baselineDir, variantDir) {
  const before = await import(pathToFileURL(path.join(baselineDir, 'runtime.gen.js')).href);
  const after = await import(pathToFileURL(path.join(variantDir, 'runtime.gen.js')).href);
  const corpus = T.dateTimeCorpus(200_000);
  let valid = 0;
  for (const s of corpus) {
    const a = before.isDateTime(s);
    if (a !== after.isDateTime(s)) throw new Error(`fast isDateTime disagrees with the generated one on ${JSON.stringify(s)}`);
    if (a) valid++;
  }
  return { strings: corpus.length, valid };
}

function compileCoverage(ctx, label, validatorsDir) {
  const worker = fileURLToPath(new URL('../src/workers/compile-coverage.mjs', import.meta.url));
  const config = path.join(path.dirname(validatorsDir), 'coverage.json');
  writeFileSync(config, JSON.stringify({ validatorsDir }));
  const res = runMeasured({ args: [worker, config], timeoutMs: 120_000 });
  const report = JSON.parse(res.stdout.trim().split('\n').pop() || '{"ok":false,"error":"no output"}');
  if (!report.ok) throw new Error(`compile coverage of ${label}: ${report.error}`);
  return report;
}

export default {
  id: 'zod-variants',
  title: 'zod speed investigation (official v2.1 account information)',
  description: 'zod variants (jitless, AOT compile, printing changes) as a ratio to ajv in the same process; compile() coverage',
  async run(ctx) {
    const official = officialValidators(ctx);
    if (!official) {
      ctx.skip({ id: 'variants', label: 'zod variants', reason: 'official file not found at ../shared/real-specs' });
      return;
    }
    const loop = variantLoop(ctx);
    ctx.note(
      `Each variant runs in a fresh Node process with ajv beside it (${describeLoop(loop)}, zod and ajv batches alternating); ` +
        'the figure is zod ops/s ÷ ajv ops/s per round, median over rounds, so variants can be compared across processes. Text variants edit copies of the generated files in a scratch folder.',
    );
    const baseline = new Map();
    for (const variant of VARIANTS) {
      const prepared = prepareVariant(official, variant);
      if (variant.edit && prepared.edits === 0) {
        ctx.skip({ id: variant.id, label: variant.label, reason: 'the edit found nothing to change in the generated files' });
        continue;
      }
      let equivalence = '';
      if (variant.edit?.runtime === T.fastDateTime) {
        const eq = await checkDateTimeEquivalence(official.validatorsDir, prepared.validatorsDir);
        equivalence = ` Fast isDateTime answered like the generated one on ${eq.strings.toLocaleString('en-US')} strings (${eq.valid.toLocaleString('en-US')} valid).`;
      }
      ctx.progress(`variant ${variant.id}`);
      const report = runVariant(ctx, { ...official, validatorsDir: prepared.validatorsDir }, variant, loop);
      ctx.note(`${variant.label}: ${variant.edit ? `${prepared.edits} edit(s) in the copy; ` : ''}${variant.equivalent ? 'same semantics' : 'DIFFERENT semantics (reference only)'}.${equivalence}`);
      for (const info of report.cases) {
        const caseLabel = CASES.find((c) => c.id === info.id).label;
        for (const m of info.modes) {
          const ratio = ratioSamples(m.result, info.ajv);
          const ratioMedian = median(ratio);
          const key = `${info.id}:${m.id}`;
          if (variant.id === 'as-generated') baseline.set(key, ratioMedian);
          // the same mode of the as-generated files (global AOT compares with plain safeParse)
          const base = baseline.get(key);
          const modeLabel = variant.modes.find((x) => x.id === m.id).label;
          const vsBase = base && variant.id !== 'as-generated' ? `, ${ratioMedian >= base ? '+' : ''}${((ratioMedian / base - 1) * 100).toFixed(0)}% vs as generated` : '';
          ctx.row({
            id: `${variant.id}-${info.id}-${m.id}`,
            label: `${caseLabel} · ${variant.label} · ${modeLabel}`,
            unit: '×',
            samples: ratio,
            runs: `${m.result.batches} rounds`,
            goal: { text: '≥ 2× ajv', test: (x) => x >= 2 },
            detail: `zod ${Math.round(m.result.opsPerSec.median).toLocaleString('en-US')} / ajv ${Math.round(info.ajv.opsPerSec.median).toLocaleString('en-US')} ops/s${vsBase}${m.compiled === false ? `; compile refused: ${m.refusal}` : ''}`,
          });
        }
      }
    }

    // compile() coverage and cost: every schema of every file we can generate.
    const files = [];
    if (existsSync(realSpecsDir)) for (const f of readdirSync(realSpecsDir).filter((f) => /\.ya?ml$/.test(f)).sort()) files.push({ id: f.replace(/\.ya?ml$/, ''), label: `official ${f}`, file: path.join(realSpecsDir, f) });
    for (const v of readdirSync(path.join(repoRoot, 'spec')).sort()) {
      const file = path.join(repoRoot, 'spec', v, 'account-information.yaml');
      if (existsSync(file)) files.push({ id: `spec-${v}`, label: `spec/${v}/account-information.yaml`, file });
    }
    ctx.note('compile() coverage: every exported component schema and every operation schema is passed to compile(schema, { strict: true }) in a fresh process; refusals are counted by reason; the time is compiling them all, one after the other (each compiles its whole subtree).');
    for (const f of files) {
      ctx.progress(`compile() coverage of ${f.label}`);
      let dir;
      if (f.label === `official ${OFFICIAL_MAIN}`) dir = official.validatorsDir;
      else {
        const root = scratchDir(`coverage-${f.id}`);
        try {
          generate(f.file, root, 'validators');
        } catch (error) {
          ctx.skip({ id: `coverage-${f.id}`, label: `compile() coverage: ${f.label}`, reason: `generation failed: ${String(error.message).split('\n').slice(-1)[0]}` });
          continue;
        }
        dir = path.join(root, 'validators');
        transpileDir(dir);
      }
      const r = compileCoverage(ctx, f.label, dir);
      const reasons = Object.entries(r.refusals).map(([why, n]) => `${n}× ${why} (e.g. ${r.examples[why]})`);
      ctx.row({
        id: `coverage-${f.id}`,
        label: `compile() accepts: ${f.label}`,
        unit: '%',
        samples: [(100 * r.compiled) / r.total],
        runs: '1',
        detail: `${r.compiled}/${r.total} schemas; ${r.definite} with a definite fast path; all compiled in ${Math.round(r.compileMs)} ms (module import ${Math.round(r.importMs)} ms)${reasons.length ? `; refused: ${reasons.join('; ')}` : ''}`,
      });
    }
  },
};
