import { describe, expect, it } from 'vitest';
import {
  boundaryOf,
  decodeMultipartMixed,
  isMultipartBoundary,
  MultipartMixedDecoder,
  MultipartMixedEncoder,
  MultipartMixedError,
  MultipartPartTooLargeError,
  newMultipartBoundary,
  type MultipartMixedDecoderOptions,
  type MultipartPart,
} from '../src/index.js';
import { bytes, collect, cuts, source } from './support/chunks.js';

const text = (body: Uint8Array) => new TextDecoder().decode(body);

interface Outcome {
  parts: Array<{ headers: Readonly<Record<string, string>>; body: string }>;
  error?: string;
  name?: string;
  part?: number;
}

const readable = (part: MultipartPart) => ({ headers: part.headers, body: text(part.body) });

/** Feeds the chunks to one decoder, then ends it; an error is kept with the parts before it. */
function decode(chunks: Uint8Array[], options: MultipartMixedDecoderOptions = {}, boundary = 'b1'): Outcome {
  const decoder = new MultipartMixedDecoder(boundary, options);
  const parts: MultipartPart[] = [];
  try {
    for (const chunk of chunks) parts.push(...decoder.push(chunk));
    parts.push(...decoder.end());
  } catch (error) {
    if (!(error instanceof MultipartMixedError)) throw error;
    parts.push(...error.decoded);
    return { parts: parts.map(readable), error: error.message, name: error.name, ...(error.part === undefined ? {} : { part: error.part }) };
  }
  return { parts: parts.map(readable) };
}

const whole = (body: string, options?: MultipartMixedDecoderOptions) => decode([bytes(body)], options);

const TWO_PARTS = [
  'This is the preamble; it is ignored.\r\n',
  '--b1\r\n',
  'Content-Type: application/json\r\n',
  'X-Part: one\r\n',
  '\r\n',
  '{"a":1}\r\n',
  '--b1 \t\r\n',
  'content-type: text/plain; charset=utf-8\r\n',
  '\r\n',
  'line one\r\nline two\r\n',
  '--b1--\r\n',
  'The epilogue, ignored too.\r\n--b1\r\nnot a part\r\n',
].join('');

