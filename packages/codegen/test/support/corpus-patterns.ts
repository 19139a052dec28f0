/**
 * Every distinct `pattern` and `patternProperties` key of the corpus files: our spec, the
 * official files (when the machine has them), @readme/oas-examples, GitHub's REST description
 * and Scalar's Galaxy. Read from the documents as written (examples are not schemas and are
 * skipped), with the flags the generated validators compile each one with.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { patternFlags } from '../../src/ir/pattern.js';
import { parseDocument } from '../../src/load/parse-document.js';
import { corpusLabel, OFFICIAL_FILES, OWN_FILES, PUBLISHED_FILES, README_EXAMPLE_FILES } from './corpus-files.js';

const require = createRequire(import.meta.url);
export const GITHUB_FILE = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');

export const PATTERN_CORPUS_FILES = [...OWN_FILES, ...OFFICIAL_FILES, ...README_EXAMPLE_FILES, GITHUB_FILE, ...PUBLISHED_FILES];

export interface CorpusPattern {
  readonly source: string;
  readonly flags: 'u' | '';
  /** The first file (corpus label) it was found in. */
  readonly foundIn: string;
}

const NOT_SCHEMA = new Set(['example', 'examples', 'default', 'const', 'enum']);

function collect(value: unknown, into: (source: string) => void): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, into);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, member] of Object.entries(value)) {
    if (NOT_SCHEMA.has(key)) continue;
    if (key === 'pattern' && typeof member === 'string') into(member);
    if (key === 'patternProperties' && member !== null && typeof member === 'object' && !Array.isArray(member)) for (const name of Object.keys(member)) into(name);
    collect(member, into);
  }
}

export function corpusPatterns(files: readonly string[] = PATTERN_CORPUS_FILES): CorpusPattern[] {
  const found = new Map<string, CorpusPattern>();
  for (const file of files) {
    const { value } = parseDocument(readFileSync(file, 'utf8'), file);
    collect(value, (source) => {
      const flags = patternFlags(source);
      if (flags !== undefined && !found.has(source)) found.set(source, { source, flags, foundIn: corpusLabel(file) });
    });
  }
  return [...found.values()].sort((a, b) => (a.source < b.source ? -1 : a.source > b.source ? 1 : 0));
}
