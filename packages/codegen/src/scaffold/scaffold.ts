/**
 * `codegen scaffold`: implementation files the team owns. On an empty folder it writes them
 * from handlebars templates; on a folder it scaffolded before (it has `scaffold.json`) it
 * updates them in place for a new spec version, reading the code with ts-morph and only
 * inserting text (stubs, imports, comments) or replacing the version in an import
 * specifier. Nothing the team wrote is overwritten or removed.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { diffApis, type ApiDiff } from '../diff/diff-apis.js';
import { displaySource } from '../emit/shared/header.js';
import { apiVersion } from '../emit/shared/titles.js';
import { buildIR } from '../ir/build-ir.js';
import type { ApiIR, Diagnostic, OperationIR } from '../ir/types.js';
import { loadSpec } from '../load/load-spec.js';
import { MANIFEST_FILE, parseManifest, printManifest, type Manifest } from './manifest.js';
import { groupOf, planScaffold, quote, type GroupBy, type PlannedGroup, type PlannedOperation, type ScaffoldPlan } from './plan.js';
import { lineOf, lineStart, readFileModel, readIndexModel, type FileModel } from './source-model.js';
import { loadTemplates, type TemplateSet } from './templates.js';
import { causesOf, typeCheckFolder, type TypeProblem } from './type-check.js';

type TsMorph = typeof import('ts-morph');

export interface ScaffoldOptions {
  /** The spec file. */
  spec: string;
  /** The folder to scaffold into or update. */
  out: string;
  /** Module specifier of the generated server stubs of this version; default: the folder's own (update). */
  server?: string;
  /** Default `tag`; an update keeps the folder's own. */
  groupBy?: GroupBy;
  /** The team's templates folder (files named like the shipped ones replace them). */
  templates?: string;
  /** Write nothing; report what would change. */
  check: boolean;
  /** Type-check the folder after an update (default) or after creating it. */
  typeCheck?: boolean;
  /** The older spec to diff against (default: the one `scaffold.json` names). */
  from?: string;
}

export type ActionKind = 'create' | 'stub' | 'import' | 'marked' | 'index' | 'manifest';

export interface ScaffoldAction {
  kind: ActionKind;
  file: string;
  line?: number;
  detail: string;
}

export interface ScaffoldReport {
  mode: 'create' | 'update';
  /** The version before (update) and after. */
  from?: string;
  to: string;
  title: string;
  operations: number;
  actions: ScaffoldAction[];
  /** Files whose bytes change (or are created), paths inside the folder. */
  changed: string[];
  /** Handlers of operations the spec no longer has (marked, never deleted). */
  removed: Array<{ operationId: string; file: string; line: number }>;
  /** Things the team must do by hand (their own files, an `index.ts` without `handlers`). */
  notes: string[];
  diagnostics: Diagnostic[];
  diff?: ApiDiff;
  /** Undefined when the type-check did not run. */
  typeProblems?: TypeProblem[];
}

export class ScaffoldError extends Error {}

const toPosix = (p: string) => p.split(path.sep).join('/');

