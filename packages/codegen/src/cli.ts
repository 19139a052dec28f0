import path from 'node:path';
import { ALL_TARGETS, generate, parseTargetList, resolveTargets, TARGETS, type Target } from './generate.js';
import { ForeignFilesError, writeFiles, type WriteReport } from './write-files.js';
import { unifiedDiff } from './text-diff.js';
import type { Diagnostic } from './ir/types.js';
import type { DirectionOptions } from './ir/direction.js';
import { SpecLoadError } from './load/parse-document.js';
import { verify } from './verify/verify.js';
import { listWorkspaceApis, readWorkspaceConfig, runWorkspace } from './workspace/workspace.js';
import { regenerateOnce, watchSpecs } from './workspace/watch.js';
import { defaultConfigFile } from './workspace/find-config.js';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { BuildOptions } from './ir/build-ir.js';
import { diffSpecFiles } from './diff/diff-spec-files.js';
import { SUPPORTED_VERSIONS_TEXT } from './ir/openapi-version.js';
import { formatDiffMarkdown, formatDiffText } from './diff/format-diff.js';
import { formatDiffHtml } from './diff/format-diff-html.js';

/** Exit codes: documented in `--help` and the README. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const MAIN_HELP = `Usage: codegen <command> [options]

Contract-first code generation for ${SUPPORTED_VERSIONS_TEXT} files.

Commands:
  generate   Generate validators (and other targets) from a spec
  workspace  Regenerate the workspace packages from every spec codegen.config.json lists
  diff       Report what changed between two spec versions, breaking or not
  verify     Generate every target into a temporary folder, type-check it,
             and validate every example in the spec against its schema
  scaffold   Write handler files your team owns (one per tag, 501 stubs, index.ts);
             run again with a newer spec to update them in place
  mock       Serve a mock of any OpenAPI file: the generated router (request validation,
             the spec's error contract, security) answering with generated mocks
  test       Check a running server against its OpenAPI file: valid and invalid
             requests, paging and links, each answer judged by the contract

Run "codegen <command> --help" for the options of a command.

Exit codes: 0 success, 1 the spec or the output has problems, 2 wrong usage.`;

const GENERATE_HELP = `Usage: codegen generate --spec <file> --out <dir> [options]

Reads an OpenAPI 3.0/3.1/3.2 file (YAML or JSON, multi-file $refs bundled) and writes
deterministic, formatted TypeScript under <dir>/<target>/.

Options:
  --spec <file>      OpenAPI file to read (required)
  --out <dir>        Folder to write into (required)
  --target <list>    ${[...ALL_TARGETS, 'all'].join(' | ')}, or several separated by commas
                     (default: all); server, client and mocks import the validators,
                     which are written with them. mocks: seeded answers of every
                     operation, valid by the validators (README: "Mock any API").
                     msw (not part of all; needs the msw package): MSW handlers
                     in mocks/msw.ts that validate each request and answer with
                     its mock; writes the mocks and validators with them
  --check            Write nothing; exit 1 and list the files that are out of date
  --keep-other-files Write even though <dir>/<target>/ holds files the generator did not
                     write; they are left as they are
  --reading <r>      exact | lenient: how schemas are read (default: exact for OpenAPI
                     3.1, lenient for 3.0; see the README's "Readings")
  --formats <f>      assert | annotate: check the formats the README lists (default
                     assert), or treat every format as an annotation as JSON Schema does
  --unsupported <u>  refuse | skip: a schema the generator cannot represent fails the
                     run (default refuse), or accepts any value with a warning naming it
  --read-write <m>   openapi | json-schema: readOnly and writeOnly by direction (default
                     openapi: readOnly members are not required in requests, writeOnly
                     ones not in responses), or annotations only (OpenAPI 3.1 files
                     only; 3.0 always applies the rule). See the README's "readOnly and
                     writeOnly"
  --read-only-in-request <p>
                     accept | refuse: a readOnly member present in a request is accepted
                     (default) or refused with 400 naming it
  --write-only-in-response <p>
                     refuse | accept: a writeOnly member present in a response is refused
                     (default: the server answers 500 naming it, the client rejects the
                     answer) or accepted
  --nullable <n>     lenient | literal: in a 3.0 file, nullable: true beside allOf, oneOf,
                     anyOf or $ref without type also accepts null (default lenient, with a
                     warning), or has no effect as OpenAPI 3.0.3's text says
  --quiet            Print only problems
  -h, --help         Show this help

The generator overwrites and removes only files it wrote (those starting with its
"// Generated by @bank-data-sharing/codegen" header), and only under <dir>/<target>/. When
those folders hold any other file it names them, writes nothing and exits 1, unless
--keep-other-files is given; a file of yours where a generated file must go is never
overwritten.

Examples:
  codegen generate --spec spec/v2.2/account-information.yaml --out packages/validators/src/v2.2
  codegen generate --spec api.yaml --out generated --target validators --check`;

const VERIFY_HELP = `Usage: codegen verify --spec <file> [options]

Generates the targets (default: every target) into a temporary folder, type-checks them
strictly, loads the validators and checks every example/examples value in the file
against its schema.
Prints a summary; exits 1 on any failure.

Options:
  --spec <file>      OpenAPI file to verify (required)
  --target <list>    Targets to generate and type-check (as for generate; default: all)
  --keep <dir>       Keep the generated files in <dir> for inspection
  --reading <r>, --formats <f>, --unsupported <u>, --nullable <n>,
  --read-write <m>, --read-only-in-request <p>, --write-only-in-response <p>
                     As for generate: how schemas are read, so that verify checks what
                     generate writes
  --json             Print the report as JSON
  -h, --help         Show this help`;

const WORKSPACE_HELP = `Usage: codegen workspace [options]

Regenerates <package>/src/generated/<subpath>/ of every package named in the config, from
every spec file it lists. A pattern like "spec/*/account-information.yaml" makes each
version folder of spec/ a subpath ("{version}"), so adding a version is adding a folder.

