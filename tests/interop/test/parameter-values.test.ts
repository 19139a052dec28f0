/**
 * Parameter styles with typed values, which the public parameters-style example (strings
 * only) does not have: integer, number and boolean items and members decoded by the schema,
 * a JSON `content` parameter, `allowReserved`; and a value that does not parse in its style
 * answered 400 naming the parameter and the rule. The document is written here, in the test.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWith, clientOf, generateApi, listen, routerFactory, type Running } from './support/harness.js';

const Measures = {
  type: 'object',
  properties: { count: { type: 'integer' }, ratio: { type: 'number' }, on: { type: 'boolean' }, label: { type: 'string' } },
};

const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Typed parameter styles', version: '1.0.0' },
  paths: {
    '/items/{ids}/{measures}': {
      get: {
        operationId: 'typedStyles',
        parameters: [
          { name: 'ids', in: 'path', required: true, style: 'label', explode: true, schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'measures', in: 'path', required: true, style: 'matrix', explode: true, schema: Measures },
          { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: Measures },
          { name: 'scores', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'number' } } },
          { name: 'flags', in: 'query', style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'boolean' } } },
          { name: 'where', in: 'query', content: { 'application/json': { schema: { type: 'object', properties: { near: { type: 'array', items: { type: 'number' } }, name: { type: 'string' } } } } } },
          { name: 'next', in: 'query', allowReserved: true, schema: { type: 'string' } },
          { name: 'X-Limits', in: 'header', style: 'simple', explode: true, schema: Measures },
          { name: 'seen', in: 'cookie', style: 'form', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
        ],
        responses: { '204': { description: 'Received' } },
      },
    },
  },
};

type Params = Record<string, Record<string, unknown>>;

/** Every string in an error body, whatever its shape (the error contract is the API's own). */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(textsOf);
  return [];
}
type Method = ((params: object) => Promise<{ status: number }>) & { operation: { operationId: string } };

const text = fc.string({ unit: fc.oneof(fc.constantFrom(',', ';', '=', '&', '#', '+', '%', '/', '?', ' ', 'é', '😀'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 8 });
const headerText = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.:;/?!@#$%&*()'.split(''), ' '), minLength: 1, maxLength: 8 }).filter((s) => s.trim() === s);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n));

/** Measures with at least one member; `label` drawn by `labelText` (headers cannot carry commas). */
const measures = (labelText: fc.Arbitrary<string>) =>
  fc.record({ count: fc.integer(), ratio: finite, on: fc.boolean(), label: labelText }, { requiredKeys: [] }).filter((o) => Object.keys(o).length > 0);

const params: fc.Arbitrary<Params> = fc
  .record({
    path: fc.record({ ids: fc.array(fc.integer(), { minLength: 1, maxLength: 4 }), measures: measures(text) }),
    query: fc.record(
      {
        filter: measures(text),
        scores: fc.array(finite, { minLength: 1, maxLength: 4 }),
        flags: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
        where: fc.record({ near: fc.array(finite, { maxLength: 3 }), name: text }, { requiredKeys: [] }),
        next: text,
      },
      { requiredKeys: [] },
    ),
    headers: fc.record({ 'X-Limits': measures(headerText.filter((s) => !s.includes(','))) }, { requiredKeys: [] }),
    cookies: fc.record({ seen: fc.array(fc.integer(), { minLength: 1, maxLength: 4 }) }, { requiredKeys: [] }),
  })
  .map((p) => Object.fromEntries(Object.entries(p).filter(([, group]) => Object.keys(group).length > 0)));

describe('typed values in parameter styles', () => {
  let running: Running;
  let call: Method;
  let received: Params | undefined;

  beforeAll(async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'parameter-values-'));
    const file = path.join(dir, 'typed-parameter-styles.json');
    await writeFile(file, JSON.stringify(DOCUMENT));
    const api = await generateApi(file, 'typed-parameter-styles');
    const handlers = {
      typedStyles: (request: Params) => {
        received = { path: request['path']!, query: request['query']!, headers: request['headers']!, cookies: request['cookies']! };
        return { status: 204 };
      },
    };
    running = await listen(appWith(routerFactory(api)(handlers, { onError: () => undefined })));
    const client = clientOf<Method>(api, { baseUrl: running.origin });
    call = Object.values(client).find((m) => typeof m === 'function' && m.operation?.operationId === 'typedStyles')!;
  });
  afterAll(() => running?.close());

  it('decodes integers, numbers and booleans in items and members; JSON content; reserved characters', async () => {
    await fc.assert(
      fc.asyncProperty(params, async (sent) => {
        received = undefined;
        const result = await call(sent);
        expect(result.status).toBe(204);
        expect(received!['path']).toEqual(sent['path']);
        expect(received!['query']).toEqual(sent['query'] ?? {});
        expect(received!['cookies']).toEqual(sent['cookies'] ?? {});
        expect(received!['headers']!['x-limits']).toEqual(sent['headers']?.['X-Limits']);
      }),
      { numRuns: 150, seed: 18 },
    );
  });

  it('answers 400 naming the parameter and the rule when a value does not parse in its style', async () => {
    const cases: Array<[string, RequestInit, string]> = [
      ['/items/1.2/;count=1', {}, 'path parameter "ids": style label starts with "."'],
      ['/items/.1/count=1', {}, 'path parameter "measures": style matrix starts with ";"'],
      ['/items/.1/;count', {}, 'path parameter "measures": an exploded object in style matrix is name=value members; got "count"'],
      ['/items/.1/;count=1?where=%7Bnear', {}, 'query parameter "where": not valid JSON (content application/json)'],
      ['/items/.1/;count=1?filter[count]=1&filter[count]=2', {}, 'query parameter "filter": member "count" is given twice'],
      ['/items/.1/;count=1', { headers: { 'x-limits': 'count=1,ratio' } }, 'header "X-Limits": an exploded object in style simple is name=value members; got "ratio"'],
    ];
    for (const [target, init, message] of cases) {
      const response = await fetch(`${running.origin}${target}`, init);
      expect(response.status, target).toBe(400);
      expect(textsOf(await response.json()).join('\n'), target).toContain(message);
    }
  });

  it('answers 400 with the schema rule when a member is text where the schema wants a number', async () => {
    const response = await fetch(`${running.origin}/items/.1.x/;count=1`);
    expect(response.status).toBe(400);
    expect(textsOf(await response.json()).join('\n')).toMatch(/ids\[1\].*number/);
  });
});
