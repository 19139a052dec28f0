/**
 * Long adversarial input against every reader of request and response bytes in this package:
 * each answers correctly within a safety bound. The shapes are those that make a naive
 * reading super-linear (a regular expression that backtracks, a rescan or a copy per chunk,
 * a value rebuilt per line); see the README's "Our own parsers and format checks".
 */
import { describe, expect, it } from 'vitest';
import {
  acceptedContentType,
  applyParameterStyles,
  cookieObject,
  cookieParts,
  decodeBody,
  decodeForm,
  decodeSequenceText,
  EventStreamDecoder,
  isHeaderText,
  isMultipartBoundary,
  JsonLinesDecoder,
  jsonPath,
  jsonPointer,
  JsonSeqDecoder,
  MultipartMixedDecoder,
  negotiate,
  parseJsonSafely,
  parseMediaType,
  queryObject,
  type ParameterWire,
} from '../src/index.js';
import { partHeaders } from '../src/multipart-headers.js';
import { withoutTrailing } from '../src/trim-end.js';
import { bytes } from './support/chunks.js';
import { KiB, MiB, SAFETY_BOUND_MS, timed, timedThrow } from './support/safety-bound.js';

describe('multipart/mixed reading', () => {
  it('joins 512 KiB of folded header lines in linear time', () => {
    const lines = 128 * KiB;
    const block = `--b\r\nX-A: a${'\r\n a'.repeat(lines)}\r\n\r\nbody\r\n--b--`;
    const { value, ms } = timed(() => new MultipartMixedDecoder('b', { maxHeaderSize: MiB }).push(bytes(block)));
    expect(value).toHaveLength(1);
    expect(value[0]!.headers['x-a']).toBe(`a${' a'.repeat(lines)}`);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('reads a header block that arrives a byte at a time without rescanning it', () => {
    const head = bytes(`--b\r\n${'X-A: a\r\n'.repeat(8 * KiB)}\r\n`);
    const decoder = new MultipartMixedDecoder('b', { maxHeaderSize: 128 * KiB });
    const { ms } = timed(() => {
      for (const byte of head) decoder.push(Uint8Array.of(byte));
    });
    const [part] = decoder.push(bytes('body\r\n--b--'));
    expect(part!.headers['x-a']).toBe(Array.from({ length: 8 * KiB }, () => 'a').join(', '));
    expect(new TextDecoder().decode(part!.body)).toBe('body');
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('reads transport padding that arrives a byte at a time without rescanning it', () => {
    const decoder = new MultipartMixedDecoder('b', { maxHeaderSize: 256 * KiB });
    decoder.push(bytes('--b'));
    const { ms } = timed(() => {
      for (let i = 0; i < 128 * KiB; i++) decoder.push(Uint8Array.of(0x20));
    });
    expect(decoder.push(bytes('\r\n\r\nx\r\n--b--'))).toEqual([{ headers: {}, body: bytes('x') }]);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('refuses a header block over the limit that arrives a byte at a time, in linear time', () => {
    const decoder = new MultipartMixedDecoder('b');
    decoder.push(bytes('--b\r\n'));
    const { error, ms } = timedThrow(() => {
      for (let i = 0; i < 65 * KiB; i++) decoder.push(i % 8 === 7 ? Uint8Array.of(13) : Uint8Array.of(0x61));
    });
    expect(error).toMatchObject({ name: 'MultipartPartTooLargeError', part: 1 });
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('finds delimiters in a 1 MiB body full of near-delimiters', () => {
    const boundary = 'b'.repeat(70);
    const body = `\r\n--${'b'.repeat(69)}c`.repeat(MiB / 76);
    const { value, ms } = timed(() => new MultipartMixedDecoder(boundary).push(bytes(`--${boundary}\r\n\r\n${body}\r\n--${boundary}--`)));
    expect(value).toHaveLength(1);
    expect(value[0]!.body).toHaveLength(bytes(body).length);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('looks for a boundary in 1 MiB of text without one, and checks a 1 MiB boundary parameter', () => {
    const { error, ms } = timedThrow(() => decodeSequenceText('multipart-mixed', '\r\n-'.repeat(MiB / 3)));
    expect(error).toMatchObject({ message: 'no boundary delimiter was found' });
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    const boundary = timed(() => isMultipartBoundary(`${'a '.repeat(MiB / 2)} `));
    expect(boundary.value).toBe(false);
    expect(boundary.ms).toBeLessThan(SAFETY_BOUND_MS);
  });
});

describe('header blocks fold as before (the linear reading changes no answer)', () => {
  // The reading this package had: the value rebuilt and trimmed at every folded line.
  function rebuiltPerLine(text: string): Record<string, string> {
    const headers: Record<string, string> = {};
    let last: string | undefined;
    for (const line of text.split('\r\n')) {
      if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
        headers[last] = `${headers[last]} ${line.trim()}`.trim();
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon < 0 ? '' : line.slice(0, colon).trim().toLowerCase();
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new Error('not a header line');
      const value = line.slice(colon + 1).trim();
      headers[name] = Object.prototype.hasOwnProperty.call(headers, name) ? `${headers[name]}, ${value}` : value;
      last = name;
    }
    return headers;
  }

  it('gives the same headers on 2000 random blocks of names, values, folds and white space', () => {
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const atoms = ['X-A: ', 'x-a:', 'X-B:  v ', ' ', '\t', '  w  ', ' \t', 'v', '\u00a0', ' \u00a0x', 'X-A: \u00a0', 'X-C:', ' ,', ''];
    for (let round = 0; round < 2000; round++) {
      const lines = Array.from({ length: 1 + next(8) }, () => atoms[next(atoms.length)]! + (next(3) === 0 ? atoms[next(atoms.length)]! : ''));
      const text = lines.join('\r\n');
      let expected: Record<string, string> | string;
      try {
        expected = rebuiltPerLine(text);
      } catch {
        expected = 'refused';
      }
      let actual: Record<string, string> | string;
      try {
        actual = partHeaders(text);
      } catch {
        actual = 'refused';
      }
      expect(actual, JSON.stringify(text)).toEqual(expected);
    }
  });
});

describe('headers, cookies, query strings and media types', () => {
  it('splits a 1 MiB Cookie header', () => {
    const header = 'a=b; '.repeat(200 * KiB);
    const parts = timed(() => cookieParts(header));
    expect(parts.value).toHaveLength(200 * KiB);
    expect(parts.ms).toBeLessThan(SAFETY_BOUND_MS);
    const object = timed(() => cookieObject(`${'x'.repeat(MiB)}=1; b=${'%'.repeat(MiB)}`));
    expect(object.value).toEqual({ ['x'.repeat(MiB)]: '1', b: '%'.repeat(MiB) });
    expect(object.ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('reads a 1 MiB query string', () => {
    const { value, ms } = timed(() => queryObject(new URLSearchParams('a=1&'.repeat(MiB / 4))));
    expect(value['a']).toHaveLength(256);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    // As text: pairs without `=` before one at the very end, and pairs that are all escapes.
    for (const text of [`${'a&'.repeat(MiB / 2)}=`, 'a=1&'.repeat(MiB / 4), `a=${'%41'.repeat(MiB / 3)}`, `${'&'.repeat(MiB)}a=1`]) {
      const read = timed(() => queryObject(text));
      expect(Object.keys(read.value)).toStrictEqual(['a']);
      expect(read.ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });

  it('negotiates a 1 MiB Accept header of ranges, quotes or parameters', () => {
    for (const accept of ['a/b;q=0.1,'.repeat(MiB / 10), `a/b;x="${',"'.repeat(MiB / 2)}`, `a/b${';a=b'.repeat(MiB / 4)}`, `${' '.repeat(MiB)}application/json`]) {
      const { value, ms } = timed(() => negotiate(accept, ['application/json']));
      expect(value).toBe(accept.trim() === 'application/json' ? 'application/json' : undefined);
      expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });

  it('matches a 1 MiB Content-Type', () => {
    const params = timed(() => acceptedContentType(`application/json${';a=b'.repeat(MiB / 4)}`, ['application/json']));
    expect(params.value).toBe('application/json');
    expect(params.ms).toBeLessThan(SAFETY_BOUND_MS);
    const spaces = timed(() => parseMediaType(`a/${' '.repeat(MiB)}b${' ;'.repeat(MiB / 2)}`));
    expect(spaces.value).toMatchObject({ type: 'a', subtype: 'b' });
    expect(spaces.ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('checks 1 MiB header texts that fail at their last character', () => {
    for (const text of [`a${' '.repeat(MiB)}\n`, `${'a'.repeat(MiB)} `, `${'a \t'.repeat(MiB / 3)}\u0100`]) {
      const { value, ms } = timed(() => isHeaderText(text));
      expect(value).toBe(false);
      expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });

  it('parses styled parameters from 1 MiB of query, header, cookie and path text', () => {
    const deep: ParameterWire = { name: 'o', in: 'query', style: 'deepObject', explode: true, shape: 'object' };
    const spaced: ParameterWire = { name: 's', in: 'query', style: 'spaceDelimited', explode: false, shape: 'array' };
    const header: ParameterWire = { name: 'x-list', in: 'header', style: 'simple', explode: false, shape: 'array' };
    const cookie: ParameterWire = { name: 'c', in: 'cookie', style: 'form', explode: true, shape: 'object' };
    const matrix: ParameterWire = { name: 'm', in: 'path', style: 'matrix', explode: true, shape: 'array' };
    const members = 32 * KiB;
    const raw = {
      path: { m: ';m=1'.repeat(MiB / 4) },
      query: `${Array.from({ length: members }, (_, i) => `o[k${i}]=1`).join('&')}&s=${'a%20'.repeat(MiB / 4)}`,
      headers: { 'x-list': ' a ,'.repeat(MiB / 4) },
      cookie: Array.from({ length: members }, (_, i) => `k${i}=v`).join('; '),
    };
    const maps = { path: {}, query: {}, headers: {}, cookies: {} };
    const { ms } = timed(() => applyParameterStyles([deep, spaced, header, cookie, matrix], raw, maps, { query: new Set(), cookie: new Set() }));
    expect(Object.keys((maps.query as Record<string, object>)['o']!)).toHaveLength(members);
    expect((maps.query as Record<string, unknown[]>)['s']).toHaveLength(MiB / 4 + 1);
    expect((maps.headers as Record<string, unknown[]>)['x-list']).toHaveLength(MiB / 4 + 1);
    expect(Object.keys((maps.cookies as Record<string, object>)['c']!)).toHaveLength(members);
    expect((maps.path as Record<string, unknown[]>)['m']).toHaveLength(MiB / 4);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });
});

describe('bodies', () => {
  it('decodes a 1 MiB form body and 64 Ki deepObject fields', () => {
    const form = timed(() => decodeBody(bytes('a=1&'.repeat(MiB / 4)), 'application/x-www-form-urlencoded', 64, { a: { type: 'array', items: { type: 'integer' } } }));
    expect((form.value as { a: number[] }).a).toHaveLength(MiB / 4);
    expect(form.ms).toBeLessThan(SAFETY_BOUND_MS);
    const entries = Array.from({ length: 64 * KiB }, (_, i): [string, string] => [`o[k${i}]`, '1']);
    const deep = timed(() => decodeForm(entries, { o: { type: 'object', style: 'deepObject', explode: true, properties: {} } }, { multipart: false, maxDepth: 64 }));
    expect(Object.keys((deep.value as { o: object }).o)).toHaveLength(64 * KiB);
    expect(deep.ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('refuses 1 MiB of nesting and reads 1 MiB of members', () => {
    const deep = timedThrow(() => parseJsonSafely('['.repeat(MiB)));
    expect(deep.error).toMatchObject({ name: 'UnsafeInputError' });
    expect(deep.ms).toBeLessThan(SAFETY_BOUND_MS);
    const text = `{${Array.from({ length: MiB / 16 }, (_, i) => `"k${i}":{"a":[1]}`).join(',')}}`;
    const wide = timed(() => parseJsonSafely(text));
    expect(Object.keys(wide.value as object)).toHaveLength(MiB / 16);
    expect(wide.ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('names the path of a member with a 1 MiB name, both ways', () => {
    const name = '["'.repeat(MiB / 2);
    const path = timed(() => jsonPath(['Data', name]));
    const pointer = timed(() => jsonPointer(path.value));
    expect(pointer.value).toBe(`/Data/${name}`);
    expect(path.ms + pointer.ms).toBeLessThan(SAFETY_BOUND_MS);
    const odd = timed(() => jsonPointer(`$[${'"\\"['.repeat(MiB / 4)}`));
    expect(odd.ms).toBeLessThan(SAFETY_BOUND_MS);
  });
});

describe('sequences read a character at a time', () => {
  const text = (prefix: string, suffix: string): string => `${prefix}${'x'.repeat(256 * KiB)}${suffix}`;

  it('Server-Sent Events', () => {
    const decoder = new EventStreamDecoder({ maxEventLength: MiB });
    const input = `${text('data: ', '\n')}\n`;
    const { value, ms } = timed(() => [...input].flatMap((c) => decoder.push(c)));
    expect(value).toEqual([{ data: 'x'.repeat(256 * KiB) }]);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    const lines = timed(() => new EventStreamDecoder({ maxEventLength: 4 * MiB }).push(`${'data: x\n'.repeat(MiB / 8)}\n`));
    expect(lines.value[0]!.data).toHaveLength(2 * (MiB / 8) - 1);
    expect(lines.ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('JSON Lines', () => {
    const decoder = new JsonLinesDecoder();
    const { value, ms } = timed(() => [...text('"', '"\n')].flatMap((c) => decoder.push(c)));
    expect(value).toEqual(['x'.repeat(256 * KiB)]);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });

  it('JSON text sequences', () => {
    const decoder = new JsonSeqDecoder();
    const { value, ms } = timed(() => [...text('\u001e"', '"\n')].flatMap((c) => decoder.push(c)));
    expect(value).toEqual(['x'.repeat(256 * KiB)]);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
  });
});

describe('trailing runs', () => {
  it('trims a run of one character from the end in one scan, whatever runs stand before it', () => {
    const { value, ms } = timed(() => withoutTrailing(`${'/'.repeat(256 * KiB)}x${'/'.repeat(256 * KiB)}`, '/'));
    expect(value).toBe(`${'/'.repeat(256 * KiB)}x`);
    expect(ms).toBeLessThan(SAFETY_BOUND_MS);
    expect(withoutTrailing('1.500', '0')).toBe('1.5');
    expect(withoutTrailing('///', '/')).toBe('');
    expect(withoutTrailing('', '/')).toBe('');
  });
});
