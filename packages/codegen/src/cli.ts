import path from 'node:path';
import { generate, TARGETS, writeFiles, type Target } from './generate.js';
import type { Diagnostic } from './ir/types.js';
import { SpecLoadError } from './load/parse-document.js';
import { verify } from './verify/verify.js';
import { listWorkspaceApis, readWorkspaceConfig, runWorkspace } from './workspace/workspace.js';
import { watchSpecs } from './workspace/watch.js';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadSpec } from './load/load-spec.js';
import { buildIR } from './ir/build-ir.js';
import { diffApis } from './diff/diff-apis.js';
import { formatDiffMarkdown, formatDiffText } from './diff/format-diff.js';

/** Exit codes: documented in `--help` and the README. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const MAIN_HELP = `Usage: codegen <command> [options]

Contract-first code generation for OpenAPI 3.0 / 3.1 files.

Commands:
  generate   Generate validators (and other targets) from a spec
  workspace  Regenerate the workspace packages from every spec codegen.config.json lists
  diff       Report what changed between two spec versions, breaking or not
  verify     Generate every target into a temporary folder, type-check it,
             and validate every example in the spec against its schema
  scaffold   Write handler files your team owns (one per tag, 501 stubs, index.ts);
             run again with a newer spec to update them in place

Run "codegen <command> --help" for the options of a command.

Exit codes: 0 success, 1 the spec or the output has problems, 2 wrong usage.`;

const GENERATE_HELP = `Usage: codegen generate --spec <file> --out <dir> [options]

Reads an OpenAPI 3.0/3.1 file (YAML or JSON, multi-file $refs bundled) and writes
deterministic, formatted TypeScript under <dir>/<target>/.

Options:
  --spec <file>      OpenAPI file to read (required)
  --out <dir>        Folder to write into (required)
  --target <name>    ${[...TARGETS, 'all'].join(' | ')} (default: all)
  --check            Write nothing; exit 1 and list the files that are out of date
  --quiet            Print only problems
  -h, --help         Show this help

Examples:
  codegen generate --spec spec/v2.2/account-information.yaml --out packages/validators/src/v2.2
  codegen generate --spec api.yaml --out generated --target validators --check`;

const VERIFY_HELP = `Usage: codegen verify --spec <file> [options]

Generates every target into a temporary folder, type-checks it strictly, loads the
validators and checks every example/examples value in the file against its schema.
Prints a summary; exits 1 on any failure.

Options:
  --spec <file>      OpenAPI file to verify (required)
  --keep <dir>       Keep the generated files in <dir> for inspection
  --json             Print the report as JSON
  -h, --help         Show this help`;

const WORKSPACE_HELP = `Usage: codegen workspace [options]

Regenerates <package>/src/generated/<subpath>/ of every package named in the config, from
every spec file it lists. A pattern like "spec/*/account-information.yaml" makes each
version folder of spec/ a subpath ("{version}"), so adding a version is adding a folder.

Options:
  --config <file>    Workspace config (default: codegen.config.json)
  --only <targets>   Comma-separated subset of ${TARGETS.join(', ')}, changelog
  --check            Write nothing; exit 1 and list generated files that are out of date
  --watch            Regenerate whenever a file under spec/ (the folders the config
                     names) is saved; stop with Ctrl-C
  --quiet            Print only problems
  -h, --help         Show this help`;

const DIFF_HELP = `Usage: codegen diff --from <file|version> --to <file|version> [options]

Compares two versions of an API: operations, parameters, request and response schemas
field by field (members, required-ness, enum values, patterns, lengths, bounds, formats),
status codes and content types. Each change is classified as breaking or not, for a client
and for a server. A version such as "v2.1" names the spec of that subpath in
codegen.config.json.

Options:
  --from <file|version>   The older spec (required)
  --to <file|version>     The newer spec (required)
  --format <f>            text (default) | markdown | json
  --json                  Same as --format json
  --out <file>            Write the report to a file instead of standard output
  --fail-on <what>        Exit 1 when there is a change that is: breaking (for clients or
                          servers) | client | server
  --config <file>         Workspace config for version names (default: codegen.config.json)
  -h, --help              Show this help

