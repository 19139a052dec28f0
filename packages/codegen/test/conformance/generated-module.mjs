// Runs the real generator on one document and imports what it wrote, through its public
// API only (`generate`), so the harness keeps working as the generator changes.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// Resolved from the codegen package, whose dependencies the generated code and this file use.
const require = createRequire(new URL('../../package.json', import.meta.url));
const ts = require('typescript');

/**
 * One temporary folder for a whole run, inside the OS temp folder. Generated code imports
 * `zod`, linked in the way `verify` does; each document gets its own subfolder because a
 * module, once imported, stays cached under its URL.
 */
export async function createWorkspace() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bds-conformance-'));
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await symlink(path.dirname(require.resolve('zod/package.json')), path.join(dir, 'node_modules', 'zod'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  let documents = 0;
  // Most generated files (the runtime helpers above all) are the same in every document:
  // transpile each distinct text once.
  const transpiled = new Map();
  return {
    dir,
    nextFolder: () => path.join(dir, `d${documents++}`),
    transpile(text) {
      let js = transpiled.get(text);
      if (js === undefined) {
        js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
        transpiled.set(text, js);
      }
      return js;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/** What refusing looks like: the codes of the generator's errors, and their messages. */
function refusal({ errors, folder }) {
  // Messages name the spec by its temporary path: name it as the document alone.
  const shown = (text) => text.split(`${folder}${path.sep}`).join('');
  return { codes: [...new Set(errors.map((e) => e.code))].sort(), messages: errors.map((e) => shown(e.pointer ? `${e.pointer}: ${e.message}` : e.message)) };
}

/**
 * Generates the validators of `document` and imports them: `{ schemas, checks }`, or
 * `{ refused }` when the generator reports an error or throws (a named error: its `code`,
 * else its class name), or `{ broken }` when the code it wrote does not load.
 */
export async function generateModule({ api, workspace, document, formats }) {
  const folder = workspace.nextFolder();
  await mkdir(folder, { recursive: true });
  // Every document has the same file name and title, so generated headers (and with them
  // most generated files) are identical from one document to the next.
  const spec = path.join(folder, 'spec.json');
  await writeFile(spec, JSON.stringify(document));
  let result;
  try {
    // The suite is JSON Schema: read exactly, whatever the OpenAPI version's default reading.
    result = await api.generate({ spec, targets: ['validators'], reading: 'exact', formats });
  } catch (error) {
    const named = { code: error?.code ?? error?.name ?? 'Error', message: error instanceof Error ? error.message : String(error) };
    return { refused: refusal({ errors: [named], folder }) };
  }
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { refused: refusal({ errors, folder }) };
  // The generator writes TypeScript; plain Node (the CLI) cannot import it, so transpile.
  const files = result.files
    .filter((f) => f.path.endsWith('.ts'))
    .map((f) => ({ path: f.path.replace(/\.ts$/, '.js'), contents: workspace.transpile(f.contents) }));
  for (const file of files) {
    const target = path.join(folder, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.contents);
  }
  try {
    const module = await import(pathToFileURL(path.join(folder, 'validators', 'index.js')).href);
    return { schemas: module.schemas ?? {}, checks: module.checks ?? {} };
  } catch (error) {
    return { broken: error instanceof Error ? error.message : String(error) };
  }
}
