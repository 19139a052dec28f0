/**
 * The `codegen scaffold` command: arguments, the report, exit codes. Loaded by the CLI only
 * when the command runs, so that ts-morph and the scaffold code cost `generate` nothing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SpecLoadError } from '../load/parse-document.js';
import { loadSpec } from '../load/load-spec.js';
import { MANIFEST_FILE } from './manifest.js';
import { CONFIG_FILE, STUBS_PACKAGE, configCandidates, findInWorkspace, installedStubs, matchInstalled, missingServerMessage } from './server-module.js';
import type { ApiChange } from '../diff/diff-apis.js';
import { ScaffoldError, scaffold, type ScaffoldReport } from './scaffold.js';
import { TemplateError } from './templates.js';
import type { GroupBy } from './plan.js';

export const SCAFFOLD_HELP = `Usage: codegen scaffold --spec <file|version> --out <dir> [options]

Writes the implementation files of an API that your team owns: one file per tag (one
exported handler per operation, typed from the generated Handlers of that spec version,
answering 501 Not Implemented until written), an index.ts that assembles the handlers and
mounts createRouter, a README, and scaffold.json (what the folder was made from).

Run it again over the same folder with a newer spec to update it in place: stubs for new
operations are added in the file of their group, imports move to the new version, handlers of
operations the spec no longer has are marked with a comment (never deleted). Nothing you
wrote is overwritten or removed. The folder is then type-checked, and each error is listed
beside the change of the spec (as codegen diff reports it) that caused it.

Options:
  --spec <file|version>  OpenAPI file, or a version of codegen.config.json such as v2.2 (required)
  --out <dir>            The folder to create or update (required)
  --server <module>      Module exporting the generated Handlers and createRouter of this spec
                         (default for a spec codegen.config.json lists, or one whose title and
                         version the installed server stubs carry:
                         @bank-data-sharing/server-stubs/<api>; on an update: the folder's)
  --templates <dir>      Your own templates: files named like the shipped ones (group.ts.hbs,
                         operation.ts.hbs, index.ts.hbs, README.md.hbs) replace them
  --group-by <how>       tag (default) | path: one file per tag, or per first path segment
  --from <file|version>  The older spec an update is diffed against (default: the one
                         scaffold.json names)
  --check                Write nothing; print what would change and exit 1 if anything would
  --no-typecheck         Do not type-check after an update
  --typecheck            Type-check a new scaffold too
  --config <file>        Workspace config for version names (default: the nearest
                         codegen.config.json above this folder or above the spec file)
  --quiet                Print only problems
  -h, --help             Show this help

Examples:
  codegen scaffold --spec spec/v2.1/account-information.yaml --out src/handlers
  codegen scaffold --spec v2.2 --out src/handlers --check
  codegen scaffold --spec v2.2/lfi --out ../my-lfi/src/handlers
  codegen scaffold --spec ../toolkit/spec/v2.2/lfi-paging.yaml --out src/handlers
  codegen generate --spec petstore.yaml --out src/gen --target all
  codegen scaffold --spec petstore.yaml --out src/handlers --server ../gen/server/index.js

Exit codes: 0 done (or nothing to change), 1 the spec has errors, a file is in the way,
changes pending (--check) or type errors after an update, 2 wrong usage.`;

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

class UsageError extends Error {}

interface Resolved {
  file: string;
  /** The workspace subpath, when the spec is one of codegen.config.json. */
  subpath?: string;
}

/**
 * A spec given as a file or as a version name of a workspace config: `--config`, else the
 * nearest codegen.config.json above the current folder, then (for a file) above the file's
 * own folder, so a spec of a repository checked out elsewhere is known from any folder.
 */