Options:
  --config <file>    Workspace config (default: the nearest codegen.config.json at or above
                     this folder)
  --only <targets>   Comma-separated subset of ${TARGETS.join(', ')}, changelog
  --check            Write nothing; exit 1 and list generated files that are out of date
  --keep-other-files Write even though a generated folder holds files the generator did
                     not write (they are left as they are); otherwise exit 1, writing nothing
  --watch            Regenerate whenever a file under spec/ (the folders the config
                     names) is saved, renamed over or checked out, one line per run;
                     a failed run writes nothing and the watch goes on; stop with Ctrl-C
  --quiet            Print only problems
  -h, --help         Show this help`;

const DIFF_HELP = `Usage: codegen diff <old> <new> [options]
       codegen diff --from <file|version> --to <file|version> [options]

Compares two versions of an API: operations, parameters, request and response schemas
field by field (members, required-ness, enum values, patterns, lengths, bounds, formats),
status codes and content types. Each change is classified as breaking or not, for a client
and for a server, and says why it breaks; a change to a component schema lists the
operations and places that read it. The json and html formats give JSON pointers into both
files. A version such as "v2.1" names the spec of that subpath in codegen.config.json.

Options:
  <old> <new>             The older and the newer spec (file or version), in that order;
                          or give them as:
  --from <file|version>   The older spec
  --to <file|version>     The newer spec
  --format <f>            text (default) | markdown | json | html (one self-contained page:
                          counts, operations added, removed and changed, schema changes,
                          each breaking change badged; it loads and runs nothing)
  --json                  Same as --format json
  --out <file>            Write the report to a file instead of standard output
  --fail-on <what>        Exit 1 when there is a change that is: breaking (for clients or
                          servers) | client | server
  --config <file>         Workspace config for version names (default: the nearest
                          codegen.config.json at or above this folder)
  -h, --help              Show this help

Examples:
  codegen diff v2.1 v2.2
  codegen diff --from v2.1 --to v2.2 --format html --out changes.html
  codegen diff --from old.yaml --to new.yaml --fail-on client --format json`;

const MOCK_HELP = `Usage: codegen mock --spec <file> [options]

Serves a mock of the API an OpenAPI 3.0/3.1/3.2 file describes. The validators, server and
mocks targets are generated into a temporary folder (removed when the server stops) and
served with node:http: every request goes through the generated router, so it is checked
exactly as a real server of the spec checks it (404, 405, 406, 415, 401, 400 in the error
contract the spec declares), and every answer is a declared status with declared headers and
a body the validators accept.

Answers: the spec's examples where they validate, data generated from the schemas elsewhere
(--dynamic: generated data everywhere). The same seed and the same request (method, path,
query) give the same bytes. A request chooses otherwise with Prism's Prefer header:
  Prefer: code=404            a declared status (exactly, else its range 4XX, else default)
  Prefer: example=<name>      one of the spec's named examples of that answer
  Prefer: dynamic=true|false  generated data, or the spec's examples
several at once separated by commas (Prefer: code=400, example=bad). A status or example
the operation does not declare is answered 422 (where declared, else 400) in the spec's
error contract, naming the problem.

