/** Member names of object schemas, and the headers an operation declares by them. */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { declaresHeader, isHeaderText, memberNames, objectMembers } from '../src/index.js';

describe('member names', () => {
  it('reads the members of an object schema, and none of anything else', () => {
    expect(memberNames(z.object({ title: z.string(), status: z.int() }))).toEqual(['title', 'status']);
    expect(Object.keys(objectMembers(z.looseObject({ a: z.string() }))!)).toEqual(['a']);
    expect(memberNames(z.string())).toEqual([]);
    expect(memberNames(undefined)).toEqual([]);
    expect(objectMembers({ shape: null })).toBeUndefined();
  });
});

describe('declaresHeader', () => {
  const none = z.looseObject({});
  const withId = z.looseObject({ 'x-fapi-interaction-id': z.string() });

  it('finds a header declared as a request parameter or on any response', () => {
    expect(declaresHeader({ request: { headers: withId }, responses: { '200': { headers: none } } }, 'x-fapi-interaction-id')).toBe(true);
    expect(declaresHeader({ request: { headers: none }, responses: { '200': { headers: none }, '4XX': { headers: withId } } }, 'x-fapi-interaction-id')).toBe(true);
    expect(declaresHeader({ request: { headers: none }, responses: { '200': { headers: none } } }, 'x-fapi-interaction-id')).toBe(false);
  });
});

describe('isHeaderText', () => {
  it.each([
    ['plain', true],
    ['inner space', true],
    ['', true],
    [' leading', false],
    ['trailing\t', false],
    ['line\nbreak', false],
    ['snow ☃', false],
    ['café', true],
  ])('%j → %s', (value, expected) => {
    expect(isHeaderText(value)).toBe(expected);
  });
});
