/**
 * What a scaffold folder holds for one API, decided in one place: the group (file) of each
 * operation, the identifier its handler is exported as, and the module specifiers the files
 * import. Pure: no file system, no ts-morph.
 */
import type { ApiIR, OperationIR } from '../ir/types.js';
import { jsDoc } from '../emit/server/comment.js';
import { propertyKey, toIdentifier } from '../emit/shared/names.js';
import { SERVER_RUNTIME_IMPORT } from '../emit/server/emit-server.js';
import { apiTitle, oneLine } from '../emit/shared/titles.js';
import { pagingHint } from './paging-hint.js';

/** How operations are grouped into files: by their first tag, or by the first segment of their path. */
export type GroupBy = 'tag' | 'path';

export interface PlannedOperation {
  operationId: string;
  /** The operation's name (`OperationIR.name`): its key in `Handlers`. */
  name: string;
  /** Export name of the handler (the name, unless a name of the folder's own holds it). */
  identifier: string;
  /** The name as a key of `Handlers`, quoted: `'GetAccounts'`. */
  key: string;
  /** The key as written in an object literal (bare when possible). */
  propertyKey: string;
  method: string;
  path: string;
  group: string;
  /** JSDoc above the stub, ending in a newline. */
  doc: string;
  /** The 501 message, as a quoted string literal. */
  notImplemented: string;
}

export interface PlannedGroup {
  name: string;
  /** File name inside the folder, e.g. `accounts.ts`. */
  file: string;
  /** Namespace `index.ts` imports the file as. */
  namespace: string;
  /** `./accounts.js`, quoted. */
  specifier: string;
  operations: PlannedOperation[];
}

export interface ScaffoldPlan {
  title: string;
  version: string;
  /** Module specifier of the generated server stubs, as given. */
  server: string;
  /** Quoted module specifiers. */
  serverSpecifier: string;
  runtimeSpecifier: string;
  groups: PlannedGroup[];
  /** Operations exported under another identifier than their name: `index.ts` maps them by key. */
  aliases: Array<{ key: string; namespace: string; identifier: string }>;
}

/** Names `index.ts` and the group files use for themselves. */
const TAKEN = ['handlers', 'router', 'createRouter', 'Handlers', 'ApiError', 'ApiRouter', 'RouterOptions'];

/** A single-quoted TypeScript string literal. */
export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\r/g, '\\r').replace(/\n/g, '\\n')}'`;
}

/** `Bank Data Sharing Consent` → `bank-data-sharing-consent`. */
export function fileStem(name: string): string {
  const stem = name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return stem === '' ? 'default' : stem;
}

/** `bank-data-sharing-consent` → `bankDataSharingConsent`. */
function camel(stem: string): string {
  const id = stem.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
  return /^[0-9]/.test(id) ? `_${id}` : id;
}

export function groupOf(op: OperationIR, groupBy: GroupBy): string {
  // On one line: the name heads its file in a `//` comment, where a line break would end it.
  if (groupBy === 'tag' && op.tags[0] !== undefined && oneLine(op.tags[0]) !== '') return oneLine(op.tags[0]);
  const segment = op.path.split('/').find((s) => s !== '' && !s.startsWith('{'));
  return segment ?? 'default';
}

/** Stands for the lines of code in the comment while jsDoc wraps the prose around it (one word: never wrapped). */
const CODE_SLOT = '@@code@@';

function stubDoc(op: OperationIR, api: ApiIR): string {
  const summary = op.summary?.trim().split(/\r?\n/)[0];
  const paging = pagingHint(op, api);
  const doc = jsDoc(
    [
      `${op.method.toUpperCase()} ${op.path}${summary ? ` — ${summary}` : ''}`,
      paging?.text,
      paging ? CODE_SLOT : undefined,
      op.deprecated ? '@deprecated The spec marks this operation as deprecated.' : undefined,
    ],
    '',
  );
  if (!paging) return doc;
  return doc.replace(` * ${CODE_SLOT}`, paging.code.map((line) => ` *   ${line}`.replace(/\*\//g, '*\\/')).join('\n'));
}

/** Handler identifiers for every operation: its name, unless the folder's own names hold it; unique across the API. */
export function handlerIdentifiers(api: ApiIR): Map<string, string> {
  const taken = new Set(TAKEN);
  const out = new Map<string, string>();
  // Names that are identifiers first, so a converted name never takes a real one's.
  const ordered = [...api.operations].sort((a, b) => Number(toIdentifier(a.name) !== a.name) - Number(toIdentifier(b.name) !== b.name));
  for (const op of ordered) {
    const base = toIdentifier(op.name);
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
    taken.add(candidate);
    out.set(op.operationId, candidate);
  }
  return out;
}

export function planOperation(op: OperationIR, identifier: string, group: string, api: ApiIR): PlannedOperation {
  return {
    operationId: op.operationId,
    name: op.name,
    identifier,
    key: quote(op.name),
    propertyKey: propertyKey(op.name),
    method: op.method,
    path: op.path,
    group,
    doc: stubDoc(op, api),
    notImplemented: quote(`${op.operationId} is not implemented yet`),
  };
}

export interface PlanOptions {
  api: ApiIR;
  /** Module specifier of the generated server stubs of this version (exports `Handlers`, `createRouter`). */
  server: string;
  groupBy: GroupBy;
}

/** Groups in the order their first operation appears in the spec; files and namespaces unique. */
export function planScaffold({ api, server, groupBy }: PlanOptions): ScaffoldPlan {
  const identifiers = handlerIdentifiers(api);
  const byName = new Map<string, PlannedGroup>();
  const files = new Set(['index.ts']);
  const namespaces = new Set(TAKEN);
  for (const op of api.operations) {
    const name = groupOf(op, groupBy);
    let group = byName.get(name);
    if (!group) {
      const stem = fileStem(name);
      let file = `${stem}.ts`;
      for (let n = 2; files.has(file); n++) file = `${stem}-${n}.ts`;
      files.add(file);
      let namespace = toIdentifier(camel(fileStem(file.slice(0, -3))));
      for (let n = 2; namespaces.has(namespace); n++) namespace = `${toIdentifier(camel(stem))}${n}`;
      namespaces.add(namespace);
      group = { name, file, namespace, specifier: quote(`./${file.slice(0, -3)}.js`), operations: [] };
      byName.set(name, group);
    }
    group.operations.push(planOperation(op, identifiers.get(op.operationId)!, name, api));
  }
  const groups = [...byName.values()];
  const aliases = groups.flatMap((g) =>
    g.operations.filter((o) => o.identifier !== o.name).map((o) => ({ key: o.propertyKey, namespace: g.namespace, identifier: o.identifier })),
  );
  return {
    title: apiTitle(api),
    version: api.version,
    server,
    serverSpecifier: quote(server),
    runtimeSpecifier: quote(SERVER_RUNTIME_IMPORT),
    groups,
    aliases,
  };
}
