/**
 * Form bodies as a client writes them (`formParts`), refusals naming the member, and the
 * round trip: what `formParts` writes, `decodeForm` reads back as the same body, by one layout.
 */
import { describe, expect, it } from 'vitest';
import { decodeForm, encodeMultipart, encodeUrlEncoded, formParts, FormValueError, type FormLayout, type UploadedFile } from '../src/index.js';

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

const layout: FormLayout = {
  n: { type: 'integer' },
  ok: { type: 'boolean' },
  tags: { type: 'array', items: { type: 'string' } },
  piped: { type: 'array', items: { type: 'string' }, style: 'pipeDelimited', explode: false },
  spaced: { type: 'array', items: { type: 'integer' }, style: 'spaceDelimited', explode: false },
  where: { type: 'object', properties: { lat: { type: 'number' }, name: { type: 'string' } }, style: 'deepObject' },
  flat: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } } },
  pairs: { type: 'object', properties: { a: { type: 'integer' } }, explode: false },
  meta: { type: 'object', contentType: 'application/json' },
};

describe('formParts', () => {
  it('writes each member as its encoding says', () => {
    expect(formParts({ n: 4, tags: ['a', 'b'], piped: ['x', 'y'], where: { lat: 1.5 }, pairs: { a: 2 }, meta: { k: [1] } }, layout, FORM)).toEqual([
      ['n', '4'],
      ['tags', 'a'],
      ['tags', 'b'],
      ['piped', 'x|y'],
      ['where[lat]', '1.5'],
      ['pairs', 'a,2'],
      ['meta', '{"k":[1]}'],
    ]);
    expect(encodeUrlEncoded({ n: 4, tags: ['a b'] }, layout, FORM)).toBe('n=4&tags=a+b');
    expect(encodeMultipart({ n: 3, meta: { a: 1 } }, layout, MULTIPART).get('meta')).toBe('{"a":1}');
  });

  it('refuses what the media type cannot carry with a FormValueError naming the member', () => {
    expect(() => formParts({ n: { deep: 1 } }, layout, FORM)).toThrow(FormValueError);
    expect(() => formParts({ n: { deep: 1 } }, layout, FORM)).toThrow(/^body member "n" cannot be sent as application\/x-www-form-urlencoded: an object is not text/);
    expect(() => formParts({ piped: ['x|y'] }, layout, FORM)).toThrow(/body member "piped\[0\]".*"\|", the delimiter of style pipeDelimited/);
    expect(() => formParts('a=b', layout, FORM)).toThrow('a application/x-www-form-urlencoded body must be an object of members, got a string');
  });
});

describe('formParts, then decodeForm: the body comes back', () => {
  const body = {
    n: 42,
    ok: false,
    tags: ['a,b', 'c d'],
    piped: ['x', 'y,z'],
    spaced: [1, 2],
    where: { lat: 1.5, name: 'north' },
    flat: { a: 7, b: 'y' },
    pairs: { a: 3 },
    meta: { k: [1, null], s: 'x' },
    extra: 'kept as text',
  };

  it('as application/x-www-form-urlencoded', () => {
    const entries = [...new URLSearchParams(encodeUrlEncoded(body, layout, FORM))];
    expect(decodeForm(entries, layout, { multipart: false, maxDepth: 8 })).toEqual(body);
  });

  it('as multipart/form-data, files included', async () => {
    const files: FormLayout = { ...layout, doc: { type: 'file' }, nested: { type: 'object' } };
    const parts = formParts({ ...body, doc: Uint8Array.of(1, 2), nested: { deep: { x: 1 } } }, files, MULTIPART);
    const entries = await Promise.all(
      parts.map(async ([name, value]): Promise<readonly [string, string | UploadedFile]> => {
        if (typeof value === 'string') return [name, value];
        const bytes = new Uint8Array(await value.arrayBuffer());
        return [name, { bytes, contentType: value.type || 'application/octet-stream', size: bytes.length }];
      }),
    );
    const decoded = decodeForm(entries, files, { multipart: true, maxDepth: 8 });
    expect(decoded).toEqual({ ...body, doc: { bytes: Uint8Array.of(1, 2), contentType: 'application/octet-stream', size: 2 }, nested: { deep: { x: 1 } } });
  });
});
