/**
 * The date-time check of the generated runtime is written out flat for speed. It must give
 * the answer of the composed reading, `full-date "T" full-time`, on any text: seeded
 * mutations of valid date-times (digits, separators, lengths, leap days and seconds, offsets).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDate, isDateTime, isTime } from '../templates/validators/runtime.js';

const composed = (value: string): boolean => value.length >= 20 && (value[10] === 'T' || value[10] === 't') && isDate(value.slice(0, 10)) && isTime(value.slice(11));

const SEEDS = [
  '2024-02-29T10:00:00Z',
  '2023-02-28T23:59:59.999+04:00',
  '2016-12-31T23:59:60Z',
  '2016-12-31T19:59:60-04:00',
  '2016-12-31t23:59:60z',
  '2000-02-29T00:00:00.1-00:00',
  '1900-02-28T12:30:45+23:59',
  '2025-04-30T01:02:03.000000001Z',
  '2025-13-01T00:00:00Z',
  '2025-01-32T00:00:00Z',
];
const ALPHABET = '0123456789-:.+TtZz 9';

const mutated = fc
  .record({
    seed: fc.constantFrom(...SEEDS),
    edits: fc.array(fc.record({ at: fc.nat(40), ch: fc.constantFrom(...ALPHABET.split('')), op: fc.constantFrom('set', 'insert', 'delete') }), { maxLength: 3 }),
  })
  .map(({ seed, edits }) =>
    edits.reduce((text, { at, ch, op }) => {
      const i = at % (text.length + 1);
      if (op === 'insert') return text.slice(0, i) + ch + text.slice(i);
      if (op === 'delete') return text.slice(0, i) + text.slice(i + 1);
      return text.slice(0, i) + ch + text.slice(i + 1);
    }, seed),
  );

describe('isDateTime', () => {
  it('answers as the composed full-date T full-time reading on seeded mutations', () => {
    let accepted = 0;
    fc.assert(
      fc.property(mutated, (text) => {
        const answer = isDateTime(text);
        if (answer) accepted++;
        return answer === composed(text);
      }),
      { seed: 20261122, numRuns: 50_000 },
    );
    // Not vacuous: a good share of the texts are valid.
    expect(accepted).toBeGreaterThan(5_000);
  });

  it('applies leap seconds only at 23:59:60 UTC and checks calendar days', () => {
    expect(SEEDS.map(isDateTime)).toStrictEqual([true, true, true, true, true, true, true, true, false, false]);
    expect(isDateTime('2016-12-31T23:59:60+01:00')).toBe(false);
    expect(isDateTime('2023-02-29T10:00:00Z')).toBe(false);
    expect(isDateTime('2100-02-29T10:00:00Z')).toBe(false);
  });
});
