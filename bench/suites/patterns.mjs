// Patterns: V8's backtracking RegExp beside the linear matcher the generated validators use
// for patterns V8 could backtrack on (issue 39), on attack inputs and benign values; and the
// check function of the official 100-transaction page before and after the routing.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyDir } from '../src/lib/generated.mjs';
import { runMeasured } from '../src/lib/proc.mjs';
import { describeLoop, loopOptions, officialValidators, ratioSamples } from '../src/lib/validator-runs.mjs';
import { realSpecsDir, repoRoot, scratchDir } from '../src/lib/paths.mjs';
import yaml from 'js-yaml';

const worker = fileURLToPath(new URL('../src/workers/patterns.mjs', import.meta.url));

/** The router's default body limit: the largest value a body member can carry. */
const BODY_LIMIT = 256 * 1024;

const PATTERNS = [
  { id: 'slug', source: '^([a-z0-9]+-?)*[a-z0-9]+$', attackPrefix: '', attackPump: 'a', attackSuffix: '!', sizes: [16, 18, 20, 22, 24, 26, 28, 30, BODY_LIMIT - 1] },
  { id: 'email', source: '^.*@.*\\..*', attackPrefix: '', attackPump: '@', attackSuffix: '', sizes: [1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, BODY_LIMIT] },
  { id: 'url', source: '^(https?:\\/\\/)?([\\da-z\\.-]+)\\.([a-z\\.]{2,6})([\\/\\w \\.-]*)*\\/?$', attackPrefix: 'http://a.aa', attackPump: '/', attackSuffix: '!', sizes: [12, 14, 16, 18, 20, 22, 24, 26, BODY_LIMIT - 12] },
];

/** Sizes of the pumped part for an attack of the official files, by how fast V8's time grows. */
function sizesFor(complexity, prefix, suffix) {
  const grown = complexity.kind === 'exponential' ? [12, 14, 16, 18, 20, 22, 24, 26, 28] : [250, 500, 1_000, 2_000, 4_000, 8_000];
  return [...grown, BODY_LIMIT - prefix.length - suffix.length];
}

/**
 * Every super-linear `pattern` of the official files, with the attack the generator's analysis
 * gives for it (what its warning prints), beside the three of the issue.
 */
async function officialPatterns() {
  const { classifyPattern } = await import(path.join(repoRoot, 'packages/codegen/dist/ir/pattern-complexity.js'));
  const { patternFlags } = await import(path.join(repoRoot, 'packages/codegen/dist/ir/pattern.js'));
  const sources = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      if (typeof node.pattern === 'string') sources.add(node.pattern);
      Object.values(node).forEach(walk);
    }
  };
  for (const file of readdirSync(realSpecsDir).filter((f) => /\.ya?ml$/.test(f)).sort()) walk(yaml.load(readFileSync(path.join(realSpecsDir, file), 'utf8')));
  const found = [];
  for (const source of [...sources].sort()) {
    const flags = patternFlags(source);
    if (flags === undefined) continue;
    const complexity = classifyPattern(source, flags);
    if (complexity.kind === 'linear') continue;
    const { prefix, pump, suffix } = complexity.attack;
    found.push({ id: `official ${found.length + 1} (${complexity.kind === 'polynomial' ? `degree ${complexity.degree}` : 'exponential'})`, source, flags, attackPrefix: prefix, attackPump: pump, attackSuffix: suffix, sizes: sizesFor(complexity, prefix, suffix).map((n, i, all) => (i === all.length - 1 ? Math.floor(n / pump.length) : n)) });
  }
  return found;
}

const BENIGN = [
  { id: 'slug', source: PATTERNS[0].source, value: 'my-first-post-2024' },
  { id: 'email', source: PATTERNS[1].source, value: 'someone@example.com' },
  { id: 'url', source: PATTERNS[2].source, value: 'https://www.example.com/some/path' },
  { id: 'date-time', source: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|\\+\\d{2}:\\d{2}|-(?:0[1-9]|1[0-2]):\\d{2})$', value: '2024-05-01T10:20:30.123+04:00' },
];

/** `rx.linear("…", 'u')` written back as `new RegExp("…", 'u')`: the validators as they were before the routing. */
const LINEAR_CALL = /rx\.linear\(("(?:[^"\\]|\\.)*"), '(u?)'\)/g;

function beforeCopy(afterDir) {
  const beforeDir = path.join(scratchDir('patterns-before'), 'validators');
  copyDir(afterDir, beforeDir);
  let routed = 0;
  for (const name of readdirSync(beforeDir).filter((f) => f.endsWith('.js'))) {
    const file = path.join(beforeDir, name);
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text.replace(LINEAR_CALL, (_, source, flags) => {
        routed++;
        return `new RegExp(${source}, '${flags}')`;
      }),
    );
  }
  return { beforeDir, routed };
}

