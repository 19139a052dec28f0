/**
 * Type-checks a scaffold folder after an update and puts each error beside the entries of
 * `codegen diff` that most plausibly caused it: the changes that break servers in the
 * operation whose handler holds the error (its parameters, bodies, responses, and the
 * schemas they reference), narrowed to those whose field or schema the message names.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ApiChange, ApiDiff } from '../diff/diff-apis.js';
import { referencedNames } from '../ir/references.js';
import type { ApiIR, OperationIR, SchemaNode } from '../ir/types.js';
import { generatedCodeCompilerOptions } from '../verify/compiler-options.js';
import { readFileModel } from './source-model.js';

type TsMorph = typeof import('ts-morph');

export interface TypeProblem {
  /** Path inside the folder. */
  file: string;
  line: number;
  message: string;
  /** The operation whose handler holds the error, if any. */
  operationId?: string;
  /** The diff entries that caused it (empty when none can be named). */
  causes: ApiChange[];
}

/** The nearest `tsconfig.json` at or above `dir`. */
function findTsConfig(dir: string): string | undefined {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    const candidate = path.join(at, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (path.dirname(at) === at) return undefined;
  }
}

/** Component schemas an operation reads or answers, through references. */
function schemasOf(op: OperationIR, components: Map<string, SchemaNode>): Set<string> {
  const seen = new Set<string>();
  const queue: string[] = [];
  const roots = [
    ...op.parameters.map((p) => p.schema),
    ...(op.requestBody?.content.map((c) => c.schema) ?? []),
    ...op.responses.flatMap((r) => [...r.content.map((c) => c.schema), ...r.headers.map((h) => h.schema)]),
  ];
  for (const node of roots) if (node) queue.push(...referencedNames(node));
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const node = components.get(name);
    if (node) queue.push(...referencedNames(node));
  }
  return seen;
}

/**
 * The diff entries that concern one operation of the newer (or, when removed, older) API,
 * given by its handler key (its name); the diff names operations by operationId.
 */
function changesFor(handlerKey: string, diff: ApiDiff, apis: ApiIR[]): { changes: ApiChange[]; ids: Set<string> } {
  const schemas = new Set<string>();
  const ids = new Set([handlerKey]);
  for (const api of apis) {
    const op = api.operations.find((o) => o.name === handlerKey);
    if (op) ids.add(op.operationId);
    if (op) for (const name of schemasOf(op, new Map(api.schemas.map((s) => [s.name, s.schema])))) schemas.add(name);
  }
  const changes = diff.changes.filter((c) => {
    if ([...ids].some((id) => c.location === `operation ${id}` || c.location.startsWith(`operation ${id} `))) return true;
    const schema = /^schema (\S+)/.exec(c.location)?.[1];
    return schema !== undefined && schemas.has(schema);
  });
  return { changes, ids };
}

/** Words a change is about: its schema or operation, and each segment of its field path. */
function namesOf(change: ApiChange): string[] {
  const name = /^(?:schema|operation) (\S+)/.exec(change.location)?.[1];
  const segments = (change.path ?? '').split(/[ ›.[\]]+/).filter((s) => /^[A-Za-z_$][\w$-]*$/.test(s));
  return [...(name ? [name] : []), ...segments];
}

function mentions(message: string, word: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_$])${word.replace(/[$]/g, '\\$')}([^A-Za-z0-9_$]|$)`).test(message);
}

/** Picks the causes of one error among the changes of its operation (or of the whole diff). */
export function causesOf(message: string, operationId: string | undefined, diff: ApiDiff | undefined, apis: ApiIR[]): ApiChange[] {
  if (!diff) return [];
  const own = operationId !== undefined ? changesFor(operationId, diff, apis) : undefined;
  const candidates = own?.changes ?? diff.changes;
  const serverSide = candidates.filter((c) => c.breaking.server);
  // The most specific first: the field or schema the message names.
  const named = candidates.filter((c) => namesOf(c).slice(1).some((w) => mentions(message, w)));
  if (named.length > 0) return named;
  const byLocation = candidates.filter((c) => namesOf(c).slice(0, 1).some((w) => mentions(message, w)));
  if (byLocation.length > 0) return byLocation;
  if (own === undefined) return [];
  if (serverSide.length > 0) return serverSide;
  // A removed operation: the diff says so at the operation itself, by its operationId.
  return candidates.filter((c) => [...own.ids].some((id) => c.location === `operation ${id}`));
}

export interface TypeCheckInput {
  tsMorph: TsMorph;
  /** Absolute folder. */
  dir: string;
  /** Every TypeScript file of the folder (path inside it → contents after the update). */
  files: Map<string, string>;
  diff: ApiDiff | undefined;
  apis: ApiIR[];
}

/**
 * Type-checks the folder with the compiler options of the nearest `tsconfig.json` (or, without
 * one, the strict options generated code is checked with). Only errors inside the folder count.
 */
export function typeCheckFolder(input: TypeCheckInput): TypeProblem[] {
  const { Project, ts } = input.tsMorph;
  const tsConfig = findTsConfig(input.dir);
  const project = tsConfig
    ? new Project({ tsConfigFilePath: tsConfig, skipAddingFilesFromTsConfig: true, compilerOptions: { noEmit: true } })
    : new Project({ compilerOptions: generatedCodeCompilerOptions(ts) });
  for (const [file, text] of input.files) project.createSourceFile(path.join(input.dir, file), text, { overwrite: true });
  const problems: TypeProblem[] = [];
  for (const diagnostic of project.getPreEmitDiagnostics()) {
    const source = diagnostic.getSourceFile();
    if (!source) continue;
    const file = path.relative(input.dir, source.getFilePath()).split(path.sep).join('/');
    if (file.startsWith('..') || !input.files.has(file)) continue;
    const start = diagnostic.getStart() ?? 0;
    const text = diagnostic.getMessageText();
    const message = typeof text === 'string' ? text : ts.flattenDiagnosticMessageText(text.compilerObject, '\n');
    const model = readFileModel(input.tsMorph, source, file);
    const holder = model.handlers.find((h) => h.statement.getStart(true) <= start && start < h.statement.getEnd());
    const operationId = holder?.operationId;
    problems.push({
      file,
      line: diagnostic.getLineNumber() ?? 0,
      message,
      ...(operationId !== undefined ? { operationId } : {}),
      causes: causesOf(message, operationId, input.diff, input.apis),
    });
  }
  problems.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line));
  return problems;
}