async function resolveSpec(value: string, explicitConfig: string | undefined): Promise<Resolved & { configFiles: string[] }> {
  const dirs = [process.cwd(), ...(existsSync(value) ? [path.dirname(path.resolve(value))] : [])];
  const configFiles = explicitConfig !== undefined ? (existsSync(explicitConfig) ? [path.resolve(explicitConfig)] : []) : configCandidates(dirs);
  const { match, known } = await findInWorkspace(value, configFiles);
  if (match) return { file: match.file, subpath: match.subpath, configFiles };
  if (existsSync(value)) return { file: value, configFiles };
  if (known.length > 0) throw new UsageError(`"${value}" is neither a file nor a version (known: ${known.join(', ')})`);
  const where = explicitConfig !== undefined ? `${explicitConfig} does not exist` : `no ${CONFIG_FILE} was found in ${process.cwd()} or above`;
  throw new UsageError(`"${value}" is not a file, and not a version name either: ${where} (a version such as v2.2/lfi needs one; or give the spec's path)`);
}

/**
 * The server module of a new scaffold without `--server`: the installed server stubs of the
 * spec's title and version, or an error saying what was looked for and what to pass.
 */
async function serverOfNewScaffold(input: { spec: string; out: string; configFiles: string[] }): Promise<{ server: string; note: string }> {
  const loaded = await loadSpec(input.spec);
  const info = (loaded.document['info'] ?? {}) as { title?: unknown; version?: unknown };
  const title = String(info.title ?? '');
  const version = String(info.version ?? '');
  const lookedIn = [process.cwd(), path.dirname(path.resolve(input.spec))];
  const stubs = installedStubs([path.resolve(input.out), process.cwd()]);
  const subpath = matchInstalled(stubs, title, version);
  if (subpath === undefined) throw new ScaffoldError(missingServerMessage({ ...input, title, version, lookedIn, stubs }));
  const server = `${STUBS_PACKAGE}/${subpath}`;
  return { server, note: `${input.spec} is ${title} ${version}: the handlers are typed from the installed ${server}` };
}

function where(change: ApiChange): string {
  return change.path ? `${change.location} › ${change.path}` : change.location;
}

function breaks(change: ApiChange): string {
  const { client, server } = change.breaking;
  return client && server ? 'breaks clients and servers' : server ? 'breaks servers' : client ? 'breaks clients' : 'compatible';
}

function printReport(report: ScaffoldReport, out: string, check: boolean, quiet: boolean): void {
  const w = (s: string) => process.stdout.write(`${s}\n`);
  const verb = check ? 'would' : report.mode === 'create' ? 'scaffolded' : 'updated';
  if (!quiet || check) {
    if (report.changed.length === 0) w(`${out}: up to date with ${report.title} ${report.to} (${report.operations} operations); nothing to change`);
    else if (report.mode === 'create') w(`${out}: ${check ? 'would scaffold' : 'scaffolded'} ${report.title} ${report.to}: ${report.operations} operations, ${report.changed.length} files`);
    else w(`${out}: ${verb === 'would' ? 'would update' : 'updated'} from ${report.from} to ${report.to}: ${report.changed.length} file(s) ${check ? 'would change' : 'changed'}`);
    for (const a of report.actions) w(`  ${a.kind.padEnd(8)} ${path.join(out, a.file)}${a.line ? `:${a.line}` : ''}  ${a.detail}`);
  }
  if (report.removed.length > 0) {
    process.stderr.write(`${report.removed.length} handler(s) of operations ${report.title} ${report.to} no longer has (kept; move or delete them):\n`);
    for (const r of report.removed) process.stderr.write(`  ${path.join(out, r.file)}:${r.line}  ${r.operationId}\n`);
  }
  for (const note of report.notes) process.stderr.write(`note: ${note}\n`);
  if (report.typeProblems === undefined) return;
  if (report.typeProblems.length === 0) {
    if (!quiet) w(`type-check: clean`);
    return;
  }
  const fits = report.mode === 'update' ? ` where the code no longer fits ${report.title} ${report.to}` : '';
  process.stderr.write(`type-check: ${report.typeProblems.length} error(s)${fits}:\n`);
  for (const p of report.typeProblems) {
    // The deepest line of TypeScript's message chain names the member; the chain above it repeats the types.
    const lines = p.message.split('\n').map((l) => l.trim()).filter((l) => l !== '');
    process.stderr.write(`  ${path.join(out, p.file)}:${p.line}${p.operationId ? ` (${p.operationId})` : ''}: ${lines.at(-1) ?? ''}\n`);
    if (p.causes.length === 0 && report.diff) process.stderr.write('      caused by: no entry of codegen diff names it\n');
    for (const c of p.causes) process.stderr.write(`      caused by: ${where(c)}: ${c.description} (${breaks(c)})\n`);
  }
}

