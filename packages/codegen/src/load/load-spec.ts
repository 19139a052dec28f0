import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from '../ir/types.js';
import { parseDocument, SpecLoadError } from './parse-document.js';
import { escapePointerToken, resolvePointer } from '../ir/json-pointer.js';
import { JsonSchemaScope } from '../ir/json-schema-table.js';
import { internalizeSelfReferences } from './self-references.js';
import { schemaDialectOf, SUPPORTED_OPENAPI, SUPPORTED_VERSIONS_TEXT } from '../ir/openapi-version.js';

export interface LoadedSpec {
  /** Path of the root file as the caller gave it. */
  source: string;
  /**
   * One self-contained OpenAPI document: every `$ref` is internal (`#/...`, or in 3.1 relative
   * to an `$id` of one of its own schemas).
   */
  document: Record<string, unknown>;
  diagnostics: Diagnostic[];
}

/**
 * The first `$ref` that names another file (to bundle) or a URL, with where it is written.
 * References the document resolves itself (through an `$id` or `$anchor` of one of its
 * schemas, or draft 4's `id` in 3.0) are not external.
 */
function externalRef(root: Record<string, unknown>, dialect: '3.0' | '3.1', skipUrls: boolean): { ref: string; pointer: string } | undefined {
  const scope = new JsonSchemaScope(root, dialect);
  const stack: Array<[unknown, string]> = [[root, '#']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push([item, `${pointer}/${i}`]));
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) {
        if (scope.resolve(child, pointer).pointer !== undefined) continue;
        if (skipUrls && isUrl(child)) continue;
        return { ref: child, pointer };
      }
      if (typeof child === 'object') stack.push([child, `${pointer}/${escapePointerToken(key)}`]);
    }
  }
  return undefined;
}

/** A file as messages show it: relative to the working folder when inside it. */
export function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), path.resolve(file));
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

type Redocly = typeof import('@redocly/openapi-core');
type ProblemLocation = Parameters<Redocly['getLineColLocation']>[0];

/** `file:line:column` of a problem Redocly reports, in the file where it is. */
function placeOf(redocly: Redocly, location: ProblemLocation): string {
  const file = shownPath(location.source.absoluteRef);
  try {
    const { start } = redocly.getLineColLocation(location);
    return `${file}:${start.line}:${start.col}`;
  } catch {
    return file;
  }
}

/** The `$ref` written at `pointer` in a file's text (the target that could not be resolved). */
function refAt(text: string, pointer: string): string | undefined {
  try {
    const node = resolvePointer(parseDocument(text, '').value, pointer) as { $ref?: unknown } | undefined;
    return typeof node?.$ref === 'string' ? node.$ref : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Bundles multi-file specs with Redocly, so that the rest of the pipeline only ever sees
 * one document with internal references. Loaded lazily: single-file specs (the published
 * ones) do not pay for it.
 */
async function bundleWithRedocly(
  absolutePath: string,
  text: string,
  parsed: unknown,
): Promise<{ document: Record<string, unknown>; diagnostics: Diagnostic[] }> {
  const redocly = await import('@redocly/openapi-core');
  const config = await redocly.createConfig({});
  const result = await redocly.bundle({
    doc: { source: new redocly.Source(absolutePath, text), parsed },
    config,
    dereference: false,
  });
  const diagnostics: Diagnostic[] = [];
  for (const problem of result.problems) {
    const location = problem.location[0];
    const pointer = location?.pointer ?? '#';
    const where = location ? placeOf(redocly, location) : undefined;
    const target = problem.message.startsWith("Can't resolve $ref") && location ? refAt(location.source.body, pointer) : undefined;
    const message = target !== undefined ? `cannot resolve $ref ${JSON.stringify(target)}` : problem.message;
    diagnostics.push({
      severity: problem.severity === 'error' ? 'error' : 'warning',
      code: `bundle/${problem.ruleId}`,
      pointer,
      message: where ? `${where}: ${message}` : message,
    });
  }
  return { document: result.bundle.parsed as Record<string, unknown>, diagnostics };
}

function isUrl(ref: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(ref) && !/^file:/i.test(ref);
}

export interface LoadOptions {
  /**
   * `refuse` (default): a `$ref` to a URL fails the load (the generator never fetches).
   * `leave`: it stays in the document, for the schema conversion to report.
   */
  remoteRefs?: 'refuse' | 'leave';
}

export async function loadSpec(file: string, options: LoadOptions = {}): Promise<LoadedSpec> {
  const absolutePath = path.resolve(file);
  let text: string;
  try {
    text = await readFile(absolutePath, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SpecLoadError(
      code === 'ENOENT' ? `${file}: no such file` : `${file}: cannot read (${code ?? String(error)})`,
      file,
    );
  }
  const { value, diagnostics } = parseDocument(text, file);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SpecLoadError(`${file}: not an OpenAPI document (the top level is not a mapping)`, file);
  }
  const root = value as Record<string, unknown>;
  const openapi = root['openapi'];
  if (typeof openapi !== 'string' || !SUPPORTED_OPENAPI.test(openapi)) {
    if (root['swagger'] !== undefined) {
      throw new SpecLoadError(`${file}: only ${SUPPORTED_VERSIONS_TEXT} are supported (found swagger ${String(root['swagger'])})`, file);
    }
    if (openapi === undefined) {
      throw new SpecLoadError(`${file}: the "openapi" field is missing at the top level (an OpenAPI document starts with, e.g., openapi: 3.1.0)`, file);
    }
    throw new SpecLoadError(`${file}: only ${SUPPORTED_VERSIONS_TEXT} are supported ("openapi" is ${JSON.stringify(openapi)})`, file);
  }
  internalizeSelfReferences(root, pathToFileURL(absolutePath).href);
  const external = externalRef(root, schemaDialectOf(openapi), options.remoteRefs === 'leave');
  if (!external) {
    return { source: file, document: root, diagnostics };
  }
  if (isUrl(external.ref)) {
    // The generator reads local files only: it never fetches a schema over the network.
    throw new SpecLoadError(`${file}: $ref ${JSON.stringify(external.ref)} at ${external.pointer} is a remote reference; remote references are not supported (bundle the schema into the file or a local file)`, file);
  }
  const bundled = await bundleWithRedocly(absolutePath, text, root);
  const errors = bundled.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    // Each message starts with the file, line and column where the problem is.
    throw new SpecLoadError(`${errors.map((e) => `${e.message} (at ${e.pointer})`).join('\n')}`, file);
  }
  return { source: file, document: bundled.document, diagnostics: [...diagnostics, ...bundled.diagnostics] };
}
