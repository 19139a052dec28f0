/**
 * The corpus the property tests run over: our own files, the official files (when the machine
 * has them), every OpenAPI 3.0/3.1 JSON document of @readme/oas-examples, and other
 * publishers' files from the registry (Scalar's Galaxy example: generic pages bound with
 * `$dynamicRef`).
 */
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { REAL_SPECS_DIR, REPO_ROOT } from './spec-files.js';

const require = createRequire(import.meta.url);
export const EXAMPLES = path.dirname(require.resolve('@readme/oas-examples/package.json'));

export const OWN_FILES = ['spec/v2.1/account-information.yaml', 'spec/v2.2/account-information.yaml', 'spec/v2.1/lfi-paging.yaml', 'spec/v2.2/lfi-paging.yaml', 'spec/directory/directory.yaml'].map((f) =>
  path.join(REPO_ROOT, f),
);
export const OFFICIAL_FILES = existsSync(REAL_SPECS_DIR) ? readdirSync(REAL_SPECS_DIR).filter((f) => /\.(ya?ml|json)$/.test(f)).map((f) => path.join(REAL_SPECS_DIR, f)) : [];
export const README_EXAMPLE_FILES = ['3.0', '3.1'].flatMap((version) =>
  readdirSync(path.join(EXAMPLES, version, 'json'), { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => path.join(EXAMPLES, version, 'json', e.name)),
);

/** Other publishers' OpenAPI files, as their packages export them. */
const PUBLISHED = ['@scalar/galaxy/latest.yaml'];
export const PUBLISHED_FILES = PUBLISHED.map((specifier) => require.resolve(specifier));
const PUBLISHED_LABELS = new Map(PUBLISHED_FILES.map((file, i) => [file, PUBLISHED[i]!]));

/** A file's name in test titles: `oas-examples/3.0/json/x.json`, `real-specs/x.yaml`, `spec/...`. */
export function corpusLabel(file: string): string {
  if (file.startsWith(EXAMPLES)) return `oas-examples/${path.relative(EXAMPLES, file).split(path.sep).join('/')}`;
  if (file.startsWith(REAL_SPECS_DIR)) return `real-specs/${path.basename(file)}`;
  const published = PUBLISHED_LABELS.get(file);
  if (published) return published;
  return path.relative(REPO_ROOT, file).split(path.sep).join('/');
}