export default {
  id: 'patterns',
  title: 'Patterns: V8 beside the linear matcher',
  description: 'attack inputs of growing size and benign values, V8 RegExp vs the linear matcher; check functions before/after routing',
  async run(ctx) {
    const official = officialValidators(ctx);
    if (!official) {
      ctx.skip({ id: 'patterns', label: 'pattern matching', reason: 'official file not found at ../shared/real-specs' });
      return;
    }
    const afterDir = official.validatorsDir;
    const { beforeDir, routed } = beforeCopy(afterDir);
    const loop = loopOptions(ctx);
    const configFile = path.join(path.dirname(beforeDir), 'patterns-worker.json');
    const patterns = [...PATTERNS, ...(await officialPatterns())];
    const linearEngine = path.join(repoRoot, 'packages/codegen/dist/ir/linear-engine.js');
    writeFileSync(configFile, JSON.stringify({ afterDir, beforeDir, specFile: official.specFile, routed, patterns, benign: BENIGN, loop, linearEngine }));
    ctx.progress('time V8 and the linear matcher in one worker');
    const res = runMeasured({ args: [worker, configFile], timeoutMs: 240_000 });
    const report = JSON.parse(res.stdout.trim().split('\n').pop() ?? '{}');
    if (!report.ok) throw new Error(`patterns worker: ${report.error ?? res.stderr.slice(0, 500)}`);

    ctx.note(
      'Attack inputs: prefix + pump × n + suffix, none of which match. Each figure is milliseconds per `test` call, repeated until 20 ms passed (once when slower). ' +
        'V8 is stopped after the first size where one call takes more than 250 ms (the next would take seconds to hours); the linear matcher goes on to the 256 KB body limit.',
    );
    for (const attack of report.attacks) {
      for (const row of attack.rows) {
        if (row.v8Ms !== undefined) ctx.row({ id: `attack-${attack.id}-${row.n}-v8`, label: `${attack.id} attack, ${row.chars.toLocaleString('en-US')} chars: V8`, unit: 'ms', samples: [row.v8Ms], runs: '1 timing' });
        ctx.row({
          id: `attack-${attack.id}-${row.n}-linear`,
          label: `${attack.id} attack, ${row.chars.toLocaleString('en-US')} chars: linear`,
          unit: 'ms',
          samples: [row.linearMs],
          runs: '1 timing',
          goal: { text: '< 50 ms', test: (m) => m < 50 },
        });
      }
    }
    ctx.note(`Benign values: ${describeLoop(loop)} per engine, batches interleaved; the ratio is V8's ops/s over the linear matcher's, per round.`);
    for (const b of report.benign) {
      ctx.row({ id: `benign-${b.id}-v8`, label: `${b.id} ${JSON.stringify(b.value)}: V8`, unit: 'ops/s', stats: b.v8.opsPerSec, runs: `${b.v8.batches} batches` });
      ctx.row({ id: `benign-${b.id}-linear`, label: `${b.id}: linear`, unit: 'ops/s', stats: b.linear.opsPerSec, runs: `${b.linear.batches} batches` });
      ctx.row({ id: `benign-${b.id}-ratio`, label: `${b.id}: linear time / V8 time`, unit: '×', samples: ratioSamples(b.v8, b.linear), runs: `${b.v8.batches} rounds`, goal: { text: '≤ 20×', test: (m) => m <= 20 } });
    }
    const checks = report.checks;
    ctx.note(
      `Check function ${checks.component} on the 100-transaction page (${checks.payloadBytes.toLocaleString('en-US')} bytes): as generated ("after", ${checks.routed} pattern constants through the linear matcher) and the same folder with those written back as plain RegExps ("before"), in one process, ${describeLoop(loop)}.`,
    );
    ctx.row({ id: 'checks-before', label: '100-transaction page check: before', unit: 'ops/s', stats: checks.before.opsPerSec, runs: `${checks.before.batches} batches` });
    ctx.row({ id: 'checks-after', label: '100-transaction page check: after', unit: 'ops/s', stats: checks.after.opsPerSec, runs: `${checks.after.batches} batches` });
    ctx.row({
      id: 'checks-ratio',
      label: '100-transaction page check: after / before',
      unit: '×',
      samples: ratioSamples(checks.after, checks.before),
      runs: `${checks.after.batches} rounds`,
      goal: { text: '≥ 0.95×', test: (m) => m >= 0.95 },
    });
  },
};