export async function runScaffold(argv: string[]): Promise<number> {
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        strict: true,
        allowPositionals: false,
        options: {
          spec: { type: 'string' },
          out: { type: 'string' },
          server: { type: 'string' },
          templates: { type: 'string' },
          'group-by': { type: 'string' },
          from: { type: 'string' },
          check: { type: 'boolean' },
          typecheck: { type: 'boolean' },
          'no-typecheck': { type: 'boolean' },
          config: { type: 'string' },
          quiet: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const v = parsed.values;
    if (v.help) {
      process.stdout.write(`${SCAFFOLD_HELP}\n`);
      return EXIT.ok;
    }
    if (v.spec === undefined) throw new UsageError('--spec is required');
    if (v.out === undefined) throw new UsageError('--out is required');
    if (v['group-by'] !== undefined && v['group-by'] !== 'tag' && v['group-by'] !== 'path') throw new UsageError(`--group-by must be tag or path (got "${v['group-by']}")`);
    if (v.typecheck && v['no-typecheck']) throw new UsageError('--typecheck and --no-typecheck do not go together');
    if (v.templates !== undefined && !existsSync(v.templates)) throw new UsageError(`--templates: ${v.templates} is not a folder`);
    const spec = await resolveSpec(v.spec, v.config);
    const from = v.from !== undefined ? (await resolveSpec(v.from, v.config)).file : undefined;
    let server = v.server ?? (spec.subpath !== undefined ? `${STUBS_PACKAGE}/${spec.subpath}` : undefined);
    const isNew = !existsSync(path.join(v.out, MANIFEST_FILE));
    if (server === undefined && isNew) {
      const found = await serverOfNewScaffold({ spec: spec.file, out: v.out, configFiles: spec.configFiles });
      server = found.server;
      if (v.quiet !== true) process.stderr.write(`note: ${found.note}\n`);
    }
    const check = v.check === true;
    const quiet = v.quiet === true;
    const report = await scaffold({
      spec: spec.file,
      out: v.out,
      check,
      ...(server !== undefined ? { server } : {}),
      ...(v.templates !== undefined ? { templates: v.templates } : {}),
      ...(v['group-by'] !== undefined ? { groupBy: v['group-by'] as GroupBy } : {}),
      ...(from !== undefined ? { from } : {}),
      ...(v.typecheck ? { typeCheck: true } : v['no-typecheck'] ? { typeCheck: false } : {}),
    });
    const errors = report.diagnostics.filter((d) => d.severity === 'error');
    for (const d of report.diagnostics) if (d.severity !== 'info') process.stderr.write(`${spec.file}: ${d.severity} [${d.code}] ${d.pointer}: ${d.message}\n`);
    if (errors.length > 0) {
      process.stderr.write(`${spec.file}: ${errors.length} error(s); nothing written.\n`);
      return EXIT.failed;
    }
    printReport(report, v.out, check, quiet);
    if (check && report.changed.length > 0) {
      process.stderr.write(`${v.out}: ${report.changed.length} file(s) would change. Run the command without --check to apply.\n`);
      return EXIT.failed;
    }
    return (report.typeProblems?.length ?? 0) > 0 ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`codegen: ${error.message}\nRun "codegen scaffold --help" for usage.\n`);
      return EXIT.usage;
    }
    if (error instanceof ScaffoldError || error instanceof TemplateError || error instanceof SpecLoadError) {
      process.stderr.write(`codegen scaffold: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
}
