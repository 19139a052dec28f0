import { describe, expect, it } from 'vitest';
import { mapSettled } from '../src/directory/index.js';
import { responseSpecFor } from '../src/runtime/decode.js';
import { describeFailure, RequestValidationError } from '../src/runtime/errors.js';
import {
  acceptHeader,
  checkInteractionId,
  defaultRecords,
  fillPath,
  InteractionIdMismatchError,
  isInteractionId,
  matchContentType,
  newInteractionId,
  PaginationError,
  queryString,
  RequestError,
  resolveBaseUrl,
} from '../src/runtime/index.js';
import { encodeBody } from '../src/runtime/request-body.js';
import { operations } from '@bank-data-sharing/validators/v2.2';

const api = { title: 'T', version: '1', pathPrefix: '/p/v1', servers: ['/p/v1'] };

describe('request building', () => {
  it('resolves the base URL from baseUrl, origin + prefix, or an absolute server', () => {
    expect(resolveBaseUrl(api, { baseUrl: 'https://h/x/' })).toBe('https://h/x');
    expect(resolveBaseUrl(api, { origin: 'https://h:8443/' })).toBe('https://h:8443/p/v1');
    expect(resolveBaseUrl({ ...api, servers: ['https://dir.example'] }, {})).toBe('https://dir.example');
    expect(() => resolveBaseUrl(api, {})).toThrow(/needs `baseUrl` or `origin`/);
  });

  it('percent-encodes path parameters and refuses a missing one', () => {
    expect(fillPath('/a/{Id}/b/{Other}', { Id: 'x y/z', Other: 7 }, 'op')).toBe('/a/x%20y%2Fz/b/7');
    expect(() => fillPath('/a/{Id}', {}, 'op')).toThrow(RequestError);
    expect(() => fillPath('/a/{Id}', { Id: '' }, 'op')).toThrow(/path parameter "Id" is required/);
  });

  it('writes query parameters in form style, repeating arrays and skipping absent values', () => {
    expect(queryString({ a: 'x&y', b: [1, 2], c: undefined, d: true, e: new Date(Date.UTC(2025, 0, 1)) })).toBe('?a=x%26y&b=1&b=2&d=true&e=2025-01-01T00%3A00%3A00.000Z');
    expect(queryString({})).toBe('');
  });

  it('encodes bodies by content type; a signed body needs a signer or a compact JWS', async () => {
    expect(await encodeBody(['application/x-www-form-urlencoded'], { body: { a: 'b c', d: ['1', '2'] } }, 'op', undefined)).toEqual({
      contentType: 'application/x-www-form-urlencoded',
      body: 'a=b+c&d=1&d=2',
    });
    expect(await encodeBody(['application/jwt', 'application/json'], { body: { x: 1 } }, 'op', undefined)).toEqual({ contentType: 'application/json', body: '{"x":1}' });
    expect(await encodeBody(['application/json', 'application/jwt'], { body: 'aaa.bbb.ccc' }, 'op', undefined)).toEqual({ contentType: 'application/jwt', body: 'aaa.bbb.ccc' });
    await expect(encodeBody(['application/jwt'], { body: { message: {} } }, 'op', undefined)).rejects.toThrow(/needs `signRequest`/);
    expect(await encodeBody(['application/jwt'], { body: { message: {} } }, 'op', async (claims) => `signed:${JSON.stringify(claims)}`)).toEqual({
      contentType: 'application/jwt',
      body: 'signed:{"message":{}}',
    });
  });
});

describe('JSON request bodies through the compiled writers', () => {
  const content = operations.PatchAccountAccessConsentsConsentId.request.body!.content as Readonly<Record<string, unknown>>;
  const declared = Object.keys(content);
  // Members out of schema order: the writer writes Data first, JSON.stringify keeps this order.
  const body = { Data: { RevokedBy: 'TPP', Status: 'Revoked' } };

  it('write in schema order where the writers pay off (V8 before 12), with JSON.stringify elsewhere; the same JSON either way', async () => {
    const writersPayOff = Number.parseInt(process.versions.v8, 10) < 12;
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON']) {
      const encoded = await encodeBody(declared, { body, contentType }, 'PatchAccountAccessConsentsConsentId', undefined, undefined, content);
      expect(JSON.parse(encoded!.body as string)).toEqual(body);
      expect(encoded!.body).toBe(writersPayOff ? '{"Data":{"Status":"Revoked","RevokedBy":"TPP"}}' : JSON.stringify(body));
    }
  });

  it('refuse an invalid body before it is sent, naming the member and the rule', async () => {
    const invalid = { Data: { Status: 'Unknown' }, Other: [1] };
    const refused = await encodeBody(declared, { body: invalid, contentType: 'application/json' }, 'PatchAccountAccessConsentsConsentId', undefined, undefined, content).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RequestValidationError);
    expect((refused as RequestValidationError).operationId).toBe('PatchAccountAccessConsentsConsentId');
    expect((refused as RequestValidationError).issues.some((issue) => issue.startsWith('Data.Status: '))).toBe(true);
    expect((refused as Error).message).toMatch(/^PatchAccountAccessConsentsConsentId: the request body does not match the contract: /);
  });

  it('send what the writer leaves alone (an invalid body) as JSON.stringify writes it, when validation is off', async () => {
    const invalid = { Data: { Status: 'Unknown' }, Other: [1] };
    const encoded = await encodeBody(declared, { body: invalid, contentType: 'application/json' }, 'PatchAccountAccessConsentsConsentId', undefined, undefined, content, false);
    expect(encoded!.body).toBe(JSON.stringify(invalid));
  });
});