describe('MultipartMixedDecoder', () => {
  it('gives each part, its headers lower-case, preamble and epilogue skipped', () => {
    expect(whole(TWO_PARTS)).toEqual({
      parts: [
        { headers: { 'content-type': 'application/json', 'x-part': 'one' }, body: '{"a":1}' },
        { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'line one\r\nline two' },
      ],
    });
  });

  it('gives a part as soon as the delimiter after it arrives', () => {
    const decoder = new MultipartMixedDecoder('b1');
    expect(decoder.push(bytes('--b1\r\n\r\nfirst'))).toEqual([]);
    expect(decoder.push(bytes('\r\n--b1')).map(readable)).toEqual([{ headers: {}, body: 'first' }]);
    expect(decoder.push(bytes('\r\n\r\nsecond\r\n--b1--'))).toHaveLength(1);
    expect(decoder.end()).toEqual([]);
  });

  it('reads a delimiter opening the body, parts without headers, and empty bodies', () => {
    expect(whole('--b1\r\n\r\n\r\n--b1\r\nA: 1\r\n\r\n\r\n--b1--')).toEqual({ parts: [{ headers: {}, body: '' }, { headers: { a: '1' }, body: '' }] });
    // The close delimiter alone: a body of no part.
    expect(whole('--b1--\r\n')).toEqual({ parts: [] });
    expect(whole('preamble\r\n--b1--')).toEqual({ parts: [] });
  });

  it('takes only CRLF before a delimiter: a bare LF leaves the line in the body', () => {
    expect(whole('--b1\r\n\r\nx\n--b1\r\n--b1--').parts).toEqual([{ headers: {}, body: 'x\n--b1' }]);
    expect(whole('--b1\r\n\r\nx\r\n\r\n--b1--').parts).toEqual([{ headers: {}, body: 'x\r\n' }]);
  });

  it('joins folded and repeated header lines', () => {
    expect(whole('--b1\r\nX-A: one\r\n two\r\nX-B: 1\r\nx-b: 2\r\n\r\nz\r\n--b1--').parts[0]!.headers).toEqual({ 'x-a': 'one two', 'x-b': '1, 2' });
  });

  it('keeps body bytes as they came, CR, LF and dashes included', () => {
    const body = Uint8Array.of(0, 13, 10, 45, 45, 98, 13, 255, 10, 13);
    const framed = new Uint8Array([...bytes('--b1\r\n\r\n'), ...body, ...bytes('\r\n--b1--')]);
    const decoder = new MultipartMixedDecoder('b1');
    const [part] = decoder.push(framed);
    expect(part!.body).toEqual(body);
  });

  it('refuses a line that opens with the boundary but is not a delimiter', () => {
    expect(whole('--b1\r\n\r\nx\r\n--b12\r\n--b1--')).toMatchObject({ parts: [{ body: 'x' }], part: 2, error: expect.stringContaining('not a delimiter') });
    expect(whole('--b1\r\n\r\nx\r\n--b1-x')).toMatchObject({ parts: [{ body: 'x' }], part: 2 });
    expect(whole('--b1x\r\n')).toMatchObject({ part: 1 });
  });

  it('refuses a malformed header line, naming the part', () => {
    expect(whole('--b1\r\n\r\na\r\n--b1\r\nno colon here\r\n\r\nb\r\n--b1--')).toMatchObject({ parts: [{ body: 'a' }], part: 2, error: expect.stringContaining('is not a header line') });
    expect(whole('--b1\r\nBad Name: x\r\n\r\nb\r\n--b1--').part).toBe(1);
  });

  it('refuses a body that ends before its close delimiter, or has no delimiter', () => {
    expect(whole('--b1\r\n\r\na\r\n--b1\r\n\r\nb')).toEqual({ parts: [{ headers: {}, body: 'a' }], part: 2, name: 'MultipartMixedError', error: 'part 2: the body ended before its close delimiter' });
    expect(whole('--b1\r\n\r\na\r\n--b1')).toMatchObject({ parts: [{ body: 'a' }], part: 1 });
    expect(whole('just text')).toEqual({ parts: [], name: 'MultipartMixedError', error: 'no boundary delimiter was found' });
    expect(whole('')).toMatchObject({ error: 'no boundary delimiter was found' });
  });

  it('throws MultipartPartTooLargeError past maxPartSize, finished or not', () => {
    expect(whole('--b1\r\n\r\n12345678\r\n--b1--', { maxPartSize: 8 })).toEqual({ parts: [{ headers: {}, body: '12345678' }] });
    expect(whole('--b1\r\n\r\n1\r\n--b1\r\n\r\n123456789\r\n--b1--', { maxPartSize: 8 })).toEqual({
      parts: [{ headers: {}, body: '1' }],
      name: 'MultipartPartTooLargeError',
      part: 2,
      error: 'part 2 is longer than 8 bytes (maxPartSize)',
    });
    const decoder = new MultipartMixedDecoder('b1', { maxPartSize: 8 });
    decoder.push(bytes('--b1\r\n\r\n'));
    let caught: unknown;
    // No delimiter ever comes: the part is refused as it grows, not when it ends.
    for (let i = 0; i < 10 && caught === undefined; i++) {
      try {
        decoder.push(bytes('12345'));
      } catch (error) {
        caught = error;
      }
    }
    expect(caught).toBeInstanceOf(MultipartPartTooLargeError);
    expect((caught as MultipartPartTooLargeError).limit).toBe(8);
    expect(() => new MultipartMixedDecoder('b1', { maxPartSize: 0 })).toThrow(RangeError);
  });

  it('bounds the preamble and each header block too', () => {
    expect(whole(`${'p'.repeat(100)}\r\n--b1--`, { maxPartSize: 50 })).toMatchObject({ name: 'MultipartPartTooLargeError', error: 'the preamble is longer than 50 bytes (maxPartSize)' });
    expect(whole(`--b1\r\nX: ${'v'.repeat(100)}\r\n\r\n\r\n--b1--`, { maxHeaderSize: 50 })).toMatchObject({ name: 'MultipartPartTooLargeError', part: 1 });
    expect(whole(`--b1\r\nX: ${'v'.repeat(100)}`, { maxHeaderSize: 50 })).toMatchObject({ name: 'MultipartPartTooLargeError', part: 1 });
  });

  it('stays failed after an error, and starts afresh after end()', () => {
    const failed = new MultipartMixedDecoder('b1', { maxPartSize: 2 });
    expect(() => failed.push(bytes('--b1\r\n\r\n123\r\n--b1'))).toThrow(MultipartPartTooLargeError);
    expect(() => failed.push(bytes('--'))).toThrow(MultipartPartTooLargeError);
    expect(() => failed.end()).toThrow('part 1 is longer than 2 bytes');
    const decoder = new MultipartMixedDecoder('b1');
    expect(decoder.push(bytes('--b1\r\n\r\na\r\n--b1--'))).toHaveLength(1);
    expect(decoder.end()).toEqual([]);
    expect(decoder.push(bytes('--b1\r\n\r\nb\r\n--b1--')).map(readable)).toEqual([{ headers: {}, body: 'b' }]);
  });

  it('gives the same parts and errors however the bytes are cut into chunks', () => {
    const streams: Array<[string, MultipartMixedDecoderOptions]> = [
      [TWO_PARTS, {}],
      ['--b1\r\n\r\n\r\n--b1\r\n\r\nx\n--b1\r\n--b1--', {}],
      ['pre\r\n--b1\r\nA: 1\r\n\r\na\r\n--b1\r\nbroken\r\n\r\nb\r\n--b1--', {}],
      ['--b1\r\n\r\n1234\r\n--b1\r\n\r\n12345678\r\n--b1--', { maxPartSize: 6 }],
      ['--b1\r\n\r\ncafé 😀\r\n--b1\r\n\r\nlast', {}],
      // Limits met exactly, and missed by one byte.
      [`${'p'.repeat(20)}\r\n--b1\r\nX: 12345\r\n\r\nbody\r\n--b1--`, { maxPartSize: 20, maxHeaderSize: 8 }],
      [`${'p'.repeat(20)}\r\n--b1--`, { maxPartSize: 19 }],
      ['--b1\r\nX: 12345\r\n\r\nbody\r\n--b1--', { maxHeaderSize: 7 }],
    ];
    for (const [stream, options] of streams) {
      const expected = whole(stream, options);
      for (const chunks of cuts(bytes(stream))) expect(decode(chunks, options), JSON.stringify(chunks.map((c) => text(c)))).toEqual(expected);
    }
    expect(whole(streams[2]![0])).toMatchObject({ parts: [{ body: 'a' }], part: 2 });
    expect(whole(streams[3]![0], { maxPartSize: 6 })).toMatchObject({ parts: [{ body: '1234' }], part: 2 });
    expect(whole(streams[4]![0]).parts).toEqual([{ headers: {}, body: 'café 😀' }]);
    expect(whole(...streams[5]!)).toEqual({ parts: [{ headers: { x: '12345' }, body: 'body' }] });
    expect(whole(...streams[6]!)).toMatchObject({ name: 'MultipartPartTooLargeError', error: 'the preamble is longer than 19 bytes (maxPartSize)' });
    expect(whole(...streams[7]!)).toMatchObject({ name: 'MultipartPartTooLargeError', part: 1 });
  });

  it('takes only boundaries RFC 2046 allows', () => {
    expect(isMultipartBoundary('simple boundary')).toBe(true);
    expect(isMultipartBoundary("'()+_,-./:=?")).toBe(true);
    expect(isMultipartBoundary('x'.repeat(70))).toBe(true);
    for (const bad of ['', 'x'.repeat(71), 'ends in space ', 'semi;colon', 'quote"d', 'line\r\nbreak']) expect(isMultipartBoundary(bad), bad).toBe(false);
    expect(() => new MultipartMixedDecoder('')).toThrow(MultipartMixedError);
  });

  it('finds the boundary parameter of a Content-Type, quoted or not', () => {
    expect(boundaryOf('multipart/mixed; boundary=abc')).toBe('abc');
    expect(boundaryOf('Multipart/Mixed; Boundary="a b:c"')).toBe('a b:c');
    expect(boundaryOf('multipart/mixed')).toBeUndefined();
    expect(boundaryOf(undefined)).toBeUndefined();
  });
});

