/**
 * A super-linear pattern that no linear matcher can express (a lookahead here) is matched by
 * V8 only on values up to a length derived from its growth: longer values are refused as
 * invalid with a message that says why, by the zod schema and by the router (400), and the
 * generator warns about the pattern at its pointer. Patterns in `patternProperties` (the JSON
 * Schema runtime) are routed the same way.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, startMockServer, type MockServer } from '../../src/index.js';
import { lengthBound, patternRoute } from '../../src/ir/pattern-route.js';
import { loadValidators, type LoadedValidators } from '../helpers/generated.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';

/** Nested quantifiers (exponential in V8) behind a lookahead (beyond a linear matcher). */
const CODE = '^(?=.*\\d)([a-z0-9]+-?)*$';
const SLUG = '^([a-z0-9]+-?)*[a-z0-9]+$';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Bounded', version: '1' },
  paths: {
    '/codes': {
      post: {
        operationId: 'postCode',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Coded' } } } },
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
  },
  components: { schemas: { Coded: { type: 'object', properties: { code: { type: 'string', pattern: CODE } } } } },
};

let server: MockServer;
let validators: LoadedValidators;
let bound: number;

beforeAll(async () => {
  const route = patternRoute(CODE);
  if (route?.kind !== 'bounded') throw new Error(`expected ${CODE} to be bounded, got ${route?.kind}`);
  bound = route.maxLength;
  const spec = path.join(await scratchDir('bounded'), 'bounded.json');
  await writeFile(spec, JSON.stringify(SPEC));
  server = await startMockServer({ spec, port: 0, onError: () => {} });
  validators = await loadValidators(SPEC);
}, 120_000);
afterAll(async () => {
  await server?.close();
  await removeScratchDirs();
});

describe('a bounded pattern', () => {
  it('is bounded by its growth: an exponential one by how many ways it has to take a step', () => {
    const attack = { prefix: '', pump: 'a', suffix: '!' };
    expect(bound).toBeGreaterThanOrEqual(8);
    expect(bound).toBeLessThanOrEqual(19);
    expect(lengthBound({ kind: 'exponential', attack, branching: 2 })).toBe(19);
    expect(lengthBound({ kind: 'exponential', attack, branching: 4 })).toBe(9);
    expect(lengthBound({ kind: 'polynomial', degree: 2, attack })).toBe(1000);
  });

  it('keeps V8 within its budget at the bound, where more ways to take a step mean a shorter bound', () => {
    // Four ways to read each `a`: 4^n tries. At 19 characters (the bound of a two-way pattern)
    // V8 takes over a minute; at this pattern's own bound, milliseconds.
    const route = patternRoute('^(a|a|a|a)*(?=b)');
    if (route?.kind !== 'bounded') throw new Error(`expected a bounded route, got ${route?.kind}`);
    expect(route.maxLength).toBeLessThan(19);
    const started = performance.now();
    expect(new RegExp('^(a|a|a|a)*(?=b)').test('a'.repeat(route.maxLength))).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is listed by the generator as a warning at its pointer', async () => {
    const spec = path.join(await scratchDir('bounded-diagnostic'), 'bounded.json');
    await writeFile(spec, JSON.stringify(SPEC));
    const result = await generate({ spec, targets: ['validators'] });
    const warnings = result.diagnostics.filter((d) => d.code === 'pattern-length-bounded');
    expect(warnings).toEqual([
      expect.objectContaining({ severity: 'warning', pointer: '#/components/schemas/Coded/properties/code/pattern', message: expect.stringContaining(`longer than ${bound} characters`) }),
    ]);
    expect(warnings[0]!.message).toContain('lookahead');
  });

  it('zod: a value within the bound is matched, a longer one refused with the reason', () => {
    const Coded = validators.schemas['Coded']!;
    expect(Coded.safeParse({ code: 'abc-1' }).success).toBe(true);
    expect(Coded.safeParse({ code: 'abc' }).success).toBe(false);
    const long = `${'a'.repeat(bound)}1`;
    expect(new RegExp(CODE, 'u').test(long)).toBe(true);
    const parsed = Coded.safeParse({ code: long });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toContain(`longer than ${bound} characters is refused`);
    const start = performance.now();
    expect(Coded.safeParse({ code: `${'a'.repeat(200_000)}!` }).success).toBe(false);
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it('the router: 400 naming the bound for a long value, 200 for a short valid one', async () => {
    const post = (code: string) =>
      fetch(`${server.url}/codes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code }), signal: AbortSignal.timeout(60_000) });
    const long = await post(`${'a'.repeat(200_000)}!`);
    expect(long.status).toBe(400);
    expect(await long.text()).toContain(`longer than ${bound} characters`);
    const short = await post('abc-1');
    expect(short.status).toBe(200);
    await short.arrayBuffer();
  });
});

describe('patternProperties through the JSON Schema runtime', () => {
  it('matches a backtracking key pattern linearly, with the generator deciding', async () => {
    const loaded = await loadValidators({
      openapi: '3.1.0',
      info: { title: 'Keys', version: '1' },
      paths: {},
      components: { schemas: { Tags: { type: 'object', patternProperties: { [SLUG]: { type: 'string' } }, additionalProperties: false } } },
    });
    const Tags = loaded.schemas['Tags']!;
    expect(Tags.safeParse({ 'my-tag': 'x' }).success).toBe(true);
    const start = performance.now();
    expect(Tags.safeParse({ [`${'a'.repeat(100_000)}!`]: 'x' }).success).toBe(false);
    expect(performance.now() - start).toBeLessThan(2_000);
  });
});
