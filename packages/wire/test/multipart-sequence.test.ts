import { describe, expect, it } from 'vitest';
import {
  boundaryOf,
  decodeSequence,
  decodeSequenceText,
  encodeSequenceItem,
  isSequenceFormatError,
  itemOfPart,
  JsonLinesError,
  MultipartMixedEncoder,
  MultipartMixedError,
  partOfItem,
  sequenceEncodingOf,
  sequenceFormat,
  SequenceItemError,
  sequenceWriter,
  type SequenceEncoding,
} from '../src/index.js';
import { collect } from './support/chunks.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (chunk: string | Uint8Array) => (typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk));

/** OpenAPI's example shape: a JSON first part, then text. */
const REPORT: SequenceEncoding = { prefixEncoding: [{ contentType: 'application/json' }], itemEncoding: { contentType: 'text/plain' } };
const quote = { symbol: 'ABC', price: 1.5 };

/** The whole body a writer gives for `items`, and its Content-Type. */
function written(items: unknown[], encoding?: SequenceEncoding, boundary = 'b1'): { contentType: string; body: Uint8Array } {
  const writer = sequenceWriter('multipart-mixed', 'multipart/mixed', { ...(encoding ? { encoding } : {}), boundary });
  const pieces = [...items.map((item) => writer.item(item)), writer.end()].map((piece) => (typeof piece === 'string' ? bytes(piece) : piece));
  return { contentType: writer.contentType, body: new Uint8Array(pieces.flatMap((piece) => [...piece])) };
}

async function* chunksOf(body: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < body.length; at += size) yield body.slice(at, at + size);
}