/** Every `.ts` file of the folder (not `.d.ts`, not under `node_modules` or a dot folder), sorted. */
async function listTsFiles(dir: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  let entries;
  try {
    entries = await readdir(path.join(dir, prefix), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      out.push(...(await listTsFiles(dir, rel)));
    } else if (entry.isFile() && /\.(ts|mts|cts|tsx)$/.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function loadApi(spec: string): Promise<ApiIR> {
  const loaded = await loadSpec(spec);
  return buildIR(loaded).api;
}

interface Edit {
  pos: number;
  end: number;
  text: string;
}

function applyEdits(text: string, edits: Edit[]): string {
  const ordered = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.pos - b.pos || a.i - b.i);
  let out = '';
  let at = 0;
  for (const edit of ordered) {
    out += text.slice(at, edit.pos) + edit.text;
    at = edit.end;
  }
  return out + text.slice(at);
}

/** Renders a group file; the group template sees the plan and the group's fields. */
function renderGroup(templates: TemplateSet, plan: ScaffoldPlan, group: PlannedGroup): string {
  return templates.group({ ...plan, ...group });
}

async function loadTsMorph(): Promise<TsMorph> {
  return import('ts-morph');
}

/**
 * Checks that the stubs a (team) template renders are found the way an update looks for
 * handlers, `export const X: Handlers['Op']`; otherwise an update could not see them.
 */
function checkRendered(tsMorph: TsMorph, files: Map<string, string>, plan: ScaffoldPlan, templates: TemplateSet): void {
  const project = new tsMorph.Project({ useInMemoryFileSystem: true });
  for (const group of plan.groups) {
    const source = project.createSourceFile(group.file, files.get(group.file) ?? '');
    const found = new Set(readFileModel(tsMorph, source, group.file).handlers.map((h) => h.operationId));
    const missing = group.operations.find((o) => !found.has(o.name));
    if (missing) {
      throw new ScaffoldError(
        `${templates.sources['group.ts.hbs']}: the rendered ${group.file} has no "export const ${missing.identifier}: Handlers[${missing.key}]" ` +
          '(with Handlers imported by that name): an update could not find the handlers it writes',
      );
    }
  }
}

/**
 * Every file of a new scaffold, by path inside the folder: one per group, `index.ts`,
 * `README.md` and `scaffold.json` (which names the spec relative to `dir`).
 */
export function renderScaffold(input: { plan: ScaffoldPlan; templates: TemplateSet; spec: string; dir: string; groupBy: GroupBy }): Map<string, string> {
  const { plan, templates } = input;
  const files = new Map<string, string>();
  for (const group of plan.groups) files.set(group.file, renderGroup(templates, plan, group));
  files.set('index.ts', templates.index(plan));
  files.set('README.md', templates.readme({ ...plan, spec: displaySource(input.spec) }));
  const manifest: Manifest = {
    spec: toPosix(path.relative(input.dir, path.resolve(input.spec))),
    title: plan.title,
    version: plan.version,
    server: plan.server,
    groupBy: input.groupBy,
    files: [...files.keys()].filter((f) => f.endsWith('.ts')),
  };
  files.set(MANIFEST_FILE, printManifest(manifest));
  return files;
}

async function create(options: ScaffoldOptions, api: ApiIR, dir: string): Promise<ScaffoldReport> {
  if (options.server === undefined) throw new ScaffoldError(`${options.out}: a new scaffold needs the module of the generated server stubs (--server)`);
  const groupBy = options.groupBy ?? 'tag';
  const plan = planScaffold({ api, server: options.server, groupBy });
  const templates = await loadTemplates(options.templates);
  const files = renderScaffold({ plan, templates, spec: options.spec, dir, groupBy });
  let tsMorph: TsMorph | undefined;
  if (options.templates !== undefined) {
    tsMorph = await loadTsMorph();
    checkRendered(tsMorph, files, plan, templates);
  }

  const report: ScaffoldReport = { mode: 'create', to: api.version, title: plan.title, operations: api.operations.length, actions: [], changed: [], removed: [], notes: [], diagnostics: api.diagnostics };
  const conflicts: string[] = [];
  for (const [file, contents] of files) {
    const current = await readIfExists(path.join(dir, file));
    if (current === contents) continue;
    if (current !== undefined) conflicts.push(file);
    report.changed.push(file);
    report.actions.push({ kind: 'create', file, detail: describeCreated(file, plan) });
  }
  if (conflicts.length > 0) {
    throw new ScaffoldError(
      `${options.out}: ${conflicts.join(', ')} already exist${conflicts.length === 1 ? 's' : ''} and ${MANIFEST_FILE} does not: ` +
        'the folder was not scaffolded by codegen scaffold, and nothing in it is overwritten. Choose an empty folder.',
    );
  }
  if (!options.check) {
    await mkdir(dir, { recursive: true });
    for (const file of report.changed) await writeFile(path.join(dir, file), files.get(file)!);
  }
  if (options.typeCheck === true && !options.check) {
    tsMorph ??= await loadTsMorph();
    const tsFiles = new Map([...files].filter(([f]) => f.endsWith('.ts')));
    report.typeProblems = typeCheckFolder({ tsMorph, dir, files: tsFiles, diff: undefined, apis: [api] });
  }
  return report;
}

function describeCreated(file: string, plan: ScaffoldPlan): string {
  const group = plan.groups.find((g) => g.file === file);
  if (group) return `${group.name}: ${group.operations.map((o) => o.identifier).join(', ')}`;
  if (file === 'index.ts') return 'handlers and router(options)';
  if (file === MANIFEST_FILE) return `scaffolded from ${plan.title} ${plan.version}`;
  return 'how to fill in and bump';
}

/** Specifier pairs an update rewrites: the server stubs, and the same version of the sibling packages. */
function specifierMoves(from: string, to: string): Map<string, string> {
  const moves = new Map<string, string>();
  if (from === to) return moves;
  moves.set(from, to);
  const pattern = /^@bank-data-sharing\/server-stubs\/(.+)$/;
  const a = pattern.exec(from);
  const b = pattern.exec(to);
  if (a && b) for (const pkg of ['validators', 'client']) moves.set(`@bank-data-sharing/${pkg}/${a[1]}`, `@bank-data-sharing/${pkg}/${b[1]}`);
  return moves;
}

const MARKER = (operationId: string) => `codegen scaffold: ${JSON.stringify(operationId)} is not an operation of`;

/** Position after the last import declaration, or the start of the first statement's line. */
function importInsertionPoint(model: FileModel): { pos: number; prefix: string; suffix: string } {
  const last = model.imports.at(-1);
  if (last) return { pos: last.declaration.getEnd(), prefix: '\n', suffix: '' };
  const first = model.source.getStatements()[0];
  return { pos: first ? lineStart(model.text, first.getStart()) : model.text.length, prefix: '', suffix: '\n' };
}

interface UpdateContext {
  tsMorph: TsMorph;
  dir: string;
  manifest: Manifest;
  api: ApiIR;
  plan: ScaffoldPlan;
  templates: TemplateSet;
  server: string;
  models: Map<string, FileModel>;
  edits: Map<string, Edit[]>;
  created: Map<string, string>;
  report: ScaffoldReport;
  /** Removed operation → the operation of the new spec at its method and path (a rename). */
  renamed: Map<string, OperationIR>;
  /** Stub actions whose line is known once the edits are applied. */
  stubLines: Array<{ action: ScaffoldAction; anchor: string }>;
}

function addEdit(ctx: UpdateContext, file: string, edit: Edit): void {
  const list = ctx.edits.get(file) ?? [];
  list.push(edit);
  ctx.edits.set(file, list);
}

function moveImports(ctx: UpdateContext): void {
  const moves = specifierMoves(ctx.manifest.server, ctx.server);
  if (moves.size === 0) return;
  const managed = new Set(ctx.manifest.files);
  for (const model of ctx.models.values()) {
    const declarations = [...model.source.getImportDeclarations(), ...model.source.getExportDeclarations()];
    for (const declaration of declarations) {
      const literal = declaration.getModuleSpecifier();
      if (!literal) continue;
      const value = literal.getLiteralValue();
      const target = moves.get(value);
      if (target === undefined) continue;
      const line = lineOf(model.text, literal.getStart());
      if (!managed.has(model.file)) {
        ctx.report.notes.push(`${model.file}:${line} imports ${value}; the new version is ${target} (your file: not changed)`);
        continue;
      }
      addEdit(ctx, model.file, { pos: literal.getStart() + 1, end: literal.getEnd() - 1, text: target });
      ctx.report.actions.push({ kind: 'import', file: model.file, line, detail: `${value} → ${target}` });
    }
  }
}

function markRemoved(ctx: UpdateContext): void {
  const current = new Set(ctx.api.operations.map((o) => o.name));
  for (const model of ctx.models.values()) {
    for (const handler of model.handlers) {
      if (current.has(handler.operationId)) continue;
      const start = handler.statement.getStart(true);
      const line = lineOf(model.text, start);
      ctx.report.removed.push({ operationId: handler.operationId, file: model.file, line });
      const leading = model.text.slice(handler.statement.getFullStart(), start);
      if (leading.includes(MARKER(handler.operationId))) continue;
      const at = lineStart(model.text, start);
      const indent = /^[ \t]*/.exec(model.text.slice(at))![0];
      const successor = ctx.renamed.get(handler.operationId);
      const comment =
        `${indent}// ${MARKER(handler.operationId)} ${ctx.plan.title} ${apiVersion(ctx.api)}: nothing serves it.\n` +
        (successor
          ? `${indent}// ${successor.method.toUpperCase()} ${successor.path} is now ${JSON.stringify(successor.name)}: move its code there, then delete it.\n`
          : `${indent}// Move its code to the operation that replaced it (see codegen diff), then delete it.\n`);
      addEdit(ctx, model.file, { pos: at, end: at, text: comment });
      const renamedTo = successor ? `; ${successor.method.toUpperCase()} ${successor.path} is now ${successor.name}` : '';
      ctx.report.actions.push({ kind: 'marked', file: model.file, line, detail: `${handler.operationId}: not in ${ctx.api.version} (kept, marked${renamedTo})` });
    }
  }
}

/** The file a new operation's stub goes to: where most of its group's handlers are, else the group's own file. */
function targetFile(ctx: UpdateContext, op: OperationIR, groupFile: string): string {
  const group = groupOf(op, ctx.manifest.groupBy);
  const groups = new Map(ctx.api.operations.map((o) => [o.name, groupOf(o, ctx.manifest.groupBy)]));
  let best: string | undefined;
  let bestCount = 0;
  for (const model of ctx.models.values()) {
    const count = model.handlers.filter((h) => groups.get(h.operationId) === group).length;
    if (count > bestCount) {
      best = model.file;
      bestCount = count;
    }
  }
  return best ?? groupFile;
}

function stubNewOperations(ctx: UpdateContext): void {
  const present = new Set<string>();
  for (const model of ctx.models.values()) for (const h of model.handlers) present.add(h.operationId);
  const indexModel = ctx.models.get('index.ts');
  const index = indexModel ? readIndexModel(ctx.tsMorph, indexModel) : undefined;
  for (const key of index?.keys ?? []) present.add(key);

  const planned = new Map<string, { group: PlannedGroup; op: PlannedOperation }>();
  for (const group of ctx.plan.groups) for (const op of group.operations) planned.set(op.name, { group, op });

  const appended = new Map<string, PlannedOperation[]>();
  const newFiles = new Map<string, { group: PlannedGroup; ops: PlannedOperation[] }>();
  for (const op of ctx.api.operations) {
    if (present.has(op.name)) continue;
    const { group, op: stub } = planned.get(op.name)!;
    const file = targetFile(ctx, op, group.file);
    if (ctx.models.has(file)) appended.set(file, [...(appended.get(file) ?? []), stub]);
    else {
      const entry = newFiles.get(file) ?? { group, ops: [] };
      entry.ops.push(stub);
      newFiles.set(file, entry);
    }
  }

  // Stubs at the end of existing files, with the imports they need when the file lacks them.
  const aliasesFor: Array<{ file: string; op: PlannedOperation }> = [];
  for (const [file, stubs] of appended) {
    const model = ctx.models.get(file)!;
    const bound = new Set(model.imports.flatMap((i) => i.bindings.map((b) => b.local)));
    const needed: string[] = [];
    if (!bound.has('ApiError')) needed.push(`import { ApiError } from ${ctx.plan.runtimeSpecifier};`);
    if (!bound.has('Handlers')) needed.push(`import type { Handlers } from ${quote(ctx.server)};`);
    if (needed.length > 0) {
      const point = importInsertionPoint(model);
      addEdit(ctx, file, { pos: point.pos, end: point.pos, text: `${point.prefix}${needed.join('\n')}${point.suffix}` });
    }
    const separator = model.text === '' || model.text.endsWith('\n') ? '' : '\n';
    const text = stubs.map((s) => `\n${ctx.templates.operation(s)}`).join('');
    addEdit(ctx, file, { pos: model.text.length, end: model.text.length, text: `${separator}${text}` });
    for (const stub of stubs) {
      const action: ScaffoldAction = { kind: 'stub', file, detail: `${stub.operationId} (answers 501 until written)` };
      ctx.report.actions.push(action);
      ctx.stubLines.push({ action, anchor: `export const ${stub.identifier}` });
      if (stub.identifier !== stub.name) aliasesFor.push({ file, op: stub });
    }
  }

  // New files for groups the folder does not have yet, wired into index.ts.
  const indexSpreads: string[] = [];
  const indexImports: string[] = [];
  const takenNames = new Set(indexModel?.imports.flatMap((i) => i.bindings.map((b) => b.local).concat(i.namespace ?? [])) ?? []);
  for (const [file, { group, ops }] of newFiles) {
    let namespace = group.namespace;
    for (let n = 2; takenNames.has(namespace); n++) namespace = `${group.namespace}${n}`;
    takenNames.add(namespace);
    const contents = renderGroup(ctx.templates, ctx.plan, { ...group, file, namespace, operations: ops });
    ctx.created.set(file, contents);
    ctx.report.actions.push({ kind: 'create', file, detail: `${group.name}: ${ops.map((o) => o.identifier).join(', ')}` });
    const specifier = quote(`./${file.replace(/\.[mc]?tsx?$/, '')}.js`);
    indexImports.push(`import * as ${namespace} from ${specifier};`);
    indexSpreads.push(`...${namespace},`);
    for (const op of ops) if (op.identifier !== op.name) indexSpreads.push(`${op.propertyKey}: ${namespace}.${op.identifier},`);
  }
  for (const { file, op } of aliasesFor) {
    const namespace = indexModel?.imports.find((i) => i.namespace !== undefined && sameModule(i.specifier, file))?.namespace;
    if (namespace === undefined) {
      ctx.report.notes.push(`index.ts: add ${op.propertyKey}: <${op.identifier} from ${file}> to handlers (no namespace import of ${file} found)`);
      continue;
    }
    indexSpreads.push(`${op.propertyKey}: ${namespace}.${op.identifier},`);
  }
  if (indexSpreads.length === 0) return;
  if (!indexModel || !index) {
    ctx.report.notes.push(`index.ts: no "handlers" object found; add by hand: ${[...indexImports, ...indexSpreads].join(' ')}`);
    return;
  }
  if (indexImports.length > 0) {
    const point = importInsertionPoint(indexModel);
    addEdit(ctx, 'index.ts', { pos: point.pos, end: point.pos, text: `${point.prefix}${indexImports.join('\n')}${point.suffix}` });
  }
  const properties = index.object.getProperties();
  const last = properties.at(-1);
  const text = indexModel.text;
  if (last) {
    const at = lineStart(text, last.getStart());
    const indent = /^[ \t]*/.exec(text.slice(at))![0];
    let pos = last.getEnd();
    const comma = text[pos] === ',' ? '' : ',';
    if (comma === '') pos++;
    addEdit(ctx, 'index.ts', { pos, end: pos, text: `${comma}${indexSpreads.map((s) => `\n${indent}${s}`).join('')}` });
  } else {
    const open = index.object.getStart() + 1;
    const closeOnSameLine = !text.slice(open, index.object.getEnd()).includes('\n');
    addEdit(ctx, 'index.ts', { pos: open, end: open, text: `${indexSpreads.map((s) => `\n  ${s}`).join('')}${closeOnSameLine ? '\n' : ''}` });
  }
  ctx.report.actions.push({ kind: 'index', file: 'index.ts', line: lineOf(text, index.object.getStart()), detail: `handlers += ${indexSpreads.join(' ')}` });
}

function sameModule(specifier: string, file: string): boolean {
  const stem = file.replace(/\.[mc]?tsx?$/, '');
  return specifier === `./${stem}.js` || specifier === `./${stem}` || specifier === `./${stem}.ts`;
}

async function update(options: ScaffoldOptions, api: ApiIR, dir: string, manifest: Manifest): Promise<ScaffoldReport> {
  if (options.groupBy !== undefined && options.groupBy !== manifest.groupBy) {
    throw new ScaffoldError(`${path.join(options.out, MANIFEST_FILE)}: the folder groups by ${manifest.groupBy}; --group-by ${options.groupBy} applies to a new scaffold only`);
  }
  const server = options.server ?? manifest.server;
  const plan = planScaffold({ api, server, groupBy: manifest.groupBy });
  const templates = await loadTemplates(options.templates);
  const tsMorph = await loadTsMorph();
  const project = new tsMorph.Project({ useInMemoryFileSystem: true });
  const models = new Map<string, FileModel>();
  for (const file of await listTsFiles(dir)) {
    const text = await readFile(path.join(dir, file), 'utf8');
    models.set(file, readFileModel(tsMorph, project.createSourceFile(file, text), file));
  }
  const report: ScaffoldReport = {
    mode: 'update',
    from: manifest.version,
    to: api.version,
    title: plan.title,
    operations: api.operations.length,
    actions: [],
    changed: [],
    removed: [],
    notes: [],
    diagnostics: api.diagnostics,
  };
  // Handlers of operations the new spec lacks: the older spec tells whether one was renamed.
  const current = new Set(api.operations.map((o) => o.name));
  const gone = [...models.values()].flatMap((m) => m.handlers.filter((h) => !current.has(h.operationId)).map((h) => h.operationId));
  const fromSpec = options.from ?? path.resolve(dir, manifest.spec);
  let previous: ApiIR | undefined;
  const renamed = new Map<string, OperationIR>();
  if (gone.length > 0 && existsSync(fromSpec)) {
    previous = await loadApi(fromSpec);
    for (const id of gone) {
      // By name, or by operationId: a folder scaffolded before operations had names keyed its handlers so.
      const old = previous.operations.find((o) => o.name === id) ?? previous.operations.find((o) => o.operationId === id);
      const successor = old && api.operations.find((o) => o.method === old.method && o.path === old.path);
      if (successor) renamed.set(id, successor);
    }
  }
  const ctx: UpdateContext = { tsMorph, dir, manifest, api, plan, templates, server, models, edits: new Map(), created: new Map(), report, stubLines: [], renamed };
  moveImports(ctx);
  stubNewOperations(ctx);
  markRemoved(ctx);

  const next = new Map<string, string>();
  for (const [file, model] of models) next.set(file, applyEdits(model.text, ctx.edits.get(file) ?? []));
  for (const [file, contents] of ctx.created) next.set(file, contents);
  for (const { action, anchor } of ctx.stubLines) {
    const text = next.get(action.file) ?? '';
    const at = text.lastIndexOf(anchor);
    if (at >= 0) action.line = lineOf(text, at);
  }
  const nextManifest: Manifest = {
    spec: toPosix(path.relative(dir, path.resolve(options.spec))),
    title: plan.title,
    version: api.version,
    server,
    groupBy: manifest.groupBy,
    files: [...new Set([...manifest.files, ...ctx.created.keys()])],
  };
  const manifestText = printManifest(nextManifest);
  const writes = new Map<string, string>();
  for (const [file, contents] of next) if (contents !== (models.get(file)?.text ?? undefined)) writes.set(file, contents);
  const currentManifest = await readIfExists(path.join(dir, MANIFEST_FILE));
  if (currentManifest !== manifestText) {
    writes.set(MANIFEST_FILE, manifestText);
    report.actions.push({ kind: 'manifest', file: MANIFEST_FILE, detail: `${manifest.version} → ${api.version}` });
  }
  report.changed = [...writes.keys()].sort();

  if (!options.check) {
    for (const [file, contents] of writes) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), contents);
    }
  }
  if (options.typeCheck !== false && !options.check) {
    const problems = typeCheckFolder({ tsMorph, dir, files: next, diff: undefined, apis: [api] });
    // The older spec is read only when there are errors to explain: a clean update does not pay for it.
    if (problems.length > 0) {
      if (existsSync(fromSpec)) {
        previous ??= await loadApi(fromSpec);
        report.diff = diffApis(previous, api);
        for (const problem of problems) problem.causes = causesOf(problem.message, problem.operationId, report.diff, [api, previous!]);
      } else {
        report.notes.push(`${displaySource(fromSpec)}: the spec the folder was scaffolded from is not there, so errors cannot be matched to changes (give the older spec with --from)`);
      }
    }
    report.typeProblems = problems;
  }
  return report;
}

/** Scaffolds `options.out`, or updates it when it holds a `scaffold.json`. */
export async function scaffold(options: ScaffoldOptions): Promise<ScaffoldReport> {
  const api = await loadApi(options.spec);
  const errors = api.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    return { mode: 'create', to: api.version, title: api.title, operations: api.operations.length, actions: [], changed: [], removed: [], notes: [], diagnostics: api.diagnostics };
  }
  const dir = path.resolve(options.out);
  const manifestText = await readIfExists(path.join(dir, MANIFEST_FILE));
  if (manifestText === undefined) return create(options, api, dir);
  const manifest = parseManifest(manifestText);
  if (typeof manifest === 'string') throw new ScaffoldError(`${path.join(options.out, MANIFEST_FILE)}: ${manifest}`);
  return update(options, api, dir, manifest);
}
