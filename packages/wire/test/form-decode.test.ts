/**
 * Form bodies decoded by the schema's layout (`decodeForm`): text turned into what each member
 * is, objects per their style, JSON members parsed safely, files kept.
 */
import { describe, expect, it } from 'vitest';
import { decodeForm, FormFieldError, type FormLayout, type UploadedFile } from '../src/index.js';

describe('decodeForm', () => {
  const layout: FormLayout = {
    n: { type: 'integer' },
    x: { type: 'number' },
    ok: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'integer' } },
    piped: { type: 'array', items: { type: 'string' }, style: 'pipeDelimited', explode: false },
    where: { type: 'object', properties: { lat: { type: 'number' }, name: { type: 'string' } }, style: 'deepObject' },
    flat: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } } },
    pairs: { type: 'object', properties: { a: { type: 'integer' } }, explode: false },
    meta: { type: 'object', contentType: 'application/json' },
  };
  const options = { multipart: false, maxDepth: 8 };

  it('turns text into what each member is', () => {
    const entries = new URLSearchParams('n=42&x=-1.5e2&ok=false&tags=1&tags=2&piped=a|b|c&where[lat]=1.5&where[name]=x&a=7&b=y&pairs=a,3&meta={"k":[1]}&extra=e&extra=f');
    expect(decodeForm([...entries], layout, options)).toEqual({
      n: 42,
      x: -150,
      ok: false,
      tags: [1, 2],
      piped: ['a', 'b', 'c'],
      where: { lat: 1.5, name: 'x' },
      flat: { a: 7, b: 'y' },
      pairs: { a: 3 },
      meta: { k: [1] },
      extra: ['e', 'f'],
    });
  });

  it('leaves text that does not decode for the schema to refuse, and keeps a repeated single value a list', () => {
    expect(decodeForm([['n', '4x'], ['ok', 'yes'], ['x', '1'], ['x', '2']], layout, options)).toEqual({ n: '4x', ok: 'yes', x: [1, 2] });
    expect(decodeForm([['n', '']], layout, options)).toEqual({ n: '' });
  });

  it('refuses JSON members that are not JSON and __proto__ anywhere, naming the field', () => {
    expect(() => decodeForm([['meta', '{bad']], layout, options)).toThrow(/form field "meta": malformed JSON/);
    expect(() => decodeForm([['__proto__', 'x']], layout, options)).toThrow(FormFieldError);
    expect(() => decodeForm([['where[__proto__]', 'x']], layout, options)).toThrow(/"where"/);
    expect(() => decodeForm([['pairs', 'a,1,b']], layout, options)).toThrow(/form field "pairs": .*pairs/);
  });

  it('gives a form-exploded object only the names no member of the body declares', () => {
    const layout: FormLayout = { id: { type: 'string' }, filter: { type: 'object', properties: { id: { type: 'string' }, q: { type: 'string' } } } };
    expect(decodeForm([['id', '1'], ['q', 'x']], layout, options)).toEqual({ id: '1', filter: { q: 'x' } });
  });

  it('reads objects of a multipart body as JSON unless encoding names a style, and keeps files', () => {
    const file: UploadedFile = { bytes: Uint8Array.of(1), filename: 'f', contentType: 'image/png', size: 1 };
    const multipart: FormLayout = { doc: { type: 'object' }, pic: { type: 'file' }, n: { type: 'integer' } };
    expect(decodeForm([['doc', '{"a":1}'], ['pic', file], ['n', '3']], multipart, { multipart: true, maxDepth: 8 })).toEqual({ doc: { a: 1 }, pic: file, n: 3 });
  });
});
