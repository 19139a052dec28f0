import { describe, expect, it } from 'vitest';
import { decodeJsonLines, encodeJsonLine, JsonLinesDecoder, JsonLinesError, type JsonLinesDecoderOptions } from '../src/index.js';
import { bytes, collect, cuts, source } from './support/chunks.js';

interface Outcome {
  values: unknown[];
  error?: string;
  line?: number;
}

/** Feeds the chunks to one decoder, then ends it; an error is kept with the values before it. */
function decode(chunks: string[], options: JsonLinesDecoderOptions = {}): Outcome {
  const decoder = new JsonLinesDecoder(options);
  const values: unknown[] = [];
  try {
    for (const chunk of chunks) values.push(...decoder.push(chunk));
    values.push(...decoder.end());
  } catch (error) {
    if (!(error instanceof JsonLinesError)) throw error;
    values.push(...error.decoded);
    return { values, error: error.message, line: error.line };
  }
  return { values };
}

const values = (text: string, options?: JsonLinesDecoderOptions) => decode([text], options).values;

describe('JsonLinesDecoder', () => {
  it('gives one value per line, as each line completes', () => {
    const decoder = new JsonLinesDecoder();
    expect(decoder.push('{"a":1}\n[2,')).toEqual([{ a: 1 }]);
    expect(decoder.push('3]\n"x"\n')).toEqual([[2, 3], 'x']);
    expect(decoder.push('null\ntrue\n-1.5e3\n')).toEqual([null, true, -1500]);
    expect(decoder.end()).toEqual([]);
  });

  it('drops one CR before each LF', () => {
    expect(values('1\r\n2\r\n')).toEqual([1, 2]);
    expect(values('"a"\r\r\n')).toEqual(['a']); // the other CR is whitespace around the JSON text
    // A CR alone does not end a line.
    expect(decode(['1\r2\n'])).toMatchObject({ line: 1 });
  });

  it('skips blank and whitespace-only lines, counting them for line numbers', () => {
    expect(values('\n1\n\n \t\n\r\n2\n\n')).toEqual([1, 2]);
    expect(decode(['\n\n  \nnope\n'])).toMatchObject({ values: [], line: 4 });
  });

  it('reads a last line without LF at end()', () => {
    const decoder = new JsonLinesDecoder();
    expect(decoder.push('1\n{"b":2}')).toEqual([1]);
    expect(decoder.end()).toEqual([{ b: 2 }]);
    expect(values('1\n2\r')).toEqual([1, 2]);
    expect(values('1\n   ')).toEqual([1]);
    expect(decode(['1\n{"b":']).line).toBe(2);
  });

  it('throws JsonLinesError naming the line and the reason', () => {
    let caught: unknown;
    try {
      new JsonLinesDecoder().push('{"a":1}\n\n{"a":\n');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(JsonLinesError);
    const error = caught as JsonLinesError;
    expect(error.name).toBe('JsonLinesError');
    expect(error.line).toBe(3);
    expect(error.message).toMatch(/^line 3: malformed JSON: /);
    // The values before it in the chunk are not lost.
    expect(error.decoded).toEqual([{ a: 1 }]);
  });

  it('refuses __proto__ members and nesting deeper than maxDepth, as parseJsonSafely does', () => {
    expect(decode(['1\n{"x":{"__proto__":{}}}\n'])).toEqual({ values: [1], line: 2, error: 'line 2: member "__proto__" is not allowed' });
    expect(decode(['[[1]]\n[[[1]]]\n'], { maxDepth: 2 })).toEqual({ values: [[[1]]], line: 2, error: 'line 2: nesting deeper than 2 levels' });
    expect(decode([`${'['.repeat(65)}${']'.repeat(65)}\n`]).error).toBe('line 1: nesting deeper than 64 levels');
  });

  it('does not take a line with two JSON texts or a trailing comma', () => {
    expect(decode(['1 2\n']).line).toBe(1);
    expect(decode(['{"a":1}{"b":2}\n']).line).toBe(1);
    expect(decode(['[1,]\n']).line).toBe(1);
  });

  it('stays failed after an error', () => {
    const decoder = new JsonLinesDecoder();
    expect(() => decoder.push('x\n')).toThrow(JsonLinesError);
    expect(() => decoder.push('1\n')).toThrow('line 1: malformed JSON');
    expect(() => decoder.end()).toThrow(JsonLinesError);
  });

  it('drops a BOM opening the stream only', () => {
    expect(values('\uFEFF1\n2\n')).toEqual([1, 2]);
    expect(decode(['', '\uFEFF1\n']).values).toEqual([1]);
    expect(decode(['1\n\uFEFF2\n'])).toMatchObject({ values: [1], line: 2 });
    expect(decode(['\uFEFF\uFEFF1\n']).line).toBe(1);
  });

  it('restarts line numbers and the BOM after end()', () => {
    const decoder = new JsonLinesDecoder();
    expect(decoder.push('1\n2\n')).toEqual([1, 2]);
    expect(decoder.end()).toEqual([]);
    expect(decoder.push('\uFEFF3\n')).toEqual([3]);
    expect(() => decoder.push('bad\n')).toThrow(expect.objectContaining({ line: 2 }));
  });

  it('throws JsonLinesError naming maxLineLength for a longer line, finished or not', () => {
    expect(values('12345678\n', { maxLineLength: 8 })).toEqual([12345678]);
    expect(decode(['1\n123456789\n'], { maxLineLength: 8 })).toEqual({ values: [1], line: 2, error: 'line 2 is longer than 8 characters (maxLineLength)' });
    // The CR before LF counts: the line is read as it came.
    expect(decode(['12345678\r\n'], { maxLineLength: 8 }).line).toBe(1);
    const decoder = new JsonLinesDecoder({ maxLineLength: 8 });
    expect(decoder.push('"1234')).toEqual([]);
    expect(() => decoder.push('5678')).toThrow('line 1 is longer than 8 characters (maxLineLength)');
    expect(() => new JsonLinesDecoder({ maxLineLength: -1 })).toThrow(RangeError);
  });

  it('defaults maxLineLength to 16 MiB', () => {
    const max = 16 * 1024 * 1024;
    const fits = `"${'x'.repeat(max - 2)}"\n`;
    expect((values(fits)[0] as string).length).toBe(max - 2);
    expect(() => new JsonLinesDecoder().push(`"${'x'.repeat(max - 1)}"`)).toThrow(`line 1 is longer than ${max} characters (maxLineLength)`);
  });

  it('gives the same values however the stream is cut into chunks', () => {
    const streams: Array<[string, JsonLinesDecoderOptions]> = [
      ['{"a":"x\\ny"}\n[1,2]\r\n\r\n  \n"é😀"\n3', {}],
      ['\uFEFF1\r\n2\r\n\r\n', {}],
      ['1\n2\n{"bad"\n3\n', {}],
      ['"12345"\n"1234567"\n', { maxLineLength: 8 }],
    ];
    for (const [stream, options] of streams) {
      const whole = decode([stream], options);
      for (const chunks of cuts(stream)) expect(decode(chunks, options), JSON.stringify(chunks)).toEqual(whole);
    }
    expect(decode([streams[0]![0]]).values).toEqual([{ a: 'x\ny' }, [1, 2], 'é😀', 3]);
    expect(decode([streams[2]![0]])).toMatchObject({ values: [1, 2], line: 3 });
    expect(decode([streams[3]![0]], { maxLineLength: 8 })).toMatchObject({ values: ['12345'], line: 2 });
  });
});

describe('decodeJsonLines', () => {
  it('decodes UTF-8 split anywhere across byte chunks', async () => {
    const encoded = bytes('\uFEFF{"name":"café"}\r\n["😀","ü"]\n"last"');
    const expected = [{ name: 'café' }, ['😀', 'ü'], 'last'];
    for (let i = 0; i <= encoded.length; i++) {
      expect(await collect(decodeJsonLines(source([encoded.slice(0, i), encoded.slice(i)]))), `cut at ${i}`).toEqual(expected);
    }
    expect(await collect(decodeJsonLines(source([...encoded].map((byte) => Uint8Array.of(byte)))))).toEqual(expected);
  });

  it('reads text chunks and byte chunks mixed, in order', async () => {
    expect(await collect(decodeJsonLines(source<Uint8Array | string>(['[1,', bytes('2]\n"'), 'x"\n'])))).toEqual([[1, 2], 'x']);
  });

  it('yields the values before a failing line, then throws it', async () => {
    const seen: unknown[] = [];
    const run = async () => {
      for await (const value of decodeJsonLines(source(['1\n2\n', '3\n{oops}\n4\n']), { maxDepth: 5 })) seen.push(value);
    };
    const failure = await run().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(JsonLinesError);
    expect(failure).toMatchObject({ line: 4, message: expect.stringMatching(/^line 4: malformed JSON/) });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('applies the options', async () => {
    await expect(collect(decodeJsonLines(source(['[[1]]\n']), { maxDepth: 1 }))).rejects.toThrow('line 1: nesting deeper than 1 levels');
    await expect(collect(decodeJsonLines(source(['123456']), { maxLineLength: 5 }))).rejects.toThrow('maxLineLength');
  });
});

describe('encodeJsonLine', () => {
  it('writes the JSON text and an LF', () => {
    expect(encodeJsonLine({ a: 1 })).toBe('{"a":1}\n');
    expect(encodeJsonLine('x\ny')).toBe('"x\\ny"\n');
    expect(encodeJsonLine(null)).toBe('null\n');
  });

  it('round-trips through the decoder', () => {
    const sent = [{ a: [1, { b: null }] }, 'line\nbreak\r\n', '\u2028\u2029', '', 0, -0.5, true, null, [], {}, 'é😀', ' spaced '];
    expect(values(sent.map(encodeJsonLine).join(''))).toEqual(sent);
  });

  it('throws JsonLinesError for a value with no JSON text', () => {
    for (const value of [undefined, () => 1, Symbol('s'), 10n]) {
      expect(() => encodeJsonLine(value), String(typeof value)).toThrow(JsonLinesError);
    }
    expect(() => encodeJsonLine(undefined)).toThrow('a value of type undefined has no JSON text');
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => encodeJsonLine(cycle)).toThrow(JsonLinesError);
  });
});
