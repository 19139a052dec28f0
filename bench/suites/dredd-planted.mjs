// Dredd 14 against the planted-defect server: the hand-written Inventory server of
// packages/codegen/test/server-test/planted, run correctly and with each planted defect in turn,
// and Dredd run on its contract (inventory.yaml) against every variant. Each row says whether
// Dredd found the defect (a transaction fails that passes on the correct server), did not, or
// reported a failure on the correct server (a false report), and which transactions failed.
//
// Dredd is run three ways per variant:
//   - as-written: the contract unchanged. Dredd 14 refuses it (see ADAPTATION): no test runs.
//   - adapted: a copy that Dredd can read, every transaction Dredd compiles (its default).
//   - adapted-2xx: the same copy with a hook file that skips the transactions of non-2xx
//     responses, which Dredd cannot meet with the examples of the 2xx request (the usual setup).
//
// Dredd is not a dependency of the repository: it is installed on demand into bench/.tmp/dredd
// (once, reused while present), like Prism in mocks.mjs. `runDreddOnPlanted()` returns the rows
// as data; `node bench/suites/dredd-planted.mjs` prints them as a Markdown table.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import yaml from 'js-yaml';
import { DEFECTS, startPlantedServer } from '../../packages/codegen/test/server-test/planted/planted-server.mjs';
import { display, removeScratch, repoRoot, scratchDir, scratchRoot } from '../src/lib/paths.mjs';
import { installOnDemand } from '../src/lib/install-tool.mjs';

const DREDD_MAJOR = 14;
const DREDD_PACKAGE = `dredd@${DREDD_MAJOR}`;
/** Where Dredd is installed on demand: bench/.tmp/dredd (gitignored, kept between runs). */
const dreddDir = path.join(scratchRoot, 'dredd');
const dreddPackageJson = path.join(dreddDir, 'node_modules', 'dredd', 'package.json');
const dreddBin = path.join(dreddDir, 'node_modules', 'dredd', 'bin', 'dredd');

const plantedDir = path.join(repoRoot, 'packages/codegen/test/server-test/planted');
const CONTRACT = path.join(plantedDir, 'inventory.yaml');
const TOKEN_HEADER = 'Authorization: Bearer good-token';
/** Bound on one Dredd run (a run takes about a second). */
const DREDD_TIMEOUT_MS = 120_000;

/**
 * The one change the Dredd-readable copy makes. Dredd 14 turns each operation into an RFC 6570
 * URI template (`/items{?page,page-size}`), whose variable names cannot hold a hyphen, and stops
 * with "API description processing error"; a percent-encoded name (`page%2Dsize`) is accepted by
 * the template but then matches no parameter, and Dredd drops the whole operation. So the copy
 * leaves out the optional `page-size` query parameter of listItems (the server's default, 10,
 * applies), and changes nothing else.
 */
const ADAPTATION = 'the optional query parameter "page-size" of GET /items is left out (Dredd 14 compiles each operation to an RFC 6570 URI template, /items{?page,page-size}, whose variable names cannot hold a hyphen, and then refuses the whole file)';

/** How Dredd 14 judges an answer to an OpenAPI 3 file (read in its sources, borne out by the rows). */
const WHAT_DREDD_CHECKS =
  'one transaction per declared response, each sending the same request built from the examples (so a correct server can meet only the 2xx ones); the status code; the Content-Type and the presence of each declared header; ' +
  "and a JSON body against the response's example, not its schema: its OpenAPI 3 parser (@apielements/openapi3-parser) makes no JSON Schema for bodies, so gavel derives one from the example, in which each of the example's keys is required but no value type is checked and extra members are allowed. " +
  'Dredd ignores the file\'s servers: it appends each path to the URL it is given, so the URL must include /inventory/v1.';

/** Skips every transaction whose expected status is not 2xx (Dredd's hook API, CommonJS). */
const SKIP_NON_2XX_HOOK = `// Written by bench/suites/dredd-planted.mjs: Dredd cannot meet the non-2xx responses with the
// examples of the successful request, so their transactions are skipped.
const hooks = require('hooks');
hooks.beforeEach((transaction, done) => {
  if (!/^2[0-9][0-9]$/.test(String(transaction.expected.statusCode))) transaction.skip = true;
  done();
});
`;