Examples:
  codegen diff --from v2.1 --to v2.2
  codegen diff --from old.yaml --to new.yaml --fail-on client --format json`;

class UsageError extends Error {}

interface ParsedArgs {
  flags: Map<string, string | true>;
  positionals: string[];
}

function parseArgs(argv: string[], known: Record<string, 'value' | 'boolean'>): ParsedArgs {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h') {
      flags.set('help', true);
      continue;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const kind = known[name];
    if (!kind) throw new UsageError(`unknown option --${name}`);
    if (kind === 'boolean') {
      flags.set(name, true);
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`--${name} needs a value`);
    flags.set(name, value);
  }
  return { flags, positionals };
}

function requireFlag(args: ParsedArgs, name: string): string {
  const value = args.flags.get(name);
  if (typeof value !== 'string') throw new UsageError(`--${name} is required`);
  return value;
}

const SEVERITY_LABEL: Record<Diagnostic['severity'], string> = { error: 'error', warning: 'warning', info: 'info' };

function printDiagnostics(diagnostics: Diagnostic[], out: NodeJS.WriteStream, includeInfo: boolean): void {
  for (const d of diagnostics) {
    if (d.severity === 'info' && !includeInfo) continue;
    out.write(`${SEVERITY_LABEL[d.severity]} [${d.code}] ${d.pointer}: ${d.message}\n`);
  }
}

function summarizeInfos(diagnostics: Diagnostic[]): string | undefined {
  const infos = diagnostics.filter((d) => d.severity === 'info');
  if (infos.length === 0) return undefined;
  const byCode = new Map<string, number>();
  for (const d of infos) byCode.set(d.code, (byCode.get(d.code) ?? 0) + 1);
  return `notes: ${[...byCode].map(([code, n]) => `${n} ${code}`).join(', ')} (formats that are annotations only)`;
}

async function runGenerate(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { spec: 'value', out: 'value', target: 'value', check: 'boolean', quiet: 'boolean', help: 'boolean' });
  if (args.flags.has('help')) {
    process.stdout.write(`${GENERATE_HELP}\n`);
    return EXIT.ok;
  }
  const spec = requireFlag(args, 'spec');
  const out = requireFlag(args, 'out');
  const targetFlag = (args.flags.get('target') as string | undefined) ?? 'all';
  if (targetFlag !== 'all' && !(TARGETS as readonly string[]).includes(targetFlag)) {
    throw new UsageError(`--target must be one of ${[...TARGETS, 'all'].join(', ')} (got "${targetFlag}")`);
  }
  const targets: readonly Target[] = targetFlag === 'all' ? TARGETS : [targetFlag as Target];
  const check = args.flags.has('check');
  const quiet = args.flags.has('quiet');

  const started = performance.now();
  const result = await generate({ spec, targets });
  printDiagnostics(result.diagnostics, process.stderr, false);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    process.stderr.write(`${spec}: ${errors.length} error(s); nothing written. The generator will not approximate what it cannot represent.\n`);
    return EXIT.failed;
  }
  const report = await writeFiles(out, result.files, { check });
  const elapsed = Math.round(performance.now() - started);
  if (check) {
    const stale = [...report.written, ...report.removed];
    if (stale.length > 0) {
      process.stderr.write(`${out}: ${stale.length} generated file(s) out of date with ${spec}:\n`);
      for (const file of report.written) process.stderr.write(`  changed  ${path.join(out, file)}\n`);
      for (const file of report.removed) process.stderr.write(`  stale    ${path.join(out, file)}\n`);
      process.stderr.write('Run the generator and commit the result.\n');
      return EXIT.failed;
    }
    if (!quiet) process.stdout.write(`${out}: up to date with ${spec} (${report.unchanged.length} files)\n`);
    return EXIT.ok;
  }
  if (!quiet) {
    const api = result.built.api;
    process.stdout.write(
      `${spec} → ${out}: ${api.operations.length} operations, ${api.schemas.length} schemas; ` +
        `${report.written.length} written, ${report.unchanged.length} unchanged, ${report.removed.length} removed (${elapsed} ms)\n`,
    );
    const notes = summarizeInfos(result.diagnostics);
    if (notes) process.stdout.write(`${notes}\n`);
  }
  return EXIT.ok;
}

async function runVerify(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { spec: 'value', keep: 'value', json: 'boolean', help: 'boolean' });
  if (args.flags.has('help')) {
    process.stdout.write(`${VERIFY_HELP}\n`);
    return EXIT.ok;
  }
  const spec = requireFlag(args, 'spec');
  const json = args.flags.has('json');
  const interactive = process.stderr.isTTY && !json;
  const keepDir = args.flags.get('keep');
  const report = await verify({
    spec,
    ...(typeof keepDir === 'string' ? { keepDir } : {}),
    onProgress: (step) => {
      if (interactive) process.stderr.write(`\r\x1b[2K${spec}: ${step}…`);
    },
  });
  if (interactive) process.stderr.write('\r\x1b[2K');
  if (json) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    return report.ok ? EXIT.ok : EXIT.failed;
  }
  printDiagnostics(report.diagnostics, process.stderr, false);
  for (const error of report.typeErrors) process.stderr.write(`type error: ${error}\n`);
  for (const failure of report.exampleFailures) {
    process.stderr.write(`example does not validate: ${failure.pointer}\n${failure.issues.map((i) => `    ${i}\n`).join('')}`);
  }
  const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = report.diagnostics.filter((d) => d.severity === 'warning').length;
  process.stdout.write(
    `${spec}: ${report.operations} operations, ${report.schemas} schemas, ${report.examplesChecked} examples checked, ` +
      `${report.exampleFailures.length} example failures, ${report.typeErrors.length} type errors, ${errors} errors, ${warnings} warnings — ${
        report.ok ? 'OK' : 'FAILED'
      }\n`,
  );
  return report.ok ? EXIT.ok : EXIT.failed;
}

async function runWorkspaceCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { config: 'value', only: 'value', check: 'boolean', watch: 'boolean', quiet: 'boolean', help: 'boolean' });
  if (args.flags.has('help')) {
    process.stdout.write(`${WORKSPACE_HELP}\n`);
    return EXIT.ok;
  }
  if (args.flags.has('watch')) {
    if (args.flags.has('check')) throw new UsageError('--watch and --check do not go together');
    const once = () => runWorkspaceCommand(argv.filter((a) => a !== '--watch'));
    const configFile = path.resolve((args.flags.get('config') as string | undefined) ?? 'codegen.config.json');
    const config = await readWorkspaceConfig(configFile).catch((error: Error) => {
      throw new UsageError(`cannot read ${path.relative(process.cwd(), configFile)}: ${error.message}`);
    });
    return watchSpecs(path.dirname(configFile), config, once);
  }
  const configFile = path.resolve((args.flags.get('config') as string | undefined) ?? 'codegen.config.json');
  const only = typeof args.flags.get('only') === 'string' ? (args.flags.get('only') as string).split(',').map((s) => s.trim()) : undefined;
  for (const target of only ?? []) {
    if (![...TARGETS, 'changelog'].includes(target)) throw new UsageError(`--only: unknown target "${target}" (use ${[...TARGETS, 'changelog'].join(', ')})`);
  }
  let config;
  try {
    config = await readWorkspaceConfig(configFile);
  } catch (error) {
    throw new UsageError(`cannot read ${path.relative(process.cwd(), configFile)}: ${(error as Error).message}`);
  }
  const check = args.flags.has('check');
  const quiet = args.flags.has('quiet');
  const interactive = process.stderr.isTTY && !quiet;
  const started = performance.now();
  const report = await runWorkspace({
    root: path.dirname(configFile),
    config,
    check,
    ...(only ? { only: only as Array<Target | 'changelog'> } : {}),
    onProgress: (message) => {
      if (interactive) process.stderr.write(`\r\x1b[2K${message}`);
    },
  });
  if (interactive) process.stderr.write('\r\x1b[2K');
  for (const d of report.diagnostics) {
    if (d.severity !== 'info') process.stderr.write(`${d.spec}: ${d.severity} [${d.code}] ${d.pointer}: ${d.message}\n`);
  }
  if (report.diagnostics.some((d) => d.severity === 'error')) {
    process.stderr.write('Errors in the specs above; nothing written.\n');
    return EXIT.failed;
  }
  if (report.apis.length === 0) {
    process.stderr.write(`no spec file matches the patterns in ${path.relative(process.cwd(), configFile)}\n`);
    return EXIT.failed;
  }
  let stale = 0;
  for (const { dir, report: r } of report.packages) {
    stale += r.written.length + r.removed.length;
    if (check) {
      for (const f of r.written) process.stderr.write(`  out of date  ${path.join(dir, f)}\n`);
      for (const f of r.removed) process.stderr.write(`  stale        ${path.join(dir, f)}\n`);
    }
  }
  const elapsed = Math.round(performance.now() - started);
  if (check && stale > 0) {
    process.stderr.write(`${stale} generated file(s) do not match spec/ and the generator. Run "pnpm generate" and commit the result.\n`);
    return EXIT.failed;
  }
  if (!quiet) {
    const apis = report.apis.map((a) => `${a.subpath} (${a.spec})`).join(', ');
    const summary = report.packages
      .map(({ dir, report: r }) => `${dir}: ${r.written.length} written, ${r.unchanged.length} unchanged, ${r.removed.length} removed`)
      .join('; ');
    process.stdout.write(`${check ? 'up to date' : 'generated'}: ${apis}\n${summary} (${elapsed} ms)\n`);
  }
  return EXIT.ok;
}

async function resolveSpecArgument(value: string, configFile: string): Promise<string> {
  if (existsSync(value)) return value;
  if (existsSync(configFile)) {
    const config = await readWorkspaceConfig(configFile);
    const apis = await listWorkspaceApis(path.dirname(configFile), config);
    const match = apis.find((api) => api.subpath === value);
    if (match) return path.join(path.dirname(configFile), match.spec);
    throw new UsageError(`"${value}" is neither a file nor a version (known: ${apis.map((a) => a.subpath).join(', ')})`);
  }
  throw new UsageError(`"${value}" is not a file`);
}

async function runDiff(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { from: 'value', to: 'value', format: 'value', json: 'boolean', out: 'value', 'fail-on': 'value', config: 'value', help: 'boolean' });
  if (args.flags.has('help')) {
    process.stdout.write(`${DIFF_HELP}\n`);
    return EXIT.ok;
  }
  const configFile = path.resolve((args.flags.get('config') as string | undefined) ?? 'codegen.config.json');
  const format = args.flags.has('json') ? 'json' : ((args.flags.get('format') as string | undefined) ?? 'text');
  if (!['text', 'markdown', 'json'].includes(format)) throw new UsageError(`--format must be text, markdown or json (got "${format}")`);
  const failOn = args.flags.get('fail-on') as string | undefined;
  if (failOn !== undefined && !['breaking', 'client', 'server'].includes(failOn)) throw new UsageError(`--fail-on must be breaking, client or server (got "${failOn}")`);
  const fromFile = await resolveSpecArgument(requireFlag(args, 'from'), configFile);
  const toFile = await resolveSpecArgument(requireFlag(args, 'to'), configFile);
  const [before, after] = await Promise.all([loadSpec(fromFile), loadSpec(toFile)]);
  const diff = diffApis(buildIR(before).api, buildIR(after).api);
  const rel = (f: string) => path.relative(process.cwd(), f).split(path.sep).join('/');
  const report =
    format === 'json'
      ? `${JSON.stringify({ fromSpec: rel(fromFile), toSpec: rel(toFile), ...diff }, null, 2)}\n`
      : format === 'markdown'
        ? formatDiffMarkdown(diff, `Generated by \`codegen diff --from ${rel(fromFile)} --to ${rel(toFile)}\`. Do not edit.`)
        : formatDiffText(diff);
  const out = args.flags.get('out');
  if (typeof out === 'string') await writeFile(out, report);
  else process.stdout.write(report);
  const failing =
    failOn === 'breaking'
      ? diff.summary.breakingForClients + diff.summary.breakingForServers
      : failOn === 'client'
        ? diff.summary.breakingForClients
        : failOn === 'server'
          ? diff.summary.breakingForServers
          : 0;
  if (failing > 0) {
    process.stderr.write(`codegen diff: ${failing} breaking change(s) (--fail-on ${failOn})\n`);
    return EXIT.failed;
  }
  return EXIT.ok;
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  diff: runDiff,
  generate: runGenerate,
  workspace: runWorkspaceCommand,
  verify: runVerify,
  // Loaded on use: the scaffold command brings ts-morph, which no other command should pay for.
  scaffold: async (argv) => (await import('./scaffold/command.js')).runScaffold(argv),
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${MAIN_HELP}\n`);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  const run = COMMANDS[command];
  try {
    if (!run) throw new UsageError(`unknown command "${command}"`);
    return await run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`codegen: ${error.message}\nRun "codegen ${run ? `${command} ` : ''}--help" for usage.\n`);
      return EXIT.usage;
    }
    if (error instanceof SpecLoadError) {
      process.stderr.write(`codegen: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}
