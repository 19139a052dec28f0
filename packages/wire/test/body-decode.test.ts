/** Request body bytes decoded by media type, as the router and mock handlers read them. */
import { describe, expect, it } from 'vitest';
import { BodyFormatError, checkPreParsed, decodeBody, FormFieldError } from '../src/index.js';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('decodeBody', () => {
  it('decodes JSON, forms by their layout, JWT text, text and bytes', () => {
    expect(decodeBody(bytes('{"a":[1]}'), 'application/json; charset=utf-8', 8)).toEqual({ a: [1] });
    expect(decodeBody(bytes('n=4&t=a&t=b'), 'application/x-www-form-urlencoded', 8, { n: { type: 'integer' } })).toEqual({ n: 4, t: ['a', 'b'] });
    expect(decodeBody(bytes(' aaa.bbb.ccc \n'), 'application/jwt', 8)).toBe('aaa.bbb.ccc');
    expect(decodeBody(bytes('héllo'), 'text/plain', 8)).toBe('héllo');
    const raw = Uint8Array.of(0, 255);
    expect(decodeBody(raw, 'application/octet-stream', 8)).toBe(raw);
  });

  it('refuses what does not decode, naming where', () => {
    expect(() => decodeBody(bytes('{"a":'), 'application/json', 8)).toThrow(BodyFormatError);
    expect(() => decodeBody(bytes('[[[1]]]'), 'application/json', 2)).toThrow('nesting deeper than 2 levels');
    expect(() => decodeBody(bytes('{}'), 'application/json; charset=latin1', 8)).toThrow('charset latin1 is not supported; send UTF-8');
    expect(() => decodeBody(bytes('m={bad'), 'application/x-www-form-urlencoded', 8, { m: { type: 'object', contentType: 'application/json' } })).toThrow(FormFieldError);
  });

  it('checks a body parsed elsewhere as its own parsing would', () => {
    expect(checkPreParsed({ a: 1 }, 8)).toEqual({ a: 1 });
    let error: BodyFormatError | undefined;
    try {
      checkPreParsed(JSON.parse('{"a":{"__proto__":{}}}'), 8);
    } catch (e) {
      error = e as BodyFormatError;
    }
    expect(error).toBeInstanceOf(BodyFormatError);
    expect(error?.path).toBe('$.a');
  });
});
