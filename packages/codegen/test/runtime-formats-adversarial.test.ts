/**
 * The `format` checks of the generated validators (the runtime template, shared by the zod
 * schemas, the check functions and the JSON Schema validator) on 1 MiB inputs of the shapes
 * that make a backtracking regular expression slow: overlapping repetitions that fail at the
 * last character. Each answers right within a generous safety bound. Their expressions have no
 * nested or overlapping quantifiers (see the README's "Our own parsers and format checks"):
 * these tests keep it so.
 */
import { describe, expect, it } from 'vitest';
import { codePointLength, isByte, isDate, isDateTime, isDuration, isEmail, isTime, isUri, isUuid, jsonStringBody, textList } from '../templates/validators/runtime.js';
import { z } from 'zod';

const SAFETY_BOUND_MS = 2000;
const MiB = 1024 * 1024;

function answers(check: (value: string) => boolean, cases: ReadonlyArray<readonly [string, boolean]>): void {
  for (const [value, expected] of cases) {
    const started = performance.now();
    expect(check(value), `${value.slice(0, 24)}… (${value.length})`).toBe(expected);
    expect(performance.now() - started).toBeLessThan(SAFETY_BOUND_MS);
  }
}

describe('format checks on 1 MiB inputs', () => {
  it('uri', () => {
    answers(isUri, [
      [`http://${'a'.repeat(MiB)} `, false],
      [`http://${'a:1'.repeat(MiB / 3)} `, false],
      [`http://${'a@'.repeat(MiB / 2)}`, false],
      [`http://${':'.repeat(MiB)}/`, false],
      [`a:${'/'.repeat(MiB)} `, false],
      [`a:?${'?'.repeat(MiB)}#${'#'.repeat(8)}`, false],
      [`http://x/${'%41'.repeat(MiB / 3)}%4`, false],
      [`http://[${'1:'.repeat(MiB / 2)}]/`, false],
      [`http://[v1.${'a'.repeat(MiB)}]/`, true],
      [`https://example.com/${'a/'.repeat(MiB / 2)}?${'q=1&'.repeat(MiB / 4)}#f`, true],
    ]);
  });

  it('email', () => {
    answers(isEmail, [
      [`${'a'.repeat(MiB)} `, false],
      [`${'a.'.repeat(MiB / 2)}@`, false],
      [`a@${'a'.repeat(MiB)} `, false],
      [`a@${'a.'.repeat(MiB / 2)} `, false],
      [`a@${'a-'.repeat(MiB / 2)}`, false],
      [`a@${'a-a.'.repeat(MiB / 4)}-`, false],
      [`"${'\\"'.repeat(MiB / 2)}`, false],
      [`a@[${'a'.repeat(MiB)}`, false],
      [`a@[IPv6:${'1:'.repeat(MiB / 2)}1]`, false],
      [`${'a.'.repeat(MiB / 2)}a@${'b.'.repeat(MiB / 2)}com`, true],
    ]);
  });

  it('duration, byte, uuid', () => {
    answers(isDuration, [
      [`P${'1'.repeat(MiB)}X`, false],
      [`PT${'1'.repeat(MiB)}H${'1'.repeat(MiB)}X`, false],
      [`P${'1'.repeat(MiB)}Y${'1'.repeat(MiB)}M${'1'.repeat(MiB)}D`, true],
    ]);
    answers(isByte, [
      [`${'A'.repeat(MiB)}!`, false],
      [`${'A'.repeat(MiB + 1)}=!`, false],
      [`${'AAAA'.repeat(MiB / 4)}AA==`, true],
    ]);
    answers(isUuid, [[`${'0'.repeat(8)}-${'0'.repeat(MiB)}`, false]]);
  });

  it('date-time, date, time', () => {
    answers(isDateTime, [
      [`2025-01-01T00:00:00.${'1'.repeat(MiB)}Z`, true],
      [`2025-01-01T00:00:00.${'1'.repeat(MiB)}x`, false],
    ]);
    answers(isTime, [
      [`23:59:60.${'0'.repeat(MiB)}Z`, true],
      [`00:00:00.${'0'.repeat(MiB)}+00:0`, false],
    ]);
    answers(isDate, [[`2025-01-01${'1'.repeat(MiB)}`, false]]);
  });

  it('lengths, JSON text and delimited parameters', () => {
    answers((value) => codePointLength(value) === MiB, [['\u{1F600}'.repeat(MiB), true]]);
    answers((value) => jsonStringBody(value).length === value.length + 1, [[`${'a'.repeat(MiB)}"`, true]]);
    const list = textList(z.array(z.number()), { explode: false, items: 'number' });
    answers((value) => list.safeParse(value).success, [
      [`${'1,'.repeat(MiB / 2)}1`, true],
      [`${'1e'.repeat(MiB / 2)}`, false],
    ]);
  });
});
