#!/usr/bin/env node
// Bundles every root contract into a single self-contained file under spec/dist/.
// Output name: <folder>-<name>.yaml, e.g. dist/v2.2-account-information.yaml.
// Exits non-zero when a file cannot be bundled (unresolved $ref, bad YAML, ...).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundle, loadConfig } from '@redocly/openapi-core';
import { stringify } from 'yaml';

const specDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const configPath = resolve(specDir, '..', 'redocly.yaml');
const distDir = join(specDir, 'dist');

export const ROOTS = [
  'v2.1/account-information.yaml',
  'v2.2/account-information.yaml',
  'v2.1/lfi-paging.yaml',
  'v2.2/lfi-paging.yaml',
  'directory/directory.yaml',
];

export function distName(root) {
  const folder = basename(dirname(root));
  return `${folder}-${basename(root, extname(root))}.yaml`;
}

async function main() {
  const config = await loadConfig({ configPath });
  await mkdir(distDir, { recursive: true });
  let failed = false;
  for (const root of ROOTS) {
    const ref = join(specDir, root);
    try {
      const result = await bundle({ ref, config, dereference: false });
      const errors = result.problems.filter((p) => p.severity === 'error');
      if (errors.length > 0) {
        failed = true;
        for (const p of errors) console.error(`${root}: ${p.message}`);
        continue;
      }
      const out = join(distDir, distName(root));
      // YAML 1.1 quoting: strings that a YAML 1.1 reader would turn into dates,
      // booleans or numbers (e.g. 2025-03-14T09:30:00Z, yes, 12:30) stay quoted strings.
      const text = stringify(result.bundle.parsed, { lineWidth: 0, version: '1.1', aliasDuplicateObjects: false });
      await writeFile(out, text, 'utf8');
      console.log(`${root} -> ${relative(specDir, out)}`);
    } catch (err) {
      failed = true;
      console.error(`${root}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (failed) process.exit(1);
}

await main();
