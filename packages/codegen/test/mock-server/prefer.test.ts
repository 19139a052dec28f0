import { describe, expect, it } from 'vitest';
import { parsePrefer, PreferError } from '../../src/mock/prefer.js';
import { requestSeed } from '../../src/mock/request-seed.js';

describe('parsePrefer (Prism conventions, RFC 7240)', () => {
  it('reads code, example and dynamic, one or several, in one header or several', () => {
    expect(parsePrefer(undefined)).toStrictEqual({});
    expect(parsePrefer('code=404')).toStrictEqual({ code: 404 });
    expect(parsePrefer('code=200, example=cat, dynamic=true')).toStrictEqual({ code: 200, example: 'cat', dynamic: true });
    expect(parsePrefer(['dynamic=false', 'example="two words, with a comma"'])).toStrictEqual({ dynamic: false, example: 'two words, with a comma' });
    expect(parsePrefer('dynamic')).toStrictEqual({ dynamic: true });
  });

  it('ignores preferences it does not know and keeps the first of one named twice', () => {
    expect(parsePrefer('return=minimal, respond-async, wait=10')).toStrictEqual({});
    expect(parsePrefer('code=201, code=500')).toStrictEqual({ code: 201 });
    expect(parsePrefer('CODE=418; foo=bar')).toStrictEqual({ code: 418 });
  });

  it('refuses a known preference with a wrong value, naming it', () => {
    expect(() => parsePrefer('code=4XX')).toThrow(PreferError);
    expect(() => parsePrefer('code=abc')).toThrow(/code=abc/);
    expect(() => parsePrefer('code=700')).toThrow(/code=700/);
    expect(() => parsePrefer('dynamic=maybe')).toThrow(/dynamic=maybe/);
    expect(() => parsePrefer('example=')).toThrow(/example/);
  });
});

describe('requestSeed', () => {
  it('is the same for the same request, whatever the order of the query', () => {
    const a = requestSeed({ seed: 1, method: 'GET', target: '/pets?limit=2&tags=a' });
    expect(requestSeed({ seed: 1, method: 'get', target: '/pets?tags=a&limit=2' })).toBe(a);
    expect(requestSeed({ seed: 2, method: 'GET', target: '/pets?limit=2&tags=a' })).not.toBe(a);
    expect(requestSeed({ seed: 1, method: 'GET', target: '/pets?limit=3&tags=a' })).not.toBe(a);
    expect(requestSeed({ seed: 1, method: 'POST', target: '/pets?limit=2&tags=a' })).not.toBe(a);
  });
});