Security: an operation that declares security needs a credential where its scheme says
(Authorization: Bearer <any token68>, Basic <base64 of user:password>, the API key header,
query parameter or cookie); any well-formed one is accepted and granted the scopes asked
for, a missing or malformed one gets the spec's 401. Signed (application/jwt) request bodies
must be HS256 JWS with the secret "bds-codegen-mock-server-shared-secret", in date, with iss.
Answers are written as JSON, forms or text (and, with --sign-answers, as application/jwt signed
with that secret): Accept chooses among those, and an answer the spec offers only otherwise
(application/jwt without --sign-answers, XML) is answered 406.

Paged lists (a success body with Links and Meta.TotalPages): 3 pages, chosen with ?page=;
Links.Self, First, Prev, Next and Last point at the same path; a later page is answered with
the operation's 404 (else 400).

Options:
  --spec <file>      OpenAPI file to serve (required)
  --port <n>         Port to listen on (default 4010; 0 picks a free one)
  --host <h>         Address to listen on (default 127.0.0.1: this machine only)
  --seed <n>         Integer seed of the generated data (default 1)
  --delay <ms>       Wait this long before each answer (default 0)
  --dynamic          Generated data by default instead of the spec's examples
  --sign-answers     Answer application/jwt too: HS256 JWS with the secret below (iss
                     "codegen-mock"), the JWT claims around each answer's message
  --prefix <path>    Serve under this path (default: the path of the spec's first server;
                     "" for the root)
  --reading <r>, --formats <f>, --unsupported <u>, --nullable <n>,
  --read-write <m>, --read-only-in-request <p>, --write-only-in-response <p>
                     As for generate: how schemas are read
  -h, --help         Show this help

The start-up lines (standard output) give the base URL, a curl command for the first GET
operation and the start-up time. A file the generator refuses is not served: its problems
are listed by JSON pointer and the exit code is 1. Ctrl-C or SIGTERM stops the server.

Example:
  codegen mock --spec spec/v2.2/account-information.yaml --port 4010
  curl -H 'Authorization: Bearer abc' -H 'Prefer: code=404' \\
    http://127.0.0.1:4010/open-finance/account-information/v2.2/accounts/1/product`;

class UsageError extends Error {}

interface ParsedArgs {
  flags: Map<string, string | true>;
  /** Values of the options that may be given more than once, in order. */
  lists: Map<string, string[]>;
  positionals: string[];
}

function parseArgs(argv: string[], known: Record<string, 'value' | 'boolean' | 'list'>): ParsedArgs {
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
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
    if (kind === 'list') lists.set(name, [...(lists.get(name) ?? []), value]);
    else flags.set(name, value);
  }
  return { flags, lists, positionals };
}

function requireFlag(args: ParsedArgs, name: string): string {
  const value = args.flags.get(name);
  if (typeof value !== 'string') throw new UsageError(`--${name} is required`);
  return value;
}

/** The flags that decide what validates, each with the words it takes; generate and verify take them all. */
const SCHEMA_CHOICES = {
  reading: ['exact', 'lenient'],
  formats: ['assert', 'annotate'],
  unsupported: ['refuse', 'skip'],
  nullable: ['lenient', 'literal'],
  'read-write': ['openapi', 'json-schema'],
  'read-only-in-request': ['accept', 'refuse'],
  'write-only-in-response': ['refuse', 'accept'],
} as const;

type SchemaFlag = keyof typeof SCHEMA_CHOICES;

/** The same flags as `parseArgs` declares them: each takes a value. */
const SCHEMA_FLAGS = Object.fromEntries(Object.keys(SCHEMA_CHOICES).map((flag) => [flag, 'value'])) as Record<SchemaFlag, 'value'>;

/** `--reading`, `--formats`, `--unsupported`, `--nullable` and the readOnly/writeOnly flags, as generate options. */
function schemaFlags(args: ParsedArgs): BuildOptions & DirectionOptions {
  return {
    reading: choiceFlag(args, 'reading'),
    formats: choiceFlag(args, 'formats'),
    unsupported: choiceFlag(args, 'unsupported'),
    nullable: choiceFlag(args, 'nullable'),
    readWrite: choiceFlag(args, 'read-write'),
    readOnlyInRequest: choiceFlag(args, 'read-only-in-request'),
    writeOnlyInResponse: choiceFlag(args, 'write-only-in-response'),
  };
}