export const MODES = [
  { id: 'as-written', label: 'Dredd, file as written', adapted: false, only2xx: false },
  { id: 'adapted', label: 'Dredd, adapted file, all transactions', adapted: true, only2xx: false },
  { id: 'adapted-2xx', label: 'Dredd, adapted file, non-2xx skipped by a hook', adapted: true, only2xx: true },
];
/** The mode whose verdict is the row's headline. */
export const PRIMARY_MODE = 'adapted-2xx';

// --------------------------------------------------------------------------------------------
// Dredd

/** Installs Dredd 14 into bench/.tmp/dredd unless it is there. */
export function ensureDredd(progress = () => {}) {
  const version = () => (existsSync(dreddBin) && existsSync(dreddPackageJson) ? JSON.parse(readFileSync(dreddPackageJson, 'utf8')).version : undefined);
  const result = installOnDemand({ packageSpec: DREDD_PACKAGE, dir: dreddDir, installed: () => version()?.startsWith(`${DREDD_MAJOR}.`) === true, progress, timeout: 300_000 });
  return result.ok ? { ...result, version: version() } : result;
}

/** Repository paths in Dredd's messages shown relative to the repository root. */
const scrub = (text) => text.split(repoRoot + path.sep).join('').split(repoRoot).join('.');

/** Runs a command without blocking this process (the planted server answers from it). */
function runAsync(command, args, { cwd, timeoutMs }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ status: null, signal: null, stdout, stderr: `${stderr}${error.message}` });
    });
    child.once('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
  });
}

/** The test cases of Dredd's xunit report: name, status, the "Message:" lines of a failure. */
function parseXunit(xml) {
  const cases = [];
  const re = /<testcase\s+name="([^"]*)"[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const m of xml.matchAll(re)) {
    const name = m[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const inner = m[2] ?? '';
    let status = 'pass';
    if (/<skipped\b/.test(inner)) status = 'skip';
    else if (/<failure\b/.test(inner)) status = 'fail';
    else if (/<error\b/.test(inner)) status = 'error';
    const text = /<!\[CDATA\[([\s\S]*?)\]\]>/.exec(inner)?.[1] ?? '';
    const message = /Message:\n([\s\S]*?)(?:\n\n|$)/.exec(text)?.[1] ?? text.split('\n\n')[0] ?? '';
    cases.push({ name, status, messages: message.split('\n').map((l) => l.trim()).filter(Boolean) });
  }
  return cases;
}

/**
 * One Dredd run of `file` against `serverUrl` (origin + the file's server path: Dredd 14 ignores
 * the `servers` of an OpenAPI 3 file and appends each operation's path to the URL it is given).
 */
async function runDredd({ file, serverUrl, hookFile, workDir, tag }) {
  const report = path.join(workDir, `${tag}.xml`);
  const args = [path.relative(repoRoot, dreddBin), path.relative(repoRoot, file), serverUrl, '--header', TOKEN_HEADER, '--reporter', 'xunit', '--output', path.relative(repoRoot, report), '--no-color'];
  if (hookFile) args.push('--hookfiles', path.relative(repoRoot, hookFile));
  const res = await runAsync(process.execPath, args, { cwd: repoRoot, timeoutMs: DREDD_TIMEOUT_MS });
  const output = `${res.stdout}\n${res.stderr}`;
  const command = `node ${args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`;
  const cases = existsSync(report) ? parseXunit(readFileSync(report, 'utf8')) : [];
  const errors = output.split('\n').filter((l) => l.startsWith('error:')).map((l) => scrub(l.slice('error:'.length).trim()));
  const warnings = output.split('\n').filter((l) => l.startsWith('warn:')).map((l) => scrub(l.slice('warn:'.length).trim()));
  const refused = cases.length === 0 && errors.some((e) => e.includes('API description processing error'));
  return { exitCode: res.status, signal: res.signal, command, cases, errors, warnings, refused };
}

// --------------------------------------------------------------------------------------------
// The comparison

/** The Dredd-readable copy of the contract (see ADAPTATION), written into `dir`. */
function writeAdaptedContract(dir) {
  const doc = yaml.load(readFileSync(CONTRACT, 'utf8'));
  const list = doc.paths['/items'].get;
  const before = list.parameters.length;
  list.parameters = list.parameters.filter((p) => p.name !== 'page-size');
  if (list.parameters.length !== before - 1) throw new Error('inventory.yaml: GET /items has no "page-size" parameter to leave out');
  const file = path.join(dir, 'inventory-dredd.yaml');
  writeFileSync(file, `# inventory.yaml for Dredd 14: ${ADAPTATION}.\n${yaml.dump(doc, { lineWidth: -1, noRefs: true })}`);
  return file;
}

