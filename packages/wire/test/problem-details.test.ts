/**
 * RFC 9457 problem details: built by a publisher from error items, recognised by their members
 * whatever the media type, read back by a receiver; and the status titles, which are what
 * Node's `http.STATUS_CODES` says (the router read that table before it moved here).
 */
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { isProblemMediaType, isProblemSchema, jsonPointer, problemDetails, problemDetailsOf, statusTitle } from '../src/index.js';

describe('problemDetails', () => {
  it('says it all with the status where nothing more is known, and lists field problems when asked', () => {
    expect(problemDetails(404, [], true)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Not Found' });
    const items = [
      { code: 'Body.InvalidFormat', message: 'required', path: '$.Data.Items[2]' },
      { code: 'Resource.InvalidFormat', message: 'query parameter limit: too big', path: 'limit' },
    ];
    expect(problemDetails(400, items, true)).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: '$.Data.Items[2]: required; query parameter limit: too big',
      errors: [
        { detail: 'required', pointer: '/Data/Items/2' },
        { detail: 'query parameter limit: too big', parameter: 'limit' },
      ],
    });
    expect(problemDetails(400, items, false)).not.toHaveProperty('errors');
  });

  it('turns body paths into JSON pointers, odd keys and escapes included', () => {
    expect(jsonPointer('$')).toBe('');
    expect(jsonPointer('$["a/b"][0].c~d')).toBe('/a~1b/0/c~0d');
  });
});

describe('what is problem details', () => {
  it('by media type, any parameters and case', () => {
    expect(isProblemMediaType('Application/Problem+JSON; charset=utf-8')).toBe(true);
    expect(isProblemMediaType('application/json')).toBe(false);
    expect(isProblemMediaType(undefined)).toBe(false);
  });

  it('by schema: two of its members, one of them title or detail', () => {
    expect(isProblemSchema(z.object({ title: z.string(), status: z.int() }))).toBe(true);
    expect(isProblemSchema(z.object({ type: z.string(), status: z.int() }))).toBe(false);
    expect(isProblemSchema(z.object({ code: z.int(), message: z.string() }))).toBe(false);
    expect(isProblemSchema(z.string())).toBe(false);
    expect(isProblemSchema(undefined)).toBe(false);
  });
});

describe('problemDetailsOf', () => {
  it('reads the standard members of the right type, keeping extensions', () => {
    const body = { type: 'about:blank', title: 'Not Found', status: '404', detail: 7, traceId: 'abc' };
    expect(problemDetailsOf('application/problem+json', body)).toEqual({ type: 'about:blank', title: 'Not Found', traceId: 'abc' });
  });

  it('reads them under another JSON type only when the declared schema is problem details', () => {
    const body = { title: 'Not Found', status: 404 };
    expect(problemDetailsOf('application/json', body, z.object({ title: z.string(), status: z.int() }))).toEqual(body);
    expect(problemDetailsOf('application/json', body, z.object({ code: z.int(), message: z.string() }))).toBeUndefined();
    expect(problemDetailsOf('application/problem+json', ['not', 'an', 'object'])).toBeUndefined();
  });
});

describe('statusTitle', () => {
  it('is Node’s phrase for every status Node knows', () => {
    for (const [status, phrase] of Object.entries(STATUS_CODES)) expect(statusTitle(Number(status))).toBe(phrase);
  });

  it('is a generic phrase for unregistered statuses', () => {
    expect(statusTitle(499)).toBe('Client Error');
    expect(statusTitle(599)).toBe('Server Error');
    for (let status = 100; status < 600; status++) if (STATUS_CODES[status] === undefined) expect(statusTitle(status)).toBe(status >= 500 ? 'Server Error' : 'Client Error');
  });
});