/** An optional schema flag: one of the words SCHEMA_CHOICES lists; anything else is a usage error naming them. */
function choiceFlag<F extends SchemaFlag>(args: ParsedArgs, name: F): (typeof SCHEMA_CHOICES)[F][number] | undefined {
  const choices: readonly string[] = SCHEMA_CHOICES[name];
  const value = args.flags.get(name);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !choices.includes(value)) throw new UsageError(`--${name} takes ${choices.join(' or ')} (got ${JSON.stringify(value)})`);
  return value as (typeof SCHEMA_CHOICES)[F][number];
}

const SEVERITY_LABEL: Record<Diagnostic['severity'], string> = { error: 'error', warning: 'warning', info: 'info' };

function printDiagnostics(diagnostics: Diagnostic[], out: NodeJS.WriteStream, includeInfo: boolean): void {
  for (const d of diagnostics) {
    if (d.severity === 'info' && !includeInfo) continue;
    out.write(`${SEVERITY_LABEL[d.severity]} [${d.code}] ${d.pointer}: ${d.message}\n`);
  }
}

/** Notes listed by name, at most this many; the count says how many there are. */
const NOTES_LISTED = 20;

/**
 * The notes (what the file holds that is accepted but read in a way worth knowing: a format
 * that is an annotation only, an unknown keyword, a pattern compiled without the `u` flag):
 * their count by code, then each by JSON pointer.
 */
function summarizeInfos(diagnostics: Diagnostic[]): string | undefined {
  const infos = diagnostics.filter((d) => d.severity === 'info');
  if (infos.length === 0) return undefined;
  const byCode = new Map<string, number>();
  for (const d of infos) byCode.set(d.code, (byCode.get(d.code) ?? 0) + 1);
  const lines = [`notes: ${[...byCode].map(([code, n]) => `${n} ${code}`).join(', ')} (accepted; each says how it is read):`];
  for (const d of infos.slice(0, NOTES_LISTED)) lines.push(`  [${d.code}] ${d.pointer}: ${d.message}`);
  if (infos.length > NOTES_LISTED) lines.push(`  ... and ${infos.length - NOTES_LISTED} more`);
  return lines.join('\n');
}

/** The first lines that differ in the first out-of-date file, as a unified diff (for `--check`). */
function firstDifferenceText(dir: string, report: WriteReport): string {
  const first = report.firstDifference;
  if (!first) return '';
  const name = path.join(dir, first.file).split(path.sep).join('/');
  return unifiedDiff({ before: first.current, after: first.expected, fromName: `${name} (on disk)`, toName: `${name} (generated)`, maxLines: 30 });
}

/** `--target` as a list of targets (default: all); wrong entries are a usage error. */
function targetsFlag(args: ParsedArgs): Target[] {
  try {
    return parseTargetList((args.flags.get('target') as string | undefined) ?? 'all');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** `validators (needed by server, client)`: what was added to the targets asked for. */
function addedTargetsNote(added: Array<{ target: Target; neededBy: Target[] }>): string | undefined {
  if (added.length === 0) return undefined;
  return `also written: ${added.map((a) => `${a.target} (imported by ${a.neededBy.join(', ')})`).join('; ')}`;
}

async function runGenerate(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    spec: 'value',
    out: 'value',
    target: 'value',
    check: 'boolean',
    'keep-other-files': 'boolean',
    ...SCHEMA_FLAGS,
    quiet: 'boolean',
    help: 'boolean',
  });
  if (args.flags.has('help')) {
    process.stdout.write(`${GENERATE_HELP}\n`);
    return EXIT.ok;
  }
  const spec = requireFlag(args, 'spec');
  const out = requireFlag(args, 'out');
  const { targets, added } = resolveTargets(targetsFlag(args));
  const check = args.flags.has('check');
  const quiet = args.flags.has('quiet');

  const started = performance.now();
  const result = await generate({ spec, targets, ...schemaFlags(args) });
  printDiagnostics(result.diagnostics, process.stderr, false);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    process.stderr.write(`${spec}: ${errors.length} error(s); nothing written. The generator will not approximate what it cannot represent.\n`);
    return EXIT.failed;
  }
  const report = await writeFiles(out, result.files, { check, keepOthers: args.flags.has('keep-other-files') });
  const elapsed = Math.round(performance.now() - started);
  if (check) {
    const stale = [...report.written, ...report.removed];
    if (stale.length > 0) {
      process.stderr.write(`${out}: ${stale.length} generated file(s) out of date with ${spec}:\n`);
      for (const file of report.written) process.stderr.write(`  changed  ${path.join(out, file)}\n`);
      for (const file of report.removed) process.stderr.write(`  stale    ${path.join(out, file)}\n`);
      process.stderr.write(firstDifferenceText(out, report));
      process.stderr.write('Run the generator and commit the result.\n');
      return EXIT.failed;
    }
    if (!quiet) process.stdout.write(`${out}: up to date with ${spec} (${report.unchanged.length} files)\n`);
    return EXIT.ok;
  }
  if (!quiet) {
    const api = result.built.api;
    process.stdout.write(
      `${spec} → ${out}: ${api.operations.length} operations, ${api.webhooks?.length ? `${api.webhooks.length} webhooks, ` : ''}${api.schemas.length} schemas; ` +
        `${report.written.length} written, ${report.unchanged.length} unchanged, ${report.removed.length} removed` +
        `${report.kept.length > 0 ? `, ${report.kept.length} other file(s) kept` : ''} (${elapsed} ms)\n`,
    );
    const also = addedTargetsNote(added);
    if (also) process.stdout.write(`${also}\n`);
    const notes = summarizeInfos(result.diagnostics);
    if (notes) process.stdout.write(`${notes}\n`);
  }
  return EXIT.ok;
}

