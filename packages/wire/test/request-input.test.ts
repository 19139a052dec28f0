/** The query, headers and cookies as the plain text maps the validators check. */
import { describe, expect, it } from 'vitest';
import { cookieObject, cookieParts, ForbiddenNameError, headerObject, queryObject } from '../src/index.js';

describe('request input', () => {
  it('reads repeated query names as lists', () => {
    expect(queryObject(new URLSearchParams('page=2&x=1&x=2'))).toEqual({ page: '2', x: ['1', '2'] });
    expect(() => queryObject(new URLSearchParams('__proto__=1'))).toThrow(ForbiddenNameError);
  });

  it('reads a query given as text exactly as URLSearchParams reads it', () => {
    const read = (text: string): unknown => {
      try {
        return queryObject(text);
      } catch (error) {
        return error instanceof ForbiddenNameError ? `forbidden ${error.field}` : `threw ${String(error)}`;
      }
    };
    const expected = (text: string): unknown => {
      try {
        return queryObject(new URLSearchParams(text));
      } catch (error) {
        return error instanceof ForbiddenNameError ? `forbidden ${error.field}` : `threw ${String(error)}`;
      }
    };
    const chosen = [
      '', '?', '??a=1', '?a=1', 'a', 'a=', '=', '=b', '&&a=1&&', 'a==b', 'a=1=2', 'a+b=c+d', 'a%2Bb=%2B', 'a=%20+%20',
      'a=%', 'a=%2', 'a=%zz', 'a=%E2%82%AC', 'a=%e2%82%ac', 'a=%E2%82', 'a=%C0%AF', 'a=%ED%A0%80', 'a=%F4%90%80%80', 'a=%00',
      'a=é', 'é=1', 'a=\ud800', 'a=\u00ff', 'toString=1', 'toString=1&toString=2', 'constructor=x', 'hasOwnProperty=1&a=2',
      '__proto__=1', '%5F%5Fproto%5F%5F=1', 'a=1&__proto__=2', 'x=1&x=2&x=3', `${'k=v&'.repeat(300)}late=1`, `${'k=v&'.repeat(255)}__proto__=1`,
      'fromBookingDateTime=2024-01-01T00%3A00%3A00Z&page=2',
    ];
    // And every short text over an alphabet of what matters to the reading.
    const alphabet = ['a', '=', '&', '+', '%', '2', 'B', 'E', 'c', '?', 'é', ' '];
    const generated: string[] = [];
    let seed = 7;
    for (let i = 0; i < 4000; i++) {
      let text = '';
      const length = i % 12;
      for (let k = 0; k < length; k++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        text += alphabet[seed % alphabet.length];
      }
      generated.push(text);
    }
    const differing = [...chosen, ...generated].filter((text) => JSON.stringify(read(text)) !== JSON.stringify(expected(text)));
    expect(differing).toStrictEqual([]);
    expect(queryObject('a+b=%2B&a+b=%E2%82%AC&toString=1')).toStrictEqual({ 'a b': ['+', '€'], toString: '1' });
    expect(Object.keys(queryObject(`${'k=v&'.repeat(300)}late=1`).k as string[])).toHaveLength(256);
  });

  it('reads cookies as sent, then percent-decoded where they decode', () => {
    expect(cookieParts('a=1;=skipped; b="x%20y"; c')).toEqual([
      ['a', '1'],
      ['b', 'x%20y'],
    ]);
    expect(cookieObject('a=1; b=x%20y; a=2; bad=%E0%A4%A')).toEqual({ a: '1', b: 'x y', bad: '%E0%A4%A' });
    expect(cookieObject(undefined)).toEqual({});
    expect(() => cookieObject('__proto__=1')).toThrow('cookie name "__proto__" is not allowed');
  });

  it('keeps the headers that have a value', () => {
    expect(headerObject({ accept: 'application/json', 'x-list': ['a', 'b'], absent: undefined })).toEqual({ accept: 'application/json', 'x-list': ['a', 'b'] });
  });
});
