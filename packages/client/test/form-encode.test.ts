/**
 * Request bodies the client encodes by media type and the body's form layout: form fields
 * (numbers, lists, objects per style), multipart parts with files, text and bytes; and values
 * a media type cannot carry, refused with a RequestError naming the member.
 */
import { describe, expect, it } from 'vitest';
import { encodeMultipart, encodeUrlEncoded, formParts, RequestError, type FormLayout } from '../src/runtime/index.js';
import { encodeBody } from '../src/runtime/request-body.js';

const FORM = { operationId: 'op', mediaType: 'application/x-www-form-urlencoded' };
const MULTIPART = { operationId: 'op', mediaType: 'multipart/form-data' };

const layout: FormLayout = {
  n: { type: 'integer' },
  tags: { type: 'array', items: { type: 'string' } },
  piped: { type: 'array', items: { type: 'string' }, style: 'pipeDelimited', explode: false },
  spaced: { type: 'array', items: { type: 'string' }, style: 'spaceDelimited', explode: false },
  where: { type: 'object', properties: { lat: { type: 'number' } }, style: 'deepObject' },
  flat: { type: 'object', properties: { a: { type: 'integer' } } },
  pairs: { type: 'object', properties: { a: { type: 'integer' } }, explode: false },
  meta: { type: 'object', contentType: 'application/json' },
};

describe('application/x-www-form-urlencoded', () => {
  it('writes each member as its encoding says', () => {
    const body = { n: 4, tags: ['a b', 'c&d'], piped: ['x', 'y'], spaced: ['p', 'q'], where: { lat: 1.5 }, flat: { a: 1 }, pairs: { a: 2 }, meta: { k: [1] }, when: new Date(0), skipped: undefined };
    expect(formParts(body, layout, FORM)).toEqual([
      ['n', '4'],
      ['tags', 'a b'],
      ['tags', 'c&d'],
      ['piped', 'x|y'],
      ['spaced', 'p q'],
      ['where[lat]', '1.5'],
      ['a', '1'],
      ['pairs', 'a,2'],
      ['meta', '{"k":[1]}'],
      ['when', '1970-01-01T00:00:00.000Z'],
    ]);
    expect(encodeUrlEncoded({ n: 4, tags: ['a b'] }, layout, FORM)).toBe('n=4&tags=a+b');
  });

  it('refuses what form text cannot carry, naming the member', () => {
    expect(() => formParts({ n: { deep: 1 } }, layout, FORM)).toThrow(/body member "n" cannot be sent as application\/x-www-form-urlencoded/);
    expect(() => formParts({ where: { lat: { deep: 1 } } }, layout, FORM)).toThrow(/"where\.lat"/);
    expect(() => formParts({ tags: [{}] }, layout, FORM)).toThrow(/"tags\[0\]"/);
    expect(() => formParts({ file: new Blob(['x']) }, layout, FORM)).toThrow(/"file".*multipart\/form-data/);
    expect(() => formParts('a=b', layout, FORM)).toThrow(RequestError);
    expect(() => formParts({ f: () => 1 }, layout, FORM)).toThrow(/"f"/);
  });

  it('refuses an item or member of delimited text that holds the delimiter, which would split it in two', () => {
    expect(() => formParts({ piped: ['x|y', 'z'] }, layout, FORM)).toThrow(/body member "piped\[0\]".*"\|", the delimiter of style pipeDelimited/);
    expect(() => formParts({ spaced: ['p q'] }, layout, FORM)).toThrow(/"spaced\[0\]".*" ", the delimiter of style spaceDelimited/);
    expect(() => formParts({ pairs: { a: '1,2' } }, layout, FORM)).toThrow(/"pairs\.a".*",", the delimiter of style form/);
    expect(() => formParts({ pairs: { 'a,b': 1 } }, layout, FORM)).toThrow(/"pairs\.a,b".*","/);
    // Exploded, each item is a field of its own: the delimiter is data.
    expect(formParts({ tags: ['a,b'] }, layout, FORM)).toEqual([['tags', 'a,b']]);
  });

  it('keeps the null items of a list sent as JSON, and refuses one that form text cannot carry', () => {
    expect(formParts({ meta: [1, null, 2] }, layout, FORM)).toEqual([['meta', '[1,null,2]']]);
    // Dropping the null would shift every later item to another index.
    expect(() => formParts({ tags: ['a', null, 'b'] }, layout, FORM)).toThrow(/body member "tags\[1\]".*null/);
  });
});