async function runVerify(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    spec: 'value',
    target: 'value',
    keep: 'value',
    ...SCHEMA_FLAGS,
    json: 'boolean',
    help: 'boolean',
  });
  if (args.flags.has('help')) {
    process.stdout.write(`${VERIFY_HELP}\n`);
    return EXIT.ok;
  }
  const spec = requireFlag(args, 'spec');
  const json = args.flags.has('json');
  const interactive = process.stderr.isTTY && !json;
  const keepDir = args.flags.get('keep');
  const { targets } = resolveTargets(targetsFlag(args));
  const report = await verify({
    spec,
    targets,
    ...schemaFlags(args),
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
    `${spec} (${report.targets.join(', ')}): ${report.operations} operations, ${report.schemas} schemas, ${report.examplesChecked} examples checked, ` +
      `${report.exampleFailures.length} example failures, ${report.typeErrors.length} type errors, ${errors} errors, ${warnings} warnings — ${
        report.ok ? 'OK' : 'FAILED'
      }\n`,
  );
  return report.ok ? EXIT.ok : EXIT.failed;
}

async function runWorkspaceCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    config: 'value',
    only: 'value',
    check: 'boolean',
    watch: 'boolean',
    'keep-other-files': 'boolean',
    quiet: 'boolean',
    help: 'boolean',
  });
  if (args.flags.has('help')) {
    process.stdout.write(`${WORKSPACE_HELP}\n`);
    return EXIT.ok;
  }
  if (args.flags.has('watch')) {
    if (args.flags.has('check')) throw new UsageError('--watch and --check do not go together');
    const configFile = defaultConfigFile(args.flags.get('config') as string | undefined);
    const config = await readWorkspaceConfig(configFile).catch((error: Error) => {
      throw new UsageError(`cannot read ${path.relative(process.cwd(), configFile)}: ${error.message}`);
    });
    const only = typeof args.flags.get('only') === 'string' ? (args.flags.get('only') as string).split(',').map((s) => s.trim()) : undefined;
    for (const target of only ?? []) {
      if (![...TARGETS, 'changelog'].includes(target)) throw new UsageError(`--only: unknown target "${target}" (use ${[...TARGETS, 'changelog'].join(', ')})`);
    }
    const root = path.dirname(configFile);
    return watchSpecs({
      root,
      config,
      regenerate: () =>
        regenerateOnce({
          root,
          config,
          ...(only ? { only: only as Array<Target | 'changelog'> } : {}),
          ...(args.flags.has('keep-other-files') ? { keepOthers: true } : {}),
        }),
    });
  }
  const configFile = defaultConfigFile(args.flags.get('config') as string | undefined);
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
    ...(args.flags.has('keep-other-files') ? { keepOthers: true } : {}),
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
    const first = report.packages.find(({ report: r }) => r.firstDifference);
    if (first) process.stderr.write(firstDifferenceText(first.dir, first.report));
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

/**
 * The two specs to compare: two positional arguments (old, new) or --from and --to, not a mix
 * (which one would be the older?) and not one alone.
 */
