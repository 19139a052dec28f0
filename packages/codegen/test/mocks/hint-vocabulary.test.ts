/**
 * Which words the mocks' name hints speak: this API family's own files (every file of
 * `spec/`) keep its banking vocabulary; any other file gets words of any domain.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { buildIR } from '../../src/ir/build-ir.js';
import { isOpenFinanceFamily } from '../../src/ir/api-family.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { seededRandom } from '../../templates/mocks/random.js';
import { hintFor, isPluralName } from '../../templates/mocks/hints.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(here, '../../../..');
const familyOf = async (file: string) => isOpenFinanceFamily(buildIR(await loadSpec(file)).api);

describe('the family of a file', () => {
  it.each(['v2.1/account-information.yaml', 'v2.2/account-information.yaml', 'v2.1/lfi-paging.yaml', 'v2.2/lfi-paging.yaml', 'directory/directory.yaml'])('spec/%s is this family', async (file) => {
    expect(await familyOf(path.join(REPO, 'spec', file))).toBe(true);
  });

  it('another domain is not, whatever its names', async () => {
    expect(await familyOf(path.join(here, '../fixtures/museum-events-3.1.yaml'))).toBe(false);
    expect(await familyOf(createRequire(import.meta.url).resolve('@readme/oas-examples/3.0/json/petstore-expanded.json'))).toBe(false);
  });
});

describe('hints', () => {
  const NOW = Date.UTC(2026, 5, 1);
  const many = (name: string, vocabulary?: 'neutral' | 'open-finance') => Array.from({ length: 50 }, (_, i) => hintFor(name, seededRandom(i), NOW, vocabulary));

  it('name people only in this family, things by titles elsewhere', () => {
    expect(many('name', 'open-finance').some((v) => /Al Mansoori|Haddad|Rahman/.test(v!))).toBe(true);
    for (const value of many('name')) expect(value).toMatch(/^(The )?[A-Z][a-z]+ [A-Z][a-z]+$/);
    for (const value of many('description')) expect(value).not.toMatch(/subscription|Grocery|Salary|savings/);
    for (const value of many('startDate')) expect(value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('read plurals, not words that merely end in s', () => {
    for (const name of ['dates', 'tags', 'eventDates', 'children', 'categories', 'topics']) expect(isPluralName(name), name).toBe(true);
    for (const name of ['status', 'address', 'analysis', 'bus', 'date', 'is']) expect(isPluralName(name), name).toBe(false);
  });

  it('classify a very long name from an untrusted spec in linear time', () => {
    // A backtracking match would try every start of the lowercase run before the trailing
    // digit: this would not finish within the test's timeout.
    expect(isPluralName(`${'a'.repeat(200_000)}1`)).toBe(false);
    expect(isPluralName(`${'a'.repeat(200_000)}Tags`)).toBe(true);
    expect(isPluralName(`${'A'.repeat(200_000)}Status`)).toBe(false);
  }, 10_000);
});