/** Failing (or erroring) test cases of a run, by name. */
const failingOf = (run) => run.cases.filter((c) => c.status === 'fail' || c.status === 'error');
const describeCase = (c) => `${c.name}: ${c.messages.join('; ') || c.status}`;

/** Verdict of one run, given the run of the same mode on the correct server. */
function verdictOf(run, baseline, isCorrect) {
  if (run.refused) return { verdict: 'not run: Dredd refused the file', failing: [], newFailing: [] };
  if (run.cases.length === 0) return { verdict: `not run: ${run.errors[0] ?? `Dredd exited ${run.exitCode ?? run.signal} with no report`}`, failing: [], newFailing: [] };
  const failing = failingOf(run);
  if (isCorrect) return { verdict: failing.length > 0 ? 'false report on the correct server' : 'clean', failing, newFailing: failing };
  const before = new Map(failingOf(baseline).map((c) => [c.name, c.messages.join('\n')]));
  // A defect is found when a transaction fails that passes on the correct server, or fails for another reason.
  const newFailing = failing.filter((c) => !before.has(c.name) || before.get(c.name) !== c.messages.join('\n'));
  return { verdict: newFailing.length > 0 ? 'found' : 'not found', failing, newFailing };
}

/**
 * Runs Dredd on inventory.yaml against the correct planted server and each defect, every mode.
 * Resolves to { ok, reason?, version, install, adaptation, commands, warnings, rows }: a row per
 * variant ({ variant, description, verdict, failing, modes: { [mode]: { verdict, passing,
 * failing, skipped, total, failingTransactions, newFailingTransactions, exitCode } } }), where
 * `verdict`/`failing` are those of PRIMARY_MODE (failing: the transactions that fail beyond the
 * correct server's, or, on the correct server, all that fail).
 */
export async function runDreddOnPlanted({ progress = () => {} } = {}) {
  const install = ensureDredd(progress);
  if (!install.ok) return { ok: false, reason: install.reason, rows: [] };
  const workDir = scratchDir('dredd-planted');
  const adapted = writeAdaptedContract(workDir);
  const hookFile = path.join(workDir, 'skip-non-2xx.cjs');
  writeFileSync(hookFile, SKIP_NON_2XX_HOOK);

  const variants = [{ name: 'correct', description: 'no defect: the contract kept strictly' }, ...DEFECTS];
  const runs = new Map();
  const commands = {};
  for (const variant of variants) {
    const server = await startPlantedServer(variant.name === 'correct' ? {} : { defect: variant.name });
    try {
      for (const mode of MODES) {
        progress(`${variant.name}: ${mode.label}`);
        const run = await runDredd({ file: mode.adapted ? adapted : CONTRACT, serverUrl: server.url, hookFile: mode.only2xx ? hookFile : undefined, workDir, tag: `${variant.name}-${mode.id}` });
        runs.set(`${variant.name}/${mode.id}`, run);
        commands[mode.id] ??= scrub(run.command)
          .replace(/127\.0\.0\.1:\d+/, '127.0.0.1:<port>')
          .split(display(workDir)).join('bench/.tmp/dredd-planted-<random>')
          .split(`${variant.name}-${mode.id}.xml`).join('<variant>-<mode>.xml');
      }
    } finally {
      await server.close();
    }
  }

  const rows = variants.map((variant) => {
    const modes = {};
    for (const mode of MODES) {
      const run = runs.get(`${variant.name}/${mode.id}`);
      const v = verdictOf(run, runs.get(`correct/${mode.id}`), variant.name === 'correct');
      const count = (status) => run.cases.filter((c) => c.status === status).length;
      modes[mode.id] = {
        verdict: v.verdict,
        passing: count('pass'),
        failing: count('fail') + count('error'),
        skipped: count('skip'),
        total: run.cases.length,
        failingTransactions: v.failing.map(describeCase),
        newFailingTransactions: v.newFailing.map(describeCase),
        exitCode: run.exitCode,
        errors: run.errors.filter((e) => e !== 'API description processing error').slice(0, 3),
      };
    }
    const primary = modes[PRIMARY_MODE];
    return { variant: variant.name, description: variant.description, verdict: primary.verdict, failing: primary.newFailingTransactions, modes };
  });

  // Dredd's parser warnings on the file as written, the same on every run: which keywords it reads past.
  const warnings = [...new Set(runs.get('correct/as-written').warnings.map((w) => w.replace(/^API description parser warning in \S+:\d+ \(from line \d+ column \d+ to column \d+\): /, '').replace(/ \(\d+ occurances\)$/, '')))];
  return { ok: true, version: install.version, install: install.how, adaptation: ADAPTATION, checks: WHAT_DREDD_CHECKS, commands, warnings, rows };
}

