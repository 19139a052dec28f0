import { describe, expect, it } from 'vitest';
import { decodeJsonSeq, encodeJsonSeqRecord, JsonSeqDecoder, JsonSeqError, type JsonSeqDecoderOptions } from '../src/index.js';
import { bytes, collect, cuts, source } from './support/chunks.js';

const RS = '\u001e';

interface Outcome {
  values: unknown[];
  error?: string;
  record?: number;
}

/** Feeds the chunks to one decoder, then ends it; an error is kept with the values before it. */
function decode(chunks: string[], options: JsonSeqDecoderOptions = {}): Outcome {
  const decoder = new JsonSeqDecoder(options);
  const values: unknown[] = [];
  try {
    for (const chunk of chunks) values.push(...decoder.push(chunk));
    values.push(...decoder.end());
  } catch (error) {
    if (!(error instanceof JsonSeqError)) throw error;
    values.push(...error.decoded);
    return { values, error: error.message, record: error.record };
  }
  return { values };
}

const values = (text: string, options?: JsonSeqDecoderOptions) => decode([text], options).values;

describe('JsonSeqDecoder', () => {
  it('gives each record as soon as the LF ending its JSON text arrives', () => {
    const decoder = new JsonSeqDecoder();
    expect(decoder.push(`${RS}{"a":1}`)).toEqual([]);
    expect(decoder.push('\n')).toEqual([{ a: 1 }]);
    expect(decoder.push(`${RS}[1,\n2`)).toEqual([]);
    expect(decoder.push(']\n')).toEqual([[1, 2]]);
    expect(decoder.push(`${RS}"s"\n${RS}42\n${RS}true\n${RS}null\n`)).toEqual(['s', 42, true, null]);
    expect(decoder.end()).toEqual([]);
  });

  it('waits for the end of a text spanning lines, whatever its strings hold', () => {
    expect(values(`${RS}{\n  "a": [\n    1\n  ]\n}\n`)).toEqual([{ a: [1] }]);
    const tricky = { s: '}]\n"{[', t: 'back\\slash\\', u: '\\"' };
    expect(values(`${RS}${JSON.stringify(tricky, null, 2)}\n${RS}1\n`)).toEqual([tricky, 1]);
    // Escaped quotes and backslashes do not end a string early, so the value comes at once.
    expect(new JsonSeqDecoder().push(`${RS}${JSON.stringify(tricky, null, 2)}\n`)).toEqual([tricky]);
    expect(new JsonSeqDecoder().push(`${RS}["\\"{[", "\\\\"]\n`)).toEqual([['"{[', '\\']]);
  });

  it('takes a record ended by the next RS or the end without LF, unless it may be truncated', () => {
    expect(values(`${RS}{"a":1}${RS}[2]${RS}"x"`)).toEqual([{ a: 1 }, [2], 'x']);
    expect(values(`${RS}1 ${RS}true\t${RS}null\r`)).toEqual([1, true, null]);
    for (const scalar of ['1', '-0.5', 'true', 'false', 'null']) {
      expect(decode([`${RS}${scalar}`]), scalar).toEqual({
        values: [],
        record: 1,
        error: 'record 1: a number, true, false or null not followed by whitespace may be truncated (RFC 7464 §2.4)',
      });
    }
    expect(decode([`${RS}"a"\n${RS}12${RS}3\n`])).toMatchObject({ values: ['a'], record: 2 });
  });

  it('skips empty and whitespace-only records', () => {
    expect(values(`${RS}${RS}${RS}1\n${RS}${RS}\n${RS} \t\r\n${RS}2\n${RS}`)).toEqual([1, 2]);
    expect(values(RS)).toEqual([]);
    expect(values('')).toEqual([]);
  });

  it('refuses anything before the first RS, whitespace and BOM included', () => {
    for (const start of ['1\n', ' ', '\n', '\uFEFF', 'x']) {
      expect(decode([`${start}${RS}1\n`]), JSON.stringify(start)).toEqual({ values: [], record: 1, error: 'record 1: text before the first RS (U+001E)' });
    }
  });

  it('names the failing record, counting the records that hold text', () => {
    let caught: unknown;
    try {
      new JsonSeqDecoder().push(`${RS}1\n${RS}${RS}{"a":}\n${RS}3\n`);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JsonSeqError);
    const error = caught as JsonSeqError;
    expect(error.name).toBe('JsonSeqError');
    expect(error.record).toBe(2);
    expect(error.message).toMatch(/^record 2: malformed JSON: /);
    expect(error.decoded).toEqual([1]);
  });

  it('refuses text after a record\'s JSON text', () => {
    expect(decode([`${RS}{"a":1}\n}\n`])).toMatchObject({ values: [{ a: 1 }], record: 1, error: 'record 1: text after its JSON text' });
    expect(decode([`${RS}1\n2\n`])).toMatchObject({ values: [1], record: 1 });
    expect(values(`${RS}1\n \t\r\n\n${RS}2\n`)).toEqual([1, 2]);
    // On one line, two texts are one malformed text.
    expect(decode([`${RS}{"a":1} {"b":2}\n`])).toMatchObject({ values: [], record: 1, error: expect.stringMatching(/^record 1: malformed JSON/) });
  });

  it('refuses __proto__ members and nesting deeper than maxDepth, as parseJsonSafely does', () => {
    expect(decode([`${RS}{"__proto__":1}\n`]).error).toBe('record 1: member "__proto__" is not allowed');
    expect(decode([`${RS}[[1]]\n${RS}[[[1]]]\n`], { maxDepth: 2 })).toEqual({ values: [[[1]]], record: 2, error: 'record 2: nesting deeper than 2 levels' });
  });

  it('throws JsonSeqError naming maxRecordLength for a longer record, finished or not', () => {
    expect(values(`${RS}[1,2,3]\n`, { maxRecordLength: 8 })).toEqual([[1, 2, 3]]);
    expect(decode([`${RS}1\n${RS}[1,2,34]\n`], { maxRecordLength: 8 })).toEqual({ values: [1], record: 2, error: 'record 2: longer than 8 characters (maxRecordLength)' });
    const decoder = new JsonSeqDecoder({ maxRecordLength: 8 });
    expect(decoder.push(`${RS}"1234`)).toEqual([]);
    expect(() => decoder.push('5678')).toThrow('record 1: longer than 8 characters (maxRecordLength)');
    // Whitespace after a given value is not kept, so it does not count.
    expect(values(`${RS}1\n${' '.repeat(20)}${RS}2\n`, { maxRecordLength: 8 })).toEqual([1, 2]);
    expect(() => new JsonSeqDecoder({ maxRecordLength: 0 })).toThrow(RangeError);
  });

  it('defaults maxRecordLength to 16 MiB', () => {
    const max = 16 * 1024 * 1024;
    expect(((values(`${RS}"${'x'.repeat(max - 3)}"\n`)[0] as string).length)).toBe(max - 3);
    expect(() => new JsonSeqDecoder().push(`${RS}"${'x'.repeat(max)}`)).toThrow(`longer than ${max} characters (maxRecordLength)`);
  });

  it('stays failed after an error, and starts afresh after end() otherwise', () => {
    const failed = new JsonSeqDecoder();
    expect(() => failed.push('x')).toThrow(JsonSeqError);
    expect(() => failed.push(`${RS}1\n`)).toThrow('record 1: text before the first RS');
    expect(() => failed.end()).toThrow(JsonSeqError);
    const decoder = new JsonSeqDecoder();
    expect(decoder.push(`${RS}1\n${RS}[2]`)).toEqual([1]);
    expect(decoder.end()).toEqual([[2]]);
    expect(() => decoder.push('x')).toThrow('record 1: text before the first RS');
  });

  it('gives the same values however the stream is cut into chunks', () => {
    const streams: Array<[string, JsonSeqDecoderOptions]> = [
      [`${RS}{"a":"}\\"\\\\"}\n${RS}${RS}[\n1,\n{"b":[]}\n]\n${RS}"é😀"\n${RS}7`, {}],
      [`${RS}1 ${RS}2\n\n${RS}  null\n${RS}{"x":1}`, {}],
      [`${RS}1\n${RS}{"a":}\n${RS}3\n`, {}],
      [`${RS}"1234"\n${RS}"1234567"\n`, { maxRecordLength: 8 }],
      [`${RS}true\n${RS}false`, {}],
    ];
    for (const [stream, options] of streams) {
      const whole = decode([stream], options);
      for (const chunks of cuts(stream)) expect(decode(chunks, options), JSON.stringify(chunks)).toEqual(whole);
    }
    expect(decode([streams[0]![0]])).toEqual({ values: [{ a: '}"\\' }, [1, { b: [] }], 'é😀'], record: 4, error: expect.stringContaining('truncated') });
    expect(decode([streams[1]![0]]).values).toEqual([1, 2, null, { x: 1 }]);
    expect(decode([streams[2]![0]])).toMatchObject({ values: [1], record: 2 });
    expect(decode([streams[3]![0]], streams[3]![1])).toMatchObject({ values: ['1234'], record: 2 });
    expect(decode([streams[4]![0]])).toMatchObject({ values: [true], record: 2 });
  });
});

