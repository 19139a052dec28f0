import { describe, expect, it } from 'vitest';
import { jsonWriterOf, writeJson, type JsonWriter } from '../src/index.js';

/** A schema as the generated validators leave it: the writer in zod's bag. */
function schemaWith(writer: JsonWriter): unknown {
  return { _zod: { bag: { bdsJsonWriter: writer } } };
}

describe('JSON writers from the wire', () => {
  const calls: Array<[unknown, boolean | undefined]> = [];
  const writer: JsonWriter = (value, check) => {
    calls.push([value, check]);
    return typeof value === 'object' && value !== null && 'id' in value ? `{"id":${JSON.stringify((value as { id: unknown }).id)}}` : undefined;
  };

  it('finds the writer a generated schema carries, and none elsewhere', () => {
    expect(jsonWriterOf(schemaWith(writer))).toBe(writer);
    expect(jsonWriterOf({ _zod: { bag: {} } })).toBeUndefined();
    expect(jsonWriterOf(undefined)).toBeUndefined();
    expect(jsonWriterOf({ _zod: { bag: { bdsJsonWriter: 'not a function' } } })).toBeUndefined();
  });

  it('writes through the writer when asked, without checking, and with JSON.stringify when it does not answer', () => {
    calls.length = 0;
    expect(writeJson(schemaWith(writer), { extra: 1, id: 'a' }, true)).toBe('{"id":"a"}');
    expect(calls).toEqual([[{ extra: 1, id: 'a' }, false]]);
    expect(writeJson(schemaWith(writer), [1, 2], true)).toBe('[1,2]');
    expect(writeJson(schemaWith(writer), { extra: 1, id: 'a' }, false)).toBe('{"extra":1,"id":"a"}');
    expect(writeJson(undefined, { b: 1 }, true)).toBe('{"b":1}');
  });
});