// --------------------------------------------------------------------------------------------
// Output

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The rows as a Markdown table: variant | verdict per mode | failing transactions (primary mode). */
export function markdownTable(result) {
  const head = ['variant', ...MODES.map((m) => `${m.label}`), `failing transactions (${PRIMARY_MODE}; beyond the correct server's)`];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const row of result.rows) {
    const verdicts = MODES.map((m) => {
      const r = row.modes[m.id];
      return r.total > 0 ? `${r.verdict} (${r.passing} pass, ${r.failing} fail, ${r.skipped} skip)` : r.verdict;
    });
    lines.push(`| ${[row.variant, ...verdicts, row.failing.join('<br>') || '–'].map(cell).join(' | ')} |`);
  }
  return lines.join('\n');
}

export default {
  id: 'dredd',
  title: `Dredd ${DREDD_MAJOR} on the planted-defect server`,
  description: 'Dredd on inventory.yaml against the hand-written Inventory server, correct and with each of its 10 planted defects: found, not found, or a false report on the correct server',
  async run(ctx) {
    const result = await runDreddOnPlanted({ progress: ctx.progress });
    if (!result.ok) {
      ctx.skip({ id: 'dredd', label: `Dredd ${DREDD_MAJOR}`, reason: `${result.reason}: every Dredd row is left out` });
      return;
    }
    ctx.note(`Dredd ${result.version}: ${result.install}. Server: packages/codegen/test/server-test/planted/planted-server.mjs in this process on 127.0.0.1, a fresh one per variant; Dredd in a child process per run, its xunit report parsed.`);
    for (const mode of MODES) ctx.note(`${mode.label}: ${result.commands[mode.id]}`);
    ctx.note(`Adapted file: ${result.adaptation}.`);
    ctx.note(`What Dredd checks: ${WHAT_DREDD_CHECKS}`);
    ctx.note('Verdict: on the correct server, any failing transaction is a false report; with a defect, "found" when a transaction fails that passes on the correct server (or fails there for another reason).');
    ctx.note(`Dredd's parser on the file as written reads past: ${result.warnings.join('; ')}`);
    for (const row of result.rows) {
      const primary = row.modes[PRIMARY_MODE];
      ctx.row({
        id: `planted-${row.variant}`,
        label: `${row.variant}: transactions failing (${PRIMARY_MODE})`,
        unit: 'failing',
        samples: [primary.failing],
        runs: '1 run per mode',
        detail: `${MODES.map((m) => `${m.id}: ${row.modes[m.id].verdict}${row.modes[m.id].total ? ` (${row.modes[m.id].failing}/${row.modes[m.id].total} fail)` : ''}`).join('; ')}${row.failing.length ? `; failing: ${row.failing.join(' | ')}` : ''}`,
        extra: row,
      });
    }
    ctx.note(`The table (Markdown):\n${markdownTable(result)}`);
  },
};

// `node bench/suites/dredd-planted.mjs [--json]`: the table (or the data) on its own.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const json = process.argv.includes('--json');
  try {
    const result = await runDreddOnPlanted({ progress: (msg) => process.stderr.write(`  ${msg}\n`) });
    if (!result.ok) {
      process.stderr.write(`dredd-planted: ${result.reason}\n`);
      process.exitCode = 1;
    } else if (json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      process.stdout.write(`Dredd ${result.version} (${display(dreddBin)})\n\n`);
      for (const mode of MODES) process.stdout.write(`${mode.label}:\n  ${result.commands[mode.id]}\n`);
      process.stdout.write(`\nAdapted file: ${result.adaptation}.\n\nWhat Dredd checks: ${result.checks}\n\n${markdownTable(result)}\n\nParser warnings on the file as written:\n${result.warnings.map((w) => `  - ${w}`).join('\n')}\n`);
    }
  } finally {
    removeScratch();
  }
}