describe('decodeJsonSeq', () => {
  it('decodes UTF-8 split anywhere across byte chunks', async () => {
    const encoded = bytes(`${RS}{"name":"café"}\n${RS}["😀","ü"]\n${RS}"last"`);
    const expected = [{ name: 'café' }, ['😀', 'ü'], 'last'];
    for (let i = 0; i <= encoded.length; i++) {
      expect(await collect(decodeJsonSeq(source([encoded.slice(0, i), encoded.slice(i)]))), `cut at ${i}`).toEqual(expected);
    }
    expect(await collect(decodeJsonSeq(source([...encoded].map((byte) => Uint8Array.of(byte)))))).toEqual(expected);
  });

  it('refuses a BOM before the first RS, as bytes too', async () => {
    await expect(collect(decodeJsonSeq(source([bytes(`\uFEFF${RS}1\n`)])))).rejects.toThrow('record 1: text before the first RS');
  });

  it('reads text chunks and byte chunks mixed, in order', async () => {
    expect(await collect(decodeJsonSeq(source<Uint8Array | string>([RS, bytes('[1,'), '2]\n', bytes(`${RS}3\n`)])))).toEqual([[1, 2], 3]);
  });

  it('yields the values before a failing record, then throws it', async () => {
    const seen: unknown[] = [];
    const run = async () => {
      for await (const value of decodeJsonSeq(source([`${RS}1\n${RS}2\n`, `${RS}3\n${RS}nope\n${RS}4\n`]))) seen.push(value);
    };
    const failure = await run().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(JsonSeqError);
    expect(failure).toMatchObject({ record: 4, message: expect.stringMatching(/^record 4: malformed JSON/) });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('applies the options', async () => {
    await expect(collect(decodeJsonSeq(source([`${RS}[[1]]\n`]), { maxDepth: 1 }))).rejects.toThrow('record 1: nesting deeper than 1 levels');
    await expect(collect(decodeJsonSeq(source([`${RS}123456\n`]), { maxRecordLength: 5 }))).rejects.toThrow('maxRecordLength');
  });
});

describe('encodeJsonSeqRecord', () => {
  it('writes RS, the JSON text and an LF', () => {
    expect(encodeJsonSeqRecord({ a: 1 })).toBe(`${RS}{"a":1}\n`);
    expect(encodeJsonSeqRecord(`a${RS}b`)).toBe(`${RS}"a\\u001eb"\n`);
    expect(encodeJsonSeqRecord(7)).toBe(`${RS}7\n`);
  });

  it('round-trips through the decoder, numbers and literals included', () => {
    const sent = [{ a: [1, { b: null }] }, `rs${RS}inside`, 'line\nbreak', '', 0, 12.5, -3, true, false, null, [], {}, 'é😀'];
    const text = sent.map(encodeJsonSeqRecord).join('');
    expect(values(text)).toEqual(sent);
    // Each record comes out as soon as it is written.
    const decoder = new JsonSeqDecoder();
    for (const value of sent) expect(decoder.push(encodeJsonSeqRecord(value))).toEqual([value]);
  });

  it('throws JsonSeqError for a value with no JSON text', () => {
    for (const value of [undefined, () => 1, Symbol('s'), 10n]) {
      expect(() => encodeJsonSeqRecord(value), String(typeof value)).toThrow(JsonSeqError);
    }
    expect(() => encodeJsonSeqRecord(undefined)).toThrow('a value of type undefined has no JSON text');
  });
});