describe('multipart/form-data', () => {
  const files: FormLayout = { doc: { type: 'file', contentType: 'image/png' }, docs: { type: 'array', items: { type: 'file' } }, meta: { type: 'object' }, n: { type: 'integer' } };

  it('sends files as file parts with their bytes, name and type, and objects as JSON', async () => {
    const form = encodeMultipart({ doc: Uint8Array.of(0, 255), docs: [new File(['a'], 'a.txt', { type: 'text/plain' })], meta: { a: 1 }, n: 3 }, files, MULTIPART);
    const doc = form.get('doc') as File;
    expect(doc.type).toBe('image/png');
    expect(Array.from(new Uint8Array(await doc.arrayBuffer()))).toEqual([0, 255]);
    const [first] = form.getAll('docs') as File[];
    expect([first!.name, first!.type, await first!.text()]).toEqual(['a.txt', 'text/plain', 'a']);
    expect(form.get('meta')).toBe('{"a":1}');
    expect(form.get('n')).toBe('3');
  });

  it('types bytes by the first concrete media type of their encoding, never by a list or a wildcard', () => {
    const listed: FormLayout = { doc: { type: 'file', contentType: 'image/png, image/jpeg' }, any: { type: 'file', contentType: 'image/*' } };
    const form = encodeMultipart({ doc: Uint8Array.of(1), any: Uint8Array.of(2) }, listed, MULTIPART);
    expect((form.get('doc') as File).type).toBe('image/png');
    expect((form.get('any') as File).type).toBe('application/octet-stream');
  });

  it('refuses a file member that is not a file, naming it', () => {
    expect(() => encodeMultipart({ doc: { name: 'x' } }, files, MULTIPART)).toThrow(/body member "doc".*expected a file/);
    expect(() => encodeMultipart({ docs: [1] }, files, MULTIPART)).toThrow(/"docs\[0\]"/);
  });
});

describe('encodeBody by media type', () => {
  const encode = (contentType: string, body: unknown) => encodeBody([contentType], { body, contentType }, 'op', undefined);

  it('sends text as text and bytes as bytes', async () => {
    expect(await encode('text/plain', 'hi')).toEqual({ contentType: 'text/plain', body: 'hi' });
    expect(await encode('text/plain', 5)).toEqual({ contentType: 'text/plain', body: '5' });
    const bytes = Uint8Array.of(1, 2);
    expect((await encode('application/octet-stream', bytes))!.body).toBe(bytes);
    expect((await encode('image/png', new ArrayBuffer(2)))!.body).toBeInstanceOf(Uint8Array);
  });

  it('refuses a value the media type cannot carry, never sending [object Object]', async () => {
    await expect(encode('text/plain', { a: 1 })).rejects.toThrow(/op: the body cannot be sent as text\/plain: expected text/);
    await expect(encode('image/png', { a: 1 })).rejects.toThrow(RequestError);
    await expect(encode('application/xml', [1])).rejects.toThrow(/got a list/);
    await expect(encode('multipart/form-data', [1])).rejects.toThrow(RequestError);
  });

  it('writes a form by its layout when the caller spells the media type with parameters or other case', async () => {
    const encoded = await encodeBody(['application/x-www-form-urlencoded'], { body: { piped: ['x', 'y'] }, contentType: 'Application/X-WWW-Form-Urlencoded; charset=utf-8' }, 'op', undefined, {
      'application/x-www-form-urlencoded': layout,
    });
    expect(encoded!.body).toBe('piped=x%7Cy');
  });

  it('sends files and bytes in a declared type that carries them, never as JSON ({} for a Blob)', async () => {
    const declared = (types: string[], body: unknown) => encodeBody(types, { body }, 'op', undefined);
    const withFile = await declared(['application/json', 'multipart/form-data'], { doc: new Blob(['x']), n: 1 });
    expect(withFile!.contentType).toBe('multipart/form-data');
    expect(withFile!.body).toBeInstanceOf(FormData);
    expect((await declared(['application/json', 'application/octet-stream'], Uint8Array.of(1)))!.contentType).toBe('application/octet-stream');
    await expect(declared(['application/json'], { doc: new Blob(['x']) })).rejects.toThrow(/op: body member "doc" cannot be sent as application\/json: a file/);
    await expect(declared(['application/json'], { docs: [Uint8Array.of(1)] })).rejects.toThrow(/body member "docs"/);
    await expect(encode('application/json', Uint8Array.of(1))).rejects.toThrow(/op: the body cannot be sent as application\/json: bytes/);
  });

  it('passes FormData and URLSearchParams the caller built through', async () => {
    const form = new FormData();
    expect((await encode('multipart/form-data', form))!.body).toBe(form);
    expect((await encode('application/x-www-form-urlencoded', new URLSearchParams('a=1')))!.body).toBe('a=1');
  });
});