describe('content types', () => {
  it('matches exact spelling first, then the media type, then wildcards', () => {
    const declared = ['application/json; charset=utf-8', 'application/json', 'application/jwt'];
    expect(matchContentType(declared, 'application/json; charset=utf-8')).toBe('application/json; charset=utf-8');
    expect(matchContentType(declared, 'APPLICATION/JSON;CHARSET=UTF-8')).toBe('application/json; charset=utf-8');
    expect(matchContentType(declared, 'application/json')).toBe('application/json');
    expect(matchContentType(declared, 'application/jwt; charset=ascii')).toBe('application/jwt');
    expect(matchContentType(declared, 'text/plain')).toBeUndefined();
    expect(matchContentType(['application/*'], 'application/pdf')).toBe('application/*');
  });

  it('asks for the JSON forms unless the signed form is preferred', () => {
    const declared = ['application/json; charset=utf-8', 'application/json', 'application/jwt'];
    expect(acceptHeader(declared, 'json')).toBe('application/json');
    expect(acceptHeader(declared, 'signed')).toBe('application/jwt');
    expect(acceptHeader(['application/jwt'], 'json')).toBe('application/jwt');
    expect(acceptHeader([], 'json')).toBeUndefined();
  });
});

describe('interaction ids', () => {
  it('creates RFC 4122 version 4 UUIDs', () => {
    const ids = new Set(Array.from({ length: 50 }, newInteractionId));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isInteractionId('not-a-uuid')).toBe(false);
  });

  it('accepts the echo in any case, refuses another id, leaves a missing one to validation', () => {
    const id = '6f1e6c1a-3b7d-4f0e-9a51-2c4d8e0b7a19';
    expect(() => checkInteractionId('op', id, id.toUpperCase(), 200)).not.toThrow();
    expect(() => checkInteractionId('op', id, null, 200)).not.toThrow();
    expect(() => checkInteractionId('op', id, newInteractionId(), 500)).toThrow(InteractionIdMismatchError);
  });
});

describe('responses and records', () => {
  it('finds the documented response by exact status, then range, then default', () => {
    const op = { ...operations.GetAccounts, responses: { '200': operations.GetAccounts.responses['200'], '4XX': operations.GetAccounts.responses['400'], default: operations.GetAccounts.responses['500'] } };
    expect(responseSpecFor(op, 200)).toBe(op.responses['200']);
    expect(responseSpecFor(op, 404)).toBe(op.responses['4XX']);
    expect(responseSpecFor(op, 503)).toBe(op.responses.default);
    expect(responseSpecFor(operations.GetAccounts, 418)).toBeUndefined();
  });

  it('finds the records of a page, or refuses to guess', () => {
    expect(defaultRecords({ Data: [1, 2] }, 1, 'u')).toEqual([1, 2]);
    expect(defaultRecords({ Data: { AccountId: 'a', Transaction: [3] } }, 1, 'u')).toEqual([3]);
    expect(defaultRecords([4], 1, 'u')).toEqual([4]);
    expect(() => defaultRecords({ Data: { A: [1], B: [2] } }, 1, 'u')).toThrow(PaginationError);
  });

  it('describes a fetch failure down its cause chain', () => {
    const inner = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    expect(describeFailure(new TypeError('fetch failed', { cause: inner }))).toBe('fetch failed ← connect ECONNREFUSED 127.0.0.1:1');
  });
});

describe('bounded concurrency', () => {
  it('keeps order, settles every task and never exceeds the limit', async () => {
    let inFlight = 0;
    let max = 0;
    const results = await mapSettled([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      if (n === 4) throw new Error('four');
      return n * 10;
    });
    expect(max).toBe(3);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([10, 20, 30, 'four', 50, 60, 70]);
  });
});