function diffSpecArguments(args: ParsedArgs): { from: string; to: string } {
  const named = ['from', 'to'].filter((name) => args.flags.has(name));
  if (args.positionals.length > 0) {
    if (named.length > 0) throw new UsageError(`give the two specs either as <old> <new> or with --from and --to, not both (got ${args.positionals.length} positional and --${named.join(', --')})`);
    if (args.positionals.length !== 2) throw new UsageError(`diff takes two specs, the older then the newer (got ${args.positionals.length}: ${args.positionals.join(' ')})`);
    return { from: args.positionals[0]!, to: args.positionals[1]! };
  }
  return { from: requireFlag(args, 'from'), to: requireFlag(args, 'to') };
}

async function runDiff(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { from: 'value', to: 'value', format: 'value', json: 'boolean', out: 'value', 'fail-on': 'value', config: 'value', help: 'boolean' });
  if (args.flags.has('help')) {
    process.stdout.write(`${DIFF_HELP}\n`);
    return EXIT.ok;
  }
  const configFile = defaultConfigFile(args.flags.get('config') as string | undefined);
  const format = args.flags.has('json') ? 'json' : ((args.flags.get('format') as string | undefined) ?? 'text');
  if (!['text', 'markdown', 'json', 'html'].includes(format)) throw new UsageError(`--format must be text, markdown, json or html (got "${format}")`);
  const failOn = args.flags.get('fail-on') as string | undefined;
  if (failOn !== undefined && !['breaking', 'client', 'server'].includes(failOn)) throw new UsageError(`--fail-on must be breaking, client or server (got "${failOn}")`);
  const specs = diffSpecArguments(args);
  const fromFile = await resolveSpecArgument(specs.from, configFile);
  const toFile = await resolveSpecArgument(specs.to, configFile);
  const diff = await diffSpecFiles(fromFile, toFile);
  const rel = (f: string) => path.relative(process.cwd(), f).split(path.sep).join('/');
  const generatedBy = `codegen diff --from ${rel(fromFile)} --to ${rel(toFile)}`;
  const report =
    format === 'json'
      ? `${JSON.stringify({ fromSpec: rel(fromFile), toSpec: rel(toFile), ...diff }, null, 2)}\n`
      : format === 'markdown'
        ? formatDiffMarkdown(diff, `Generated by \`${generatedBy}\`. Do not edit.`)
        : format === 'html'
          ? formatDiffHtml(diff, { note: `Generated by ${generatedBy}.` })
          : formatDiffText(diff);
  const out = args.flags.get('out');
  if (typeof out === 'string') await writeFile(out, report);
  else process.stdout.write(report);
  // Each change counts once, as it is listed (one breaking both sides is one change).
  const failing =
    failOn === 'breaking'
      ? diff.summary.breaking
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

/** An integer flag within [min, max], undefined when absent; anything else is a usage error. */
function integerFlag(args: ParsedArgs, name: string, { min, max }: { min: number; max: number }): number | undefined {
  const value = args.flags.get(name);
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} takes a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`);
  return n;
}

async function runMock(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    spec: 'value',
    port: 'value',
    host: 'value',
    seed: 'value',
    delay: 'value',
    dynamic: 'boolean',
    'sign-answers': 'boolean',
    prefix: 'value',
    ...SCHEMA_FLAGS,
    help: 'boolean',
  });
  if (args.flags.has('help')) {
    process.stdout.write(`${MOCK_HELP}\n`);
    return EXIT.ok;
  }
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const spec = requireFlag(args, 'spec');
  const prefix = args.flags.get('prefix') as string | undefined;
  if (prefix !== undefined && prefix !== '' && !prefix.startsWith('/')) throw new UsageError(`--prefix must start with / (got ${JSON.stringify(prefix)})`);
  const port = integerFlag(args, 'port', { min: 0, max: 65535 });
  const seed = integerFlag(args, 'seed', { min: -(2 ** 31), max: 2 ** 32 - 1 });
  const delay = integerFlag(args, 'delay', { min: 0, max: 600_000 });
  const host = args.flags.get('host') as string | undefined;
  // Loaded on use, as scaffold is: the mock server is no cost to the other commands.
  const { serveMockCommand } = await import('./mock/command.js');
  return serveMockCommand({
    spec,
    ...schemaFlags(args),
    ...(port !== undefined ? { port } : {}),
    ...(host !== undefined ? { host } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(delay !== undefined ? { delay } : {}),
    ...(prefix !== undefined ? { prefix } : {}),
    ...(args.flags.has('dynamic') ? { dynamic: true } : {}),
    ...(args.flags.has('sign-answers') ? { signAnswers: true } : {}),
  });
}

const TEST_HELP = `Usage: codegen test --spec <file> --base-url <url> [options]