describe('multipart/mixed as a sequence format', () => {
  it('is recognised by its media type, parameters aside', () => {
    expect(sequenceFormat('multipart/mixed')).toBe('multipart-mixed');
    expect(sequenceFormat('Multipart/Mixed; boundary=abc')).toBe('multipart-mixed');
    expect(sequenceFormat('multipart/form-data')).toBeUndefined();
  });

  it('writes each item as a part in the type its encoding gives, the boundary in the Content-Type', () => {
    const { contentType, body } = written([quote, 'second', 'third'], REPORT);
    expect(contentType).toBe('multipart/mixed; boundary=b1');
    expect(text(body)).toBe(
      [
        '--b1\r\nContent-Type: application/json\r\n\r\n{"symbol":"ABC","price":1.5}',
        '\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nsecond',
        '\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nthird',
        '\r\n--b1--\r\n',
      ].join(''),
    );
  });

  it('chooses a new boundary per stream unless the declared type names one', () => {
    const a = sequenceWriter('multipart-mixed', 'multipart/mixed');
    const b = sequenceWriter('multipart-mixed', 'multipart/mixed');
    expect(boundaryOf(a.contentType)).not.toBe(boundaryOf(b.contentType));
    expect(sequenceWriter('multipart-mixed', 'multipart/mixed; boundary=fixed').contentType).toBe('multipart/mixed; boundary=fixed');
  });

  it('reads the items back by each part\'s type, however the bytes are cut', async () => {
    const items = [quote, 'second line\r\n--not the boundary', 'é😀'];
    const { contentType, body } = written(items, REPORT, 'x-7');
    for (const size of [1, 2, 3, 7, body.length]) {
      expect(await collect(decodeSequence('multipart-mixed', chunksOf(body, size), { contentType, encoding: REPORT })), `size ${size}`).toEqual(items);
    }
    expect(decodeSequenceText('multipart-mixed', text(body), { contentType, encoding: REPORT })).toEqual(items);
  });

  it('writes by the value where no encoding is declared: JSON, text/plain or application/octet-stream', async () => {
    const raw = Uint8Array.of(0, 1, 254, 255);
    const { contentType, body } = written([{ a: [1] }, [2], 'text', raw, null, 3]);
    expect(text(body).match(/Content-Type: [^\r]+/g)).toEqual([
      'Content-Type: application/json',
      'Content-Type: application/json',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Type: application/octet-stream',
      'Content-Type: application/json',
      'Content-Type: application/json',
    ]);
    expect(await collect(decodeSequence('multipart-mixed', chunksOf(body, 5), { contentType }))).toEqual([{ a: [1] }, [2], 'text', raw, null, 3]);
  });

  it('reads bytes of a binary part as they came', async () => {
    const raw = Uint8Array.of(0, 13, 10, 45, 45, 255);
    const { contentType, body } = written([raw, 'x'], { itemEncoding: { contentType: 'image/png, text/plain' } });
    expect(text(body)).toContain('Content-Type: image/png\r\n');
    const items = await collect(decodeSequence('multipart-mixed', chunksOf(body, 4), { contentType, encoding: { itemEncoding: { contentType: 'image/*, text/plain' } } }));
    expect(items).toEqual([raw, 'x']);
  });

  it('refuses to write an item its part\'s type cannot carry', () => {
    const writer = sequenceWriter('multipart-mixed', 'multipart/mixed', { encoding: REPORT });
    writer.item(quote);
    expect(() => writer.item(quote)).toThrow(SequenceItemError);
    expect(() => writer.item(quote)).toThrow('a text/plain part carries a string, not an object');
    expect(() => sequenceWriter('multipart-mixed', 'multipart/mixed', { encoding: { itemEncoding: { contentType: 'image/png' } } }).item('x')).toThrow('bytes');
    expect(() => sequenceWriter('multipart-mixed', 'multipart/mixed').item(undefined)).toThrow('has no JSON text');
    expect(() => sequenceWriter('multipart-mixed', 'multipart/mixed', { encoding: { itemEncoding: { contentType: 'image/*' } } }).item('x')).toThrow('no media type in "image/*"');
  });

  it('refuses a received part whose Content-Type is not its encoding\'s, naming the part', async () => {
    const { contentType, body } = written(['not json first', 'fine'], { itemEncoding: { contentType: 'text/plain' } });
    const seen: unknown[] = [];
    const failure = await (async () => {
      for await (const item of decodeSequence('multipart-mixed', chunksOf(body, 5), { contentType, encoding: { prefixEncoding: [{}, { contentType: 'application/json' }] } })) seen.push(item);
    })().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(MultipartMixedError);
    expect(failure).toMatchObject({ part: 2, message: 'part 2: Content-Type text/plain; charset=utf-8 is not the application/json its encoding declares' });
    expect(seen).toEqual(['not json first']);
  });

  it('reads a part without Content-Type as text/plain (RFC 2046), and refuses JSON that is not', () => {
    const boundary = 'b1';
    expect(decodeSequenceText('multipart-mixed', '--b1\r\n\r\nplain\r\n--b1--', { contentType: `multipart/mixed; boundary=${boundary}` })).toEqual(['plain']);
    expect(() => decodeSequenceText('multipart-mixed', '--b1\r\nContent-Type: application/json\r\n\r\n{oops\r\n--b1--', { contentType: 'multipart/mixed; boundary=b1' })).toThrow(/^part 1: its application\/json body cannot be read: malformed JSON/);
    expect(() => decodeSequenceText('multipart-mixed', '--b1\r\nContent-Type: application/json\r\n\r\n{"__proto__":{}}\r\n--b1--', { contentType: 'multipart/mixed; boundary=b1' })).toThrow('__proto__');
  });

  it('decodes text parts in their charset', () => {
    const body = new Uint8Array([...bytes('--b1\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\n'), 0xe9, ...bytes('\r\n--b1--')]);
    const decoder = sequenceWriter('multipart-mixed', 'multipart/mixed; boundary=b1');
    expect(decoder.contentType).toBe('multipart/mixed; boundary=b1');
    return collect(decodeSequence('multipart-mixed', chunksOf(body, 3), { contentType: decoder.contentType })).then((items) => expect(items).toEqual(['é']));
  });

  it('reads a whole body without its Content-Type by the boundary of its first delimiter', () => {
    const { body } = written([quote, 'two'], REPORT, 'some-boundary');
    expect(decodeSequenceText('multipart-mixed', text(body))).toEqual([quote, 'two']);
    expect(decodeSequenceText('multipart-mixed', 'preamble\r\n--b1--\r\n')).toEqual([]);
    expect(() => decodeSequenceText('multipart-mixed', 'no delimiter')).toThrow(MultipartMixedError);
  });

  it('needs the boundary of the Content-Type to read a stream', async () => {
    await expect(collect(decodeSequence('multipart-mixed', chunksOf(bytes('--b1--'), 2), { contentType: 'multipart/mixed' }))).rejects.toThrow('names no boundary');
  });

  it('bounds each part with maxItemLength', async () => {
    const { contentType, body } = written(['x'.repeat(100)]);
    await expect(collect(decodeSequence('multipart-mixed', chunksOf(body, 16), { contentType, maxItemLength: 50 }))).rejects.toThrow('part 1 is longer than 50 bytes (maxPartSize)');
  });

  it('writes declared headers from their defaults, and refuses a required one it has no value for', () => {
    const encoding: SequenceEncoding = { itemEncoding: { contentType: 'text/plain', headers: { 'X-Kind': { required: true, default: 'note' }, 'X-Seq': { default: 1 }, 'X-Optional': {}, 'Content-Type': { default: 'ignored' } } } };
    const { contentType, body } = written(['a'], encoding);
    expect(text(body)).toContain('Content-Type: text/plain; charset=utf-8\r\nX-Kind: note\r\nX-Seq: 1\r\n\r\na');
    expect(decodeSequenceText('multipart-mixed', text(body), { contentType, encoding })).toEqual(['a']);
    expect(() => partOfItem('a', { headers: { 'X-Id': { required: true } } })).toThrow("the part's header X-Id is required, and has no default to write");
    expect(() => itemOfPart({ headers: {}, body: bytes('a') }, 3, { headers: { 'X-Id': { required: true } } })).toThrow('part 3: header X-Id is required');
  });

  it('is not written item by item without its writer', () => {
    expect(() => encodeSequenceItem('multipart-mixed', 'x')).toThrow(SequenceItemError);
  });

  it('counts its errors among the formats\' own', () => {
    expect(isSequenceFormatError(new MultipartMixedError('x'))).toBe(true);
    expect(isSequenceFormatError(new JsonLinesError('x'))).toBe(true);
    expect(isSequenceFormatError(new Error('x'))).toBe(false);
  });

  it('finds the part encodings the validators keep in a schema\'s bag', () => {
    const schema = { _zod: { bag: { bdsSequenceItem: {}, bdsSequenceEncoding: REPORT } } };
    expect(sequenceEncodingOf(schema)).toBe(REPORT);
    expect(sequenceEncodingOf({ _zod: { bag: {} } })).toBeUndefined();
    expect(sequenceEncodingOf(undefined)).toBeUndefined();
  });

  it('leaves the other formats as they were, with nothing to close', () => {
    const writer = sequenceWriter('json-lines', 'application/jsonl');
    expect(writer.contentType).toBe('application/jsonl');
    expect(writer.item({ a: 1 })).toBe('{"a":1}\n');
    expect(writer.end()).toBe('');
    expect(new MultipartMixedEncoder('b').contentType()).toBe('multipart/mixed; boundary=b');
  });
});
