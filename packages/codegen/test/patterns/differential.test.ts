/**
 * The linear matcher and V8 give the same answer on every pattern case of the
 * JSON-Schema-Test-Suite and on every `pattern` and `patternProperties` key of the corpora
 * (our files, the official ones, @readme/oas-examples, GitHub's description, Scalar's
 * Galaxy), over the mocks' sampled values for each pattern and mutations of them. Every
 * pattern the matcher can express is run, not only the ones it is used for.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../src/load/parse-document.js';
import { patternFlags } from '../../src/ir/pattern.js';
import { seededRandom, seedOf } from '../../templates/mocks/random.js';
import { sampleFromPattern } from '../../templates/mocks/regex-sample.js';
import { LinearMatcher, NotLinearError } from '../../templates/validators/linear-regex.js';
import { OFFICIAL_FILES, OWN_FILES, PUBLISHED_FILES, README_EXAMPLE_FILES } from '../support/corpus-files.js';
import { REPO_ROOT } from '../support/spec-files.js';

const require = createRequire(import.meta.url);
const SUITE = path.resolve(REPO_ROOT, '../shared/json-schema-test-suite/tests');
const GITHUB = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');

/** Every `pattern` string and `patternProperties` key in a document. */
function patternsIn(document: unknown, into: Set<string>): void {
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    const record = value as Record<string, unknown>;
    if (typeof record['pattern'] === 'string') into.add(record['pattern']);
    const keyed = record['patternProperties'];
    if (keyed !== null && typeof keyed === 'object' && !Array.isArray(keyed)) for (const key of Object.keys(keyed)) into.add(key);
    stack.push(...Object.values(record));
  }
}

/** Strings and object keys of a test case's data: what a pattern is tried on. */
function stringsIn(data: unknown, into: string[]): void {
  if (typeof data === 'string') into.push(data);
  else if (Array.isArray(data)) for (const item of data) stringsIn(item, into);
  else if (data !== null && typeof data === 'object') {
    for (const [key, value] of Object.entries(data)) {
      into.push(key);
      stringsIn(value, into);
    }
  }
}

/** Variants of a valid value that break it in the ways checks meet: cut, grown, a wrong character, odd code points. */
function mutations(value: string): string[] {
  const chars = [...value];
  const out = ['', value + value, `!${value}`, `${value}!`, `${value}\n`, `\n${value}`, `${value}😀`, `${value}\ud800`, ` ${value} `];
  if (chars.length > 0) {
    out.push(chars.slice(1).join(''), chars.slice(0, -1).join(''));
    const middle = Math.floor(chars.length / 2);
    for (const replacement of ['a', 'Z', '0', '-', '.', '_', ' ', 'é', '😀', '\udc00', '@', '/']) {
      out.push([...chars.slice(0, middle), replacement, ...chars.slice(middle + 1)].join(''));
      out.push([...chars.slice(0, middle), replacement, ...chars.slice(middle)].join(''));
    }
    out.push(value.toUpperCase(), value.toLowerCase(), chars.reverse().join(''));
  }
  return out;
}

/** Valid values of the pattern from the mocks' sampler (none when it cannot sample it). */
function samples(source: string): string[] {
  const out: string[] = [];
  for (let seed = 0; seed < 4; seed++) {
    try {
      out.push(sampleFromPattern(source, { random: seededRandom(seedOf('differential', source, seed)), maxExtraRepeat: 3 }));
    } catch {
      // A pattern the sampler cannot read is still compared on the fixed inputs below.
    }
  }
  return out;
}

const FIXED = ['', 'a', 'abc', 'ABC', '0', '123', 'a-b', 'a.b', 'a@b.c', 'http://x.y/z', ' ', '\n', '😀', '\ud800', 'é', '2024-01-31'];

interface Outcome {
  patterns: number;
  inputs: number;
  /** Patterns the matcher refuses (backreferences, lookarounds): matched another way. */
  refused: string[];
  differences: string[];
}

/** Both engines on every input (each pattern's samples, their mutations, the fixed inputs and `extra`). */
function compare(patterns: Iterable<string>, extra: (source: string) => readonly string[] = () => []): Outcome {
  const outcome: Outcome = { patterns: 0, inputs: 0, refused: [], differences: [] };
  for (const source of patterns) {
    const flags = patternFlags(source);
    if (flags === undefined) continue;
    let matcher: LinearMatcher;
    try {
      matcher = new LinearMatcher(source, flags);
    } catch (error) {
      if (!(error instanceof NotLinearError)) throw error;
      outcome.refused.push(source);
      continue;
    }
    outcome.patterns++;
    const regex = new RegExp(source, flags);
    const valid = samples(source);
    const inputs = new Set([...FIXED, ...extra(source), ...valid, ...valid.flatMap(mutations)]);
    for (const input of inputs) {
      outcome.inputs++;
      const expected = regex.test(input);
      if (matcher.test(input) !== expected) outcome.differences.push(`${JSON.stringify(source)} /${flags} on ${JSON.stringify(input)}: V8 says ${expected}`);
    }
  }
  return outcome;
}

/** A file as the generator reads it (YAML the strict reader refuses is read leniently, as there). */
function readDocument(file: string): unknown {
  return parseDocument(readFileSync(file, 'utf8'), file).value;
}

describe('linear matcher against V8', () => {
  it('agrees on every pattern case of the JSON-Schema-Test-Suite', () => {
    const files = readdirSync(SUITE).flatMap((draft) => {
      const dir = path.join(SUITE, draft);
      const candidates = [...readdirSync(dir).filter((f) => f.startsWith('pattern')).map((f) => path.join(dir, f)), path.join(dir, 'optional', 'ecmascript-regex.json'), path.join(dir, 'optional', 'non-bmp-regex.json')];
      return candidates.filter(existsSync);
    });
    expect(files.length).toBeGreaterThan(0);
    // Each pattern with the data its cases try it on.
    const data = new Map<string, string[]>();
    for (const file of files) {
      for (const group of JSON.parse(readFileSync(file, 'utf8')) as Array<{ schema: unknown; tests: Array<{ data: unknown }> }>) {
        const patterns = new Set<string>();
        patternsIn(group.schema, patterns);
        const strings: string[] = [];
        for (const test of group.tests) stringsIn(test.data, strings);
        for (const source of patterns) data.set(source, [...(data.get(source) ?? []), ...strings]);
      }
    }
    const outcome = compare(data.keys(), (source) => data.get(source) ?? []);
    expect(outcome.patterns).toBeGreaterThan(20);
    expect(outcome.differences).toEqual([]);
  });

  const corpora: Array<[string, string[]]> = [
    ['our spec/ files and the official files', [...OWN_FILES, ...OFFICIAL_FILES]],
    ['@readme/oas-examples and Scalar Galaxy', [...README_EXAMPLE_FILES, ...PUBLISHED_FILES]],
    ["GitHub's REST description", [GITHUB]],
  ];
  for (const [label, files] of corpora) {
    it(`agrees on every pattern of ${label}, on sampled values and mutations of them`, () => {
      const patterns = new Set<string>();
      for (const file of files) patternsIn(readDocument(file), patterns);
      expect(patterns.size).toBeGreaterThan(0);
      const outcome = compare(patterns);
      expect(outcome.differences).toEqual([]);
      // Every pattern of the corpora runs through the matcher (none holds a backreference or lookaround).
      expect(outcome.refused).toEqual([]);
      expect(outcome.patterns).toBeGreaterThan(0);
    });
  }
});