Checks a running server against its OpenAPI 3.0/3.1/3.2 file. The file's validators, router and
mocks are generated into a temporary folder; then, for every operation:
  valid requests     every parameter style, JSON, form, multipart and signed bodies, your
                     credentials; each answer must have a declared status (or a 4XX /
                     default covering it), a declared Content-Type, a body valid in the
                     response direction, the declared response headers, and no 5xx
  invalid requests   wrong in exactly one place (a required parameter left out, a value
                     outside its type, pattern, enum or bounds, a body member missing, of
                     the wrong type or unknown where the body is closed, a body that is not
                     JSON, an undeclared media type, credentials missing or not valid);
                     each is first confirmed wrong by the generated router, then must get a
                     4xx in the declared error contract
  sequences          OpenAPI links (the target of a link must exist for the values its
                     source gave), and paging: Links.Next followed to the end, or pages
                     1..totalPages read twice with two page sizes; no record twice or
                     missing, the stated counts kept, a page beyond the last empty
Operations run producers first (a collection before its items, POST before reading, changes
after reads, DELETE last). Values the API hands out are used in later requests, so item
operations reach items that exist: members named like a path or query parameter under any
spelling (AccountId, accountId, account_id...), the id of a collection's items, the last
segment of a Location header or a self link, OpenAPI links. An operation whose valid requests
never got the success answer it declares is "not reached", with why (every answer 404: no
known ids, pass --set or seed data; 401/403: credentials; 400: reported as a failure), and the
declared statuses never seen are listed per operation. Each failure is reported once per
operation and check, with the request shrunk to the smallest that still fails and a curl
line that sends it.

Options:
  --spec <file>          OpenAPI file the server implements (required)
  --base-url <url>       The URL the file's paths are appended to, with the path of its
                         server (required), e.g. http://127.0.0.1:8080/open-finance/account-information/v2.2
  --operations <names>   Comma-separated operation names or operationIds (default: all)
  --max-examples <n>     Valid requests per operation (default 20); each invalid case is
                         sent once, at most 100 per operation
  --seed <n>             Integer seed: the same seed, the same requests (default 1)
  --header 'Name: value' Sent with every request (repeatable)
  --auth [<scheme>=]<credential>
                         A credential for a security scheme of the file (repeatable): the
                         token for oauth2, openIdConnect and http bearer, user:password for
                         http basic, the key for apiKey; without <scheme>= for every scheme.
                         Without --auth, placeholder credentials are sent (as a mock takes)
  --set [<in>.]<name>=<value>
                         A parameter value for every request instead of a generated one
                         (repeatable; <in> is path, query, header or cookie), e.g. an id
                         the server knows: --set path.ConsentId=aac-123. Text is read as
                         JSON where the parameter's schema is not a string
  --sign-key <file>      Sign application/jwt request bodies with this private key (PEM or
                         JWK; a JWK of kty "oct" for HS*), so that a server verifying
                         signatures accepts them; also adds the case of a body signed with
                         another key, which must be refused. Without it, bodies are signed
                         with the mock's published HS256 secret
  --sign-alg <alg>       JWS algorithm (default from the key: ES256/384/512, PS256, EdDSA, HS256)
  --sign-kid <kid>       kid header of the signed bodies
  --sign-iss <iss>       iss claim of the signed bodies
  --no-negative          Skip invalid requests
  --no-sequences         Skip links and paging
  --request-timeout <ms> Abandon a request after this long (default 10000)
  --max-time <s>         Stop starting operations after this many seconds
  --json                 Print the report as JSON on standard output (progress on stderr)
  --junit <file>         Also write a JUnit XML report to <file> (an operation not reached
                         is a skipped test case, with the reason)
  --require-reached      Exit 1 when an operation was not reached (or the time ran out),
                         even with no failure
  --reading <r>, --formats <f>, --unsupported <u>, --nullable <n>,
  --read-write <m>, --read-only-in-request <p>, --write-only-in-response <p>
                         As for generate: how schemas are read
  -h, --help             Show this help

A progress line per operation goes to standard output (standard error with --json).
Exit codes: 0 no failure, 1 a check failed (or the file cannot be used, or with
--require-reached an operation was not reached), 2 wrong usage.

