// Reads the JSON-Schema-Test-Suite: which keyword files each draft runs, as which OpenAPI
// version, and which of them the generator may refuse without counting against it.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The drafts the harness runs. OpenAPI 3.1 schemas are JSON Schema 2020-12; OpenAPI 3.0's
 * Schema Object is an extended subset of draft 4, so draft 4's files run as 3.0.3.
 * `allowedRefusals` need documents or vocabularies an OpenAPI file cannot hold (remote
 * references, dynamic scopes, meta-schema vocabularies): they run, but are reported apart.
 */
export const DRAFTS = [
  { draft: '2020-12', folder: 'draft2020-12', openapi: '3.1.0', allowedRefusals: ['dynamicRef.json', 'refRemote.json', 'vocabulary.json'] },
  { draft: '4', folder: 'draft4', openapi: '3.0.3', allowedRefusals: ['refRemote.json'] },
];

/**
 * The formats the README promises to check: their `optional/format/` files run too, with
 * formats asserted. The required files run with formats as annotations, JSON Schema's default.
 */
export const PROMISED_FORMATS = ['date-time', 'date', 'time', 'uri', 'uuid', 'email', 'duration'];

/** Where CI clones the suite: beside the repository (`../shared/json-schema-test-suite`). */
export function defaultSuiteDir(repoRoot) {
  return path.resolve(repoRoot, '../shared/json-schema-test-suite');
}

/**
 * The keyword files to run, in a stable order: every top-level file of each selected draft
 * (not `optional/`), optionally only the one named `file` (with or without `.json`).
 */
export async function listSuiteFiles({ suiteDir, drafts = DRAFTS.map((d) => d.draft), file }) {
  const wanted = file === undefined ? undefined : file.endsWith('.json') ? file : `${file}.json`;
  const entries = [];
  for (const { draft, folder, openapi, allowedRefusals } of DRAFTS.filter((d) => drafts.includes(d.draft))) {
    const dir = path.join(suiteDir, 'tests', folder);
    const names = (await readdir(dir, { withFileTypes: true }))
      .filter((e) => e.isFile() && e.name.endsWith('.json') && (wanted === undefined || e.name === wanted))
      .map((e) => e.name)
      .sort();
    for (const name of names) {
      const groups = JSON.parse(await readFile(path.join(dir, name), 'utf8'));
      entries.push({ draft, file: name, openapi, formats: 'annotate', allowedRefusal: allowedRefusals.includes(name), groups });
    }
    for (const format of PROMISED_FORMATS) {
      const name = `optional/format/${format}.json`;
      if (wanted !== undefined && wanted !== name && wanted !== `${format}.json`) continue;
      let text;
      try {
        text = await readFile(path.join(dir, name), 'utf8');
      } catch {
        continue; // Not every draft has a file for every format.
      }
      entries.push({ draft, file: name, openapi, formats: 'assert', allowedRefusal: false, groups: JSON.parse(text) });
    }
  }
  return entries;
}