describe('decodeMultipartMixed', () => {
  it('reads byte chunks and text chunks, in order', async () => {
    const parts = await collect(decodeMultipartMixed(source<Uint8Array | string>(['--b1\r\n\r\nca', bytes('fé\r\n--b'), '1--']), 'b1'));
    expect(parts.map(readable)).toEqual([{ headers: {}, body: 'café' }]);
  });

  it('yields the parts before a failure, then throws it', async () => {
    const seen: MultipartPart[] = [];
    const run = async () => {
      for await (const part of decodeMultipartMixed(source([bytes('--b1\r\n\r\na\r\n--b1\r\n\r\nb\r\n--b1'), bytes('\r\nbad line\r\n\r\n')]), 'b1')) seen.push(part);
    };
    const failure = await run().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(MultipartMixedError);
    expect(failure).toMatchObject({ part: 3 });
    expect(seen.map(readable).map((p) => p.body)).toEqual(['a', 'b']);
  });

  it('applies maxPartSize', async () => {
    await expect(collect(decodeMultipartMixed(source([bytes('--b1\r\n\r\n123456\r\n--b1--')]), 'b1', { maxPartSize: 5 }))).rejects.toBeInstanceOf(MultipartPartTooLargeError);
  });
});

describe('MultipartMixedEncoder', () => {
  it('writes each part with the delimiter after it, then the close delimiter', () => {
    const writer = new MultipartMixedEncoder('b1');
    const out = [writer.part({ 'Content-Type': 'application/json' }, bytes('{"a":1}')), writer.part({ 'Content-Type': 'text/plain', 'X-Part': 'two' }, bytes('hi')), writer.end()];
    expect(out.map(text).join('')).toBe('--b1\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--b1\r\nContent-Type: text/plain\r\nX-Part: two\r\n\r\nhi\r\n--b1--\r\n');
    expect(writer.parts).toBe(2);
    expect(writer.end()).toEqual(new Uint8Array(0));
    expect(() => writer.part({}, bytes('late'))).toThrow(MultipartMixedError);
  });

  it('writes a body of no part as the close delimiter alone', () => {
    const writer = new MultipartMixedEncoder('b1');
    expect(text(writer.end())).toBe('--b1--\r\n');
    expect(whole(text(new MultipartMixedEncoder('b1').end()))).toEqual({ parts: [] });
  });

  it('names its boundary in the Content-Type, quoted where it must be', () => {
    expect(new MultipartMixedEncoder('b1').contentType()).toBe('multipart/mixed; boundary=b1');
    expect(new MultipartMixedEncoder('a b:c').contentType('multipart/related')).toBe('multipart/related; boundary="a b:c"');
    expect(boundaryOf(new MultipartMixedEncoder('a b:c').contentType())).toBe('a b:c');
  });

  it('chooses a new random boundary for each body', () => {
    const seen = new Set(Array.from({ length: 50 }, () => new MultipartMixedEncoder().boundary));
    expect(seen.size).toBe(50);
    for (const boundary of seen) expect(isMultipartBoundary(boundary)).toBe(true);
    expect(newMultipartBoundary()).toMatch(/^bds-[0-9A-Za-z]{28}$/);
  });

  it('refuses a header that would break the part, and a body holding the boundary', () => {
    const writer = new MultipartMixedEncoder('b1');
    expect(() => writer.part({ 'X-A': 'one\r\nX-Injected: yes' }, bytes(''))).toThrow('not header text');
    expect(() => writer.part({ 'Bad Name': 'x' }, bytes(''))).toThrow('is not a header name');
    expect(() => writer.part({}, bytes('text\r\n--b1--\r\n'))).toThrow('its body holds the boundary');
    // Nothing was written: the next part is still the first.
    expect(text(writer.part({}, bytes('ok')))).toBe('--b1\r\n\r\nok\r\n--b1');
  });

  it('round-trips any bytes through the decoder, cut anywhere', () => {
    const bodies = [bytes(''), bytes('{"a":[1,2]}'), Uint8Array.of(13, 10, 45, 45, 13, 10, 0, 255), bytes('\r\n\r\n'), bytes('é😀')];
    const writer = new MultipartMixedEncoder();
    const pieces = [...bodies.map((body, i) => writer.part({ 'Content-Type': 'application/octet-stream', 'X-N': String(i) }, body)), writer.end()];
    const stream = new Uint8Array(pieces.flatMap((piece) => [...piece]));
    for (const chunks of cuts(stream)) {
      const decoder = new MultipartMixedDecoder(writer.boundary);
      const parts = [...chunks.flatMap((chunk) => decoder.push(chunk)), ...decoder.end()];
      expect(parts.map((p) => p.body)).toEqual(bodies);
      expect(parts.map((p) => p.headers['x-n'])).toEqual(['0', '1', '2', '3', '4']);
    }
  });
});