Example:
  codegen test --spec spec/v2.2/account-information.yaml \\
    --base-url http://127.0.0.1:4010/open-finance/account-information/v2.2 \\
    --auth UserOAuth2Security=<token> --junit reports/contract.xml`;

async function runTest(argv: string[]): Promise<number> {
  const args = parseArgs(argv, {
    spec: 'value',
    'base-url': 'value',
    operations: 'value',
    'max-examples': 'value',
    seed: 'value',
    header: 'list',
    auth: 'list',
    set: 'list',
    'sign-key': 'value',
    'sign-alg': 'value',
    'sign-kid': 'value',
    'sign-iss': 'value',
    'no-negative': 'boolean',
    'no-sequences': 'boolean',
    'request-timeout': 'value',
    'max-time': 'value',
    json: 'boolean',
    junit: 'value',
    'require-reached': 'boolean',
    ...SCHEMA_FLAGS,
    help: 'boolean',
  });
  if (args.flags.has('help')) {
    process.stdout.write(`${TEST_HELP}\n`);
    return EXIT.ok;
  }
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument "${args.positionals[0]}"`);
  const spec = requireFlag(args, 'spec');
  const baseUrl = requireFlag(args, 'base-url');
  const headers: Record<string, string> = {};
  for (const header of args.lists.get('header') ?? []) {
    const match = /^([!#$%&'*+.^_\`|~0-9A-Za-z-]+):\s*(.*)$/.exec(header);
    if (!match) throw new UsageError(`--header takes 'Name: value' (got ${JSON.stringify(header)})`);
    headers[match[1]!.toLowerCase()] = match[2]!;
  }
  const auth: Record<string, string> = {};
  for (const entry of args.lists.get('auth') ?? []) {
    const named = /^([A-Za-z0-9_.\-]+)=(.*)$/s.exec(entry);
    if (named) auth[named[1]!] = named[2]!;
    else auth['*'] = entry;
  }
  const values: Record<string, string> = {};
  for (const entry of args.lists.get('set') ?? []) {
    const match = /^((?:path|query|header|cookie)\.)?([^=]+)=(.*)$/s.exec(entry);
    if (!match) throw new UsageError(`--set takes [path.|query.|header.|cookie.]<name>=<value> (got ${JSON.stringify(entry)})`);
    values[`${match[1] ?? ''}${match[2]}`] = match[3]!;
  }
  const operations = (args.flags.get('operations') as string | undefined)
    ?.split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const maxExamples = integerFlag(args, 'max-examples', { min: 1, max: 100_000 });
  const seed = integerFlag(args, 'seed', { min: -(2 ** 31), max: 2 ** 32 - 1 });
  const requestTimeout = integerFlag(args, 'request-timeout', { min: 1, max: 3_600_000 });
  const maxTime = integerFlag(args, 'max-time', { min: 1, max: 86_400 });
  const junit = args.flags.get('junit') as string | undefined;
  const signKey = args.flags.get('sign-key') as string | undefined;
  for (const flag of ['sign-alg', 'sign-kid', 'sign-iss']) if (args.flags.has(flag) && signKey === undefined) throw new UsageError(`--${flag} goes with --sign-key`);
  const { runTestCommand, ServerTestUsageError, signerFromFile } = await import('./server-test/command.js');
  let signRequest;
  if (signKey !== undefined) {
    try {
      signRequest = await signerFromFile(signKey, {
        alg: args.flags.get('sign-alg') as string | undefined,
        kid: args.flags.get('sign-kid') as string | undefined,
        issuer: args.flags.get('sign-iss') as string | undefined,
      });
    } catch (error) {
      throw new UsageError(`--sign-key ${signKey}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  try {
    return await runTestCommand({
      spec,
      baseUrl,
      ...schemaFlags(args),
      ...(operations ? { operations } : {}),
      ...(maxExamples !== undefined ? { maxExamples } : {}),
      ...(seed !== undefined ? { seed } : {}),
      ...(requestTimeout !== undefined ? { requestTimeout } : {}),
      ...(maxTime !== undefined ? { maxTime: maxTime * 1000 } : {}),
      headers,
      auth,
      values,
      ...(signRequest ? { signRequest } : {}),
      cases: { negative: !args.flags.has('no-negative'), sequences: !args.flags.has('no-sequences') },
      json: args.flags.has('json'),
      requireReached: args.flags.has('require-reached'),
      ...(junit !== undefined ? { junit } : {}),
    });
  } catch (error) {
    if (error instanceof ServerTestUsageError) throw new UsageError(error.message);
    throw error;
  }
}

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  diff: runDiff,
  generate: runGenerate,
  workspace: runWorkspaceCommand,
  verify: runVerify,
  mock: runMock,
  test: runTest,
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
    if (error instanceof ForeignFilesError) {
      process.stderr.write(`codegen: ${error.message}\n`);
      return EXIT.failed;
    }
    if (error instanceof SpecLoadError) {
      process.stderr.write(`codegen: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}
