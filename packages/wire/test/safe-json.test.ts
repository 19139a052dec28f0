import { describe, expect, it } from 'vitest';
import { UnsafeInputError, assertNoProtoKeys, parseJsonSafely } from '../src/index.js';

describe('parseJsonSafely', () => {
  it('parses ordinary JSON', () => {
    expect(parseJsonSafely('{"a":[1,{"b":"}]"}]}')).toEqual({ a: [1, { b: '}]' }] });
  });

  it('refuses nesting deeper than the limit before parsing', () => {
    expect(() => parseJsonSafely('[[[1]]]', 2)).toThrow(new UnsafeInputError('nesting deeper than 2 levels'));
    expect(parseJsonSafely('[[1]]', 2)).toEqual([[1]]);
    expect(() => parseJsonSafely('['.repeat(1_000_000))).toThrow(UnsafeInputError);
  });

  it('does not count brackets inside strings, including escaped quotes', () => {
    expect(parseJsonSafely('{"a":"[[[[\\"[[[["}', 2)).toEqual({ a: '[[[["[[[[' });
  });

  it('refuses __proto__ members anywhere, however they are spelt', () => {
    expect(() => parseJsonSafely('{"__proto__":{"x":1}}')).toThrow('member "__proto__" is not allowed');
    const error = (() => {
      try {
        parseJsonSafely('{"a":[{"\\u005f_proto__":1}]}');
      } catch (e) {
        return e as UnsafeInputError;
      }
      return undefined;
    })();
    expect(error?.path).toBe('$.a[0]');
  });

  it('turns malformed JSON into UnsafeInputError', () => {
    expect(() => parseJsonSafely('{"a":')).toThrow(/^malformed JSON/);
  });

  it('checks values parsed elsewhere too', () => {
    expect(() => assertNoProtoKeys(JSON.parse('{"b":{"__proto__":{}}}'))).toThrow(UnsafeInputError);
    expect(() => assertNoProtoKeys({ a: { b: {} } }, 2)).toThrow('nesting deeper than 2 levels');
  });
});
