import { describe, expect, it } from 'vitest';
import { decodeEventStream, encodeEvent, EventStreamDecoder, EventStreamError, type EventStreamDecoderOptions, type ServerSentEvent } from '../src/index.js';
import { bytes, collect, cuts, source } from './support/chunks.js';

interface Outcome {
  events: ServerSentEvent[];
  lastEventId: string;
  retry: number | undefined;
  comments: number;
  error?: string;
}

/** Feeds the chunks to one decoder, then ends it; an error is kept with the events before it. */
function decode(chunks: string[], options: EventStreamDecoderOptions = {}): Outcome {
  const decoder = new EventStreamDecoder(options);
  const events: ServerSentEvent[] = [];
  const state = () => ({ events, lastEventId: decoder.lastEventId, retry: decoder.retry, comments: decoder.comments });
  try {
    for (const chunk of chunks) events.push(...decoder.push(chunk));
    events.push(...decoder.end());
  } catch (error) {
    if (!(error instanceof EventStreamError)) throw error;
    events.push(...error.decoded);
    return { ...state(), error: error.message };
  }
  return state();
}

const events = (text: string, options?: EventStreamDecoderOptions) => decode([text], options).events;

describe('EventStreamDecoder: fields', () => {
  it('dispatches the data lines joined with LF at a blank line, without the last LF', () => {
    expect(events('data: hello\n\n')).toEqual([{ data: 'hello' }]);
    expect(events('data: a\ndata: b\n\n')).toEqual([{ data: 'a\nb' }]);
    expect(events('data:\ndata:\n\n')).toEqual([{ data: '\n' }]);
    expect(events('data: a\ndata:\n\n')).toEqual([{ data: 'a\n' }]);
  });

  it('reads a line without a colon as a field with an empty value', () => {
    expect(events('data\n\n')).toEqual([{ data: '' }]);
    expect(events('data\ndata\n\n')).toEqual([{ data: '\n' }]);
    expect(events('event\ndata\n\n')).toEqual([{ data: '', event: '' }]);
  });

  it('splits at the first colon and removes one leading space only', () => {
    expect(events('data:x\n\n')).toEqual([{ data: 'x' }]);
    expect(events('data:  x\n\n')).toEqual([{ data: ' x' }]);
    expect(events('data: a: b:c\n\n')).toEqual([{ data: 'a: b:c' }]);
    expect(events('data:\tx \n\n')).toEqual([{ data: '\tx ' }]);
  });

  it('gives event only when the block wrote it, and forgets it after each blank line', () => {
    expect(events('event: update\ndata: 1\n\ndata: 2\n\n')).toEqual([{ event: 'update', data: '1' }, { data: '2' }]);
    expect(events('event:\ndata: 1\n\n')).toEqual([{ event: '', data: '1' }]);
    expect(events('event: a\nevent: b\ndata: 1\n\n')).toEqual([{ event: 'b', data: '1' }]);
    // An event type in a block without data is not carried to the next block.
    expect(events('event: lost\n\ndata: 2\n\n')).toEqual([{ data: '2' }]);
  });

  it('gives id when the block set it, ignoring an id holding U+0000', () => {
    expect(events('id: 42\ndata: x\n\n')).toEqual([{ id: '42', data: 'x' }]);
    expect(events('id\ndata: x\n\n')).toEqual([{ id: '', data: 'x' }]);
    const out = decode(['id: 1\ndata: a\n\nid: b\0c\ndata: b\n\n']);
    expect(out.events).toEqual([{ id: '1', data: 'a' }, { data: 'b' }]);
    expect(out.lastEventId).toBe('1');
    // A later valid id in the same block still counts; an earlier one survives a NUL one.
    expect(events('id: x\nid: \0\ndata: 1\n\n')).toEqual([{ id: 'x', data: '1' }]);
  });

  it('takes retry only when it is ASCII digits', () => {
    expect(decode(['retry: 3000\ndata: x\n\n'])).toMatchObject({ events: [{ retry: 3000, data: 'x' }], retry: 3000 });
    expect(decode(['retry: 007\n\n']).retry).toBe(7);
    for (const bad of ['retry: 10a', 'retry: -1', 'retry: 1.5', 'retry: 1e3', 'retry:', 'retry', 'retry: +1', 'retry:  1', 'retry: ١٢']) {
      const out = decode([`${bad}\ndata: x\n\n`]);
      expect(out.events, bad).toEqual([{ data: 'x' }]);
      expect(out.retry, bad).toBeUndefined();
    }
    // Digits beyond what a number holds exactly are ignored, as a writer cannot send them.
    expect(decode(['retry: 99999999999999999999\n\n']).retry).toBeUndefined();
    // The latest valid one wins, and the decoder keeps it across events.
    expect(decode(['retry: 1\ndata: a\n\nretry: x\ndata: b\n\n'])).toMatchObject({ events: [{ retry: 1, data: 'a' }, { data: 'b' }], retry: 1 });
  });

  it('ignores unknown fields, and field names are case-sensitive', () => {
    expect(events('foo: bar\nData: no\ndata: yes\nDATA: no\n\n')).toEqual([{ data: 'yes' }]);
    expect(events('data : x\n\n')).toEqual([]);
  });

  it('ignores comments, counting them and passing their text to onComment', () => {
    const seen: string[] = [];
    const out = decode([': keep-alive\ndata: a\n:\n:  two spaces\n\n:x\n'], { onComment: (text) => seen.push(text) });
    expect(out.events).toEqual([{ data: 'a' }]);
    expect(out.comments).toBe(4);
    expect(seen).toEqual(['keep-alive', '', ' two spaces', 'x']);
  });

  it('ends lines at CRLF, LF or CR', () => {
    expect(events('data: a\r\ndata: b\r\n\r\n')).toEqual([{ data: 'a\nb' }]);
    expect(events('data: a\rdata: b\r\r')).toEqual([{ data: 'a\nb' }]);
    expect(events('data: a\rdata: b\n\r\ndata: c\r\n\n')).toEqual([{ data: 'a\nb' }, { data: 'c' }]);
    // LF CR is two line ends: a blank line follows the first.
    expect(events('data: a\n\rdata: b\n\n')).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('takes CR at the end of a chunk and LF at the start of the next as one line end', () => {
    const decoder = new EventStreamDecoder();
    expect(decoder.push('data: a\r')).toEqual([]);
    expect(decoder.push('\ndata: b\r')).toEqual([]);
    expect(decoder.push('\n\r')).toEqual([{ data: 'a\nb' }]);
    // An empty chunk between them does not break the pair.
    expect(decoder.push('')).toEqual([]);
    expect(decoder.push('\ndata: c\r')).toEqual([]);
    expect(decoder.push('\r')).toEqual([{ data: 'c' }]);
  });

  it('dispatches nothing for a block without data, while its id and retry take effect', () => {
    const out = decode(['data: a\n\nid: 5\nretry: 10\nevent: e\n\n: x\n\n\n\n']);
    expect(out.events).toEqual([{ data: 'a' }]);
    expect(out.lastEventId).toBe('5');
    expect(out.retry).toBe(10);
  });

  it('discards an unterminated last event at the end', () => {
    expect(decode(['data: a\n\ndata: b'])).toMatchObject({ events: [{ data: 'a' }] });
    expect(decode(['data: a\n\ndata: b\n'])).toMatchObject({ events: [{ data: 'a' }] });
    expect(decode(['data: a\n\ndata: b\r'])).toMatchObject({ events: [{ data: 'a' }] });
    // Its id was never committed by a blank line, so it is not the ID to resume from.
    expect(decode(['id: 1\ndata: a\n\nid: 2\ndata: b\n']).lastEventId).toBe('1');
  });

  it('drops a BOM at the very start of the stream, once', () => {
    expect(events('\uFEFFdata: x\n\n')).toEqual([{ data: 'x' }]);
    expect(decode(['', '\uFEFFdata: x\n\n']).events).toEqual([{ data: 'x' }]);
    // A second BOM is part of the field name, so the field is unknown.
    expect(events('\uFEFF\uFEFFdata: x\n\n')).toEqual([]);
    expect(events('data: a\n\n\uFEFFdata: b\n\n')).toEqual([{ data: 'a' }]);
    expect(decode(['data: a\n\n', '\uFEFFdata: b\n\n']).events).toEqual([{ data: 'a' }]);
    expect(events('data: \uFEFF\n\n')).toEqual([{ data: '\uFEFF' }]);
  });
});

describe('EventStreamDecoder: lastEventId', () => {
  it('persists across events and is updated by an id block with no data', () => {
    const decoder = new EventStreamDecoder();
    expect(decoder.lastEventId).toBe('');
    expect(decoder.push('id: 1\ndata: a\n\n')).toEqual([{ id: '1', data: 'a' }]);
    expect(decoder.push('data: b\n\n')).toEqual([{ data: 'b' }]);
    expect(decoder.lastEventId).toBe('1');
    expect(decoder.push('id: 2\n\n')).toEqual([]);
    expect(decoder.lastEventId).toBe('2');
    expect(decoder.push('id: 3\n')).toEqual([]);
    expect(decoder.lastEventId).toBe('2'); // not before the blank line
    expect(decoder.push('\n')).toEqual([]);
    expect(decoder.lastEventId).toBe('3');
    expect(decoder.push('id\n\n')).toEqual([]);
    expect(decoder.lastEventId).toBe('');
  });

  it('survives end(), so one decoder reads the next connection with the same ID and retry', () => {
    const decoder = new EventStreamDecoder();
    decoder.push('\uFEFFid: 7\nretry: 500\ndata: a\n\nid: 8\ndata: half');
    expect(decoder.end()).toEqual([]);
    expect(decoder.lastEventId).toBe('7');
    expect(decoder.retry).toBe(500);
    // A new stream: its BOM is dropped again, and the half event is gone.
    expect(decoder.push('\uFEFFdata: b\n\n')).toEqual([{ data: 'b' }]);
    expect(decoder.lastEventId).toBe('7');
  });
});

describe('EventStreamDecoder: maxEventLength', () => {
  it('throws EventStreamError naming the limit when one event buffers more', () => {
    expect(() => new EventStreamDecoder({ maxEventLength: 10 }).push('data: 01234567890\n')).toThrow(new EventStreamError('event longer than 10 characters (maxEventLength)'));
    // An unfinished line counts as it arrives.
    const decoder = new EventStreamDecoder({ maxEventLength: 10 });
    decoder.push('data: 0123');
    expect(() => decoder.push('4567')).toThrow(/10 characters \(maxEventLength\)/);
    // Data lines add up within a block, and the count starts again after a blank line.
    expect(decode(['data: 1234\ndata: 5678\n\n'], { maxEventLength: 12 }).error).toBe('event longer than 12 characters (maxEventLength)');
    expect(events('data: 1234\n\ndata: 5678\n\n', { maxEventLength: 12 })).toEqual([{ data: '1234' }, { data: '5678' }]);
    expect(events('data: 1234\n\n', { maxEventLength: 10 })).toEqual([{ data: '1234' }]);
    // So does the event type.
    expect(decode(['event: 0123456789\ndata: 0123456789\n\n'], { maxEventLength: 20 }).error).toMatch(/20 characters/);
    expect(events('event: 0123456789\ndata: 0\n\n', { maxEventLength: 20 })).toEqual([{ event: '0123456789', data: '0' }]);
  });

  it('defaults to 1 MiB', () => {
    const max = 1024 * 1024;
    expect(events(`data:${'x'.repeat(max - 10)}\n\n`)).toEqual([{ data: 'x'.repeat(max - 10) }]);
    expect(() => new EventStreamDecoder().push(`data:${'x'.repeat(max)}\n\n`)).toThrow('event longer than 1048576 characters (maxEventLength)');
  });

  it('keeps the events before the failure, then refuses the stream until end()', () => {
    const decoder = new EventStreamDecoder({ maxEventLength: 10 });
    let caught: unknown;
    try {
      decoder.push('id: 1\ndata: a\n\ndata: 0123456789\n\n');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EventStreamError);
    expect((caught as EventStreamError).name).toBe('EventStreamError');
    expect((caught as EventStreamError).decoded).toEqual([{ id: '1', data: 'a' }]);
    expect(decoder.lastEventId).toBe('1');
    expect(() => decoder.push('data: b\n\n')).toThrow(EventStreamError);
    decoder.end();
    expect(decoder.push('data: b\n\n')).toEqual([{ data: 'b' }]);
  });

  it('refuses a limit that is not a positive number', () => {
    expect(() => new EventStreamDecoder({ maxEventLength: Number.NaN })).toThrow(RangeError);
    expect(() => new EventStreamDecoder({ maxEventLength: 0 })).toThrow(RangeError);
  });
});

describe('EventStreamDecoder: chunking', () => {
  const streams = [
    'data: hello\n\n',
    '\uFEFFid: 1\r\nevent: tick\r\ndata: a\r\ndata: b\r\n\r\n: comment\r\nretry: 250\r\nid: 2\r\n\r\ndata\r\rdata: c',
    'data: a\rdata: b\r\r\n\ndata:  x:y\n\nid: a\0\ndata: z\n\n',
    ':only comments\n:\n\n\n\r\r\n',
    'data: é😀\ndata\n\nfield-without-colon\ndata:\n\nid\nretry: 12x\nretry: 34\n\n',
    'data: 0123456789\n\ndata: 0123456789ABCDEF\n\n', // fails under maxEventLength 20
  ];

  it('gives the same events however the stream is cut into chunks', () => {
    for (const stream of streams) {
      const whole = decode([stream], { maxEventLength: 20 });
      for (const chunks of cuts(stream)) {
        expect(decode(chunks, { maxEventLength: 20 }), JSON.stringify(chunks)).toEqual(whole);
      }
    }
    // The cases are not vacuous.
    expect(decode([streams[1]!]).events).toEqual([{ id: '1', event: 'tick', data: 'a\nb' }, { data: '' }]);
    expect(decode([streams[5]!], { maxEventLength: 20 })).toMatchObject({ events: [{ data: '0123456789' }], error: expect.stringContaining('20') });
  });
});

describe('decodeEventStream', () => {
  it('decodes UTF-8 split anywhere across byte chunks', async () => {
    const text = '\uFEFFdata: café 😀\r\nid: é\r\n\r\ndata: ü\n\n';
    const encoded = bytes(text);
    const expected = [{ data: 'café 😀', id: 'é' }, { data: 'ü' }];
    expect(await collect(decodeEventStream(source([encoded])))).toEqual(expected);
    for (let i = 0; i <= encoded.length; i++) {
      expect(await collect(decodeEventStream(source([encoded.slice(0, i), encoded.slice(i)]))), `cut at ${i}`).toEqual(expected);
    }
    const oneByOne = [...encoded].map((byte) => Uint8Array.of(byte));
    expect(await collect(decodeEventStream(source(oneByOne)))).toEqual(expected);
  });

  it('drops one BOM whether it comes as bytes or text', async () => {
    expect(await collect(decodeEventStream(source([Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf), bytes('data: x\n\n')])))).toEqual([{ data: 'x' }]);
    expect(await collect(decodeEventStream(source([bytes('\uFEFF\uFEFFdata: x\n\n')])))).toEqual([]);
    expect(await collect(decodeEventStream(source(['\uFEFFdata: x\n\n'])))).toEqual([{ data: 'x' }]);
  });

  it('reads text chunks and byte chunks mixed, in order', async () => {
    const e = bytes('é');
    expect(await collect(decodeEventStream(source<Uint8Array | string>(['data: a', bytes('b'), e.slice(0, 1), e.slice(1), 'c\n\n'])))).toEqual([{ data: 'abéc' }]);
    // A character left incomplete before a text chunk becomes U+FFFD rather than vanishing.
    expect(await collect(decodeEventStream(source<Uint8Array | string>([bytes('data: '), e.slice(0, 1), 'x\n\n'])))).toEqual([{ data: '\uFFFDx' }]);
  });

  it('lets the caller read lastEventId and retry from its own decoder, and ends the stream on it', async () => {
    const decoder = new EventStreamDecoder();
    const seen: string[] = [];
    for await (const event of decodeEventStream(source(['retry: 900\nid: 1\ndata: a\n\nid: 2\n\n', 'id: 3\ndata: cut off']), decoder)) {
      seen.push(`${event.data}@${decoder.lastEventId}`);
    }
    expect(seen).toEqual(['a@1']);
    expect(decoder.lastEventId).toBe('2');
    expect(decoder.retry).toBe(900);
    // The unfinished event of the first connection does not leak into the next.
    expect(await collect(decodeEventStream(source(['\ndata: b\n\n']), decoder))).toEqual([{ data: 'b' }]);
  });

  it('yields each event while lastEventId and retry are those it left, even within one chunk', async () => {
    const decoder = new EventStreamDecoder();
    const seen: string[] = [];
    const chunk = 'id: 5\nretry: 1\ndata: a\n\nid: 6\nretry: 2\ndata: b\r\n\r\nid: 7\n\n';
    for await (const event of decodeEventStream(source([chunk]), decoder)) seen.push(`${event.data}@${decoder.lastEventId}/${decoder.retry}`);
    expect(seen).toEqual(['a@5/1', 'b@6/2']);
    expect(decoder.lastEventId).toBe('7');
  });

  it('ends the stream on the decoder when the consumer stops early', async () => {
    const decoder = new EventStreamDecoder();
    for await (const event of decodeEventStream(source(['data: a\n\ndata: half']), decoder)) {
      expect(event).toEqual({ data: 'a' });
      break;
    }
    expect(decoder.push('\n\ndata: b\n\n')).toEqual([{ data: 'b' }]);
  });

  it('yields the events before a failure, then throws it', async () => {
    const seen: ServerSentEvent[] = [];
    const run = async () => {
      for await (const event of decodeEventStream(source(['data: a\n\ndata: b\n\ndata: too long for the limit\n\n']), { maxEventLength: 12 })) seen.push(event);
    };
    const failure = await run().then(() => undefined, (error: unknown) => error);
    expect(failure).toBeInstanceOf(EventStreamError);
    expect((failure as Error).message).toBe('event longer than 12 characters (maxEventLength)');
    expect(seen).toEqual([{ data: 'a' }, { data: 'b' }]);
  });
});

describe('encodeEvent', () => {
  it('writes each field as "name: value" and ends with a blank line', () => {
    expect(encodeEvent({ data: 'hello' })).toBe('data: hello\n\n');
    expect(encodeEvent({ comment: 'hi', retry: 10, id: '7', event: 'update', data: 'a\nb' })).toBe(': hi\nretry: 10\nid: 7\nevent: update\ndata: a\ndata: b\n\n');
    expect(encodeEvent({ data: '' })).toBe('data:\n\n');
    expect(encodeEvent({ data: 'a\r\nb\rc\n' })).toBe('data: a\ndata: b\ndata: c\ndata:\n\n');
    expect(encodeEvent({ data: ' x' })).toBe('data:  x\n\n');
    expect(encodeEvent({})).toBe('\n');
  });

  it('round-trips data, its line ends read back as LF', () => {
    const samples = ['', '\n', '\n\n', 'a', 'a\nb', 'a\r\nb', 'a\rb', '\r', '\r\n', ' leading space', '  two', 'trailing\n', 'trailing\r\n', ':colon', 'data: x', '\uFEFFbom', 'é😀', '\0', 'tab\t', 'x\n\ny'];
    for (const data of samples) {
      const decoded = events(encodeEvent({ data }));
      expect(decoded, JSON.stringify(data)).toEqual([{ data: data.replace(/\r\n?/g, '\n') }]);
    }
  });

  it('round-trips every field, and several events in a row', () => {
    const sent = [
      { data: 'a', event: ' spaced', id: ' 1', retry: 0 },
      { data: '', event: '', id: '' },
      { data: 'x\ny', event: 'e:v', id: 'i:d', retry: 123456 },
    ];
    const seen: string[] = [];
    const text = sent.map((event) => encodeEvent(event)).join('') + encodeEvent({ comment: ' c' }) + encodeEvent({ id: 'last' });
    const out = decode([text], { onComment: (comment) => seen.push(comment) });
    expect(out.events).toEqual(sent);
    expect(seen).toEqual([' c']);
    expect(out.lastEventId).toBe('last');
  });

  it('refuses what a block cannot carry', () => {
    const bad = [
      { event: 'a\nb' },
      { event: 'a\rb' },
      { id: 'a\nb' },
      { id: 'a\r' },
      { id: 'a\0' },
      { comment: 'x\ny' },
      { comment: '\r' },
      { retry: -1 },
      { retry: 1.5 },
      { retry: Number.NaN },
      { retry: Number.POSITIVE_INFINITY },
      { retry: 2 ** 53 },
    ];
    for (const fields of bad) expect(() => encodeEvent(fields), JSON.stringify(fields)).toThrow(EventStreamError);
    expect(() => encodeEvent({ id: 'a\0' })).toThrow('U+0000');
    expect(() => encodeEvent({ event: 'a\nb' })).toThrow('event must not contain CR or LF');
    expect(() => encodeEvent({ retry: -1 })).toThrow('retry must be a non-negative safe integer, not -1');
  });
});
