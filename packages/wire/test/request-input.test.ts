/** The query, headers and cookies as the plain text maps the validators check. */
import { describe, expect, it } from 'vitest';
import { cookieObject, cookieParts, ForbiddenNameError, headerObject, queryObject } from '../src/index.js';

describe('request input', () => {
  it('reads repeated query names as lists', () => {
    expect(queryObject(new URLSearchParams('page=2&x=1&x=2'))).toEqual({ page: '2', x: ['1', '2'] });
    expect(() => queryObject(new URLSearchParams('__proto__=1'))).toThrow(ForbiddenNameError);
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
