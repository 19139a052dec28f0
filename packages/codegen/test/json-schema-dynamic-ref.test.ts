/**
 * JSON Schema 2020-12's `$dynamicRef` and `$dynamicAnchor` in a 3.1 file: a generic page
 * whose item type each use binds (the way published files write `Page<T>`). What the IR and
 * the table hold, what the validators and check functions answer from every way in (a
 * component, an inline response, a plain object around it), what the mocks make, and what is
 * still refused.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIR } from '../src/ir/build-ir.js';
import { generate, writeFiles } from '../src/index.js';
import { removeScratchDirs, scratchDir } from './support/generated-validators.js';

const S = '#/components/schemas';
const BASE = 'https://example.com/schemas';

/** A page of items of a type its users bind; on its own, a page holds no items. */
const PAGE = {
  $id: `${BASE}/page`,
  $defs: { itemType: { $dynamicAnchor: 'itemType', not: {} } },
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'array', items: { $dynamicRef: '#itemType' } }, total: { type: 'integer' } },
};
const THING = { $id: `${BASE}/thing`, type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
/** Binds the item type to Thing: a component that refers to the page by its `$id`. */
const THING_PAGE = { $id: `${BASE}/thing-page`, $defs: { itemType: { $dynamicAnchor: 'itemType', $ref: 'thing' } }, $ref: 'page' };
/** The same binding written inline in a response, referring to the components by pointer. */
const INLINE_NUMBER_PAGE = {
  $id: `${BASE}/number-page`,
  $defs: { itemType: { $dynamicAnchor: 'itemType', type: 'number' } },
  $ref: `${S}/Page`,
};

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pages', version: '1.0.0' },
  paths: {
    '/numbers': { get: { operationId: 'listNumbers', responses: { '200': { description: 'ok', content: { 'application/json': { schema: INLINE_NUMBER_PAGE } } } } } },
    '/things': { get: { operationId: 'listThings', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `${S}/ThingPage` } } } } } } },
  },
  components: {
    schemas: {
      Page: PAGE,
      Thing: THING,
      ThingPage: THING_PAGE,
      // A plain object around a bound page: built with zod, the page by the runtime.
      Holder: { type: 'object', required: ['page'], properties: { page: { $ref: `${S}/ThingPage` } } },
    },
  },
};

function built(document: Record<string, unknown>) {
  return buildIR({ source: 'fixture.json', document, diagnostics: [] }).api;
}

describe('$dynamicRef in the IR and the table', () => {
  it('is read without diagnostics; the bookended reference names its anchor, and every resource lists its dynamic anchors', () => {
    const api = built(SPEC);
    expect(api.diagnostics.filter((d) => d.severity !== 'info')).toStrictEqual([]);
    const table = api.jsonSchemas!.table as Record<string, { properties?: { data?: { items?: unknown } } }>;
    // The table's objects have no prototype (a member may be named __proto__): compared by value.
    expect(table[`${S}/Page`]!.properties!.data!.items).toEqual({ $dynamicRef: { initial: `${S}/Page/$defs/itemType`, anchor: 'itemType' } });
    const inline = '#/paths/~1numbers/get/responses/200/content/application~1json/schema';
    expect(api.jsonSchemas!.dynamicScopes).toStrictEqual({
      [`${S}/Page`]: { itemType: `${S}/Page/$defs/itemType` },
      [`${S}/Thing`]: {},
      [`${S}/ThingPage`]: { itemType: `${S}/ThingPage/$defs/itemType` },
      [inline]: { itemType: `${inline}/$defs/itemType` },
    });
    // The anchors' schemas are in the table, so that the runtime can go there.
    expect(JSON.stringify(table)).toContain('"type":"number"');
  });

  it('without a matching $dynamicAnchor at its target is an ordinary reference, and the table has no scopes', () => {
    const api = built({
      ...SPEC,
      paths: {},
      components: { schemas: { List: { $id: `${BASE}/list`, $defs: { item: { type: 'string' } }, type: 'array', items: { $dynamicRef: '#/$defs/item' } } } },
    });
    expect(api.diagnostics.filter((d) => d.severity !== 'info')).toStrictEqual([]);
    expect((api.jsonSchemas!.table[`${S}/List`] as { items: unknown }).items).toEqual({ $dynamicRef: { initial: `${S}/List/$defs/item` } });
    expect(api.jsonSchemas!.dynamicScopes).toBeUndefined();
  });

  it('refuses a dynamic anchor declared twice in one resource, and a reference that leads nowhere', () => {
    const twice = built({
      ...SPEC,
      paths: {},
      components: {
        schemas: {
          A: { $defs: { t: { $dynamicAnchor: 't', type: 'string' } }, type: 'array', items: { $dynamicRef: '#t' } },
          B: { $dynamicAnchor: 't', type: 'integer' },
        },
      },
    });
    expect(twice.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toContainEqual(['error', 'duplicate-anchor', `${S}/B/$dynamicAnchor`]);
    const nowhere = built({ ...SPEC, paths: {}, components: { schemas: { A: { type: 'array', items: { $dynamicRef: '#nothing' } } } } });
    expect(nowhere.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toContainEqual(['error', 'unresolved-ref', `${S}/A/items/$dynamicRef`]);
  });

  it('refuses a dynamic anchor outside every $id: where the document stands in the dynamic scope depends on where validation begins', () => {
    const api = built({
      ...SPEC,
      paths: {},
      components: {
        schemas: {
          ...SPEC.components.schemas,
          // In the document's own resource: it would bind every page, or none, depending on where validation begins.
          Loose: { $dynamicAnchor: 'itemType', type: 'boolean' },
        },
      },
    });
    expect(api.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toContainEqual(['error', 'dynamic-anchor-outside-resource', `${S}/Loose/$dynamicAnchor`]);
  });

  it('is still refused in a 3.0 file (draft 4 has no dynamic references)', () => {
    const api = built({ ...SPEC, openapi: '3.0.3', paths: {}, components: { schemas: { A: { type: 'array', items: { $dynamicRef: '#t' } } } } });
    expect(api.diagnostics.map((d) => [d.severity, d.code, d.pointer])).toContainEqual(['error', 'unsupported-keyword', `${S}/A/items/$dynamicRef`]);
  });
});

type Parse = { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
interface Validators {
  schemas: Record<string, { safeParse(value: unknown): Parse }>;
  checks: Record<string, (value: unknown) => boolean>;
  operations: Record<string, { responses: Record<string, { content?: Record<string, { safeParse(value: unknown): Parse }> }> }>;
}
type Mock = (options?: Record<string, unknown>) => { status: number; body: unknown };

/** Validators and mocks of `document`, generated into a scratch folder and imported. */
async function generated(document: Record<string, unknown>, label: string): Promise<{ v: Validators; mocks: Record<string, Mock> }> {
  const dir = await scratchDir(label);
  const spec = path.join(dir, 'spec.json');
  await writeFile(spec, JSON.stringify(document));
  const result = await generate({ spec, targets: ['validators', 'mocks'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  await writeFiles(dir, result.files, { check: false });
  const v = (await import(pathToFileURL(path.join(dir, 'validators/index.ts')).href)) as Validators;
  const { mocks } = (await import(pathToFileURL(path.join(dir, 'mocks/index.ts')).href)) as { mocks: Record<string, Mock> };
  return { v, mocks };
}

let v: Validators;
let mocks: Record<string, Mock>;

beforeAll(async () => {
  ({ v, mocks } = await generated(SPEC, 'dynamic-ref'));
}, 60_000);
afterAll(() => removeScratchDirs());

describe('$dynamicRef in the generated validators', () => {
  const ok = (name: string, value: unknown) => {
    const zod = v.schemas[name]!.safeParse(value).success;
    const check = v.checks[name];
    // The check function, where there is one, answers as the zod schema does.
    if (check) expect(check(value), `check of ${name} on ${JSON.stringify(value)}`).toBe(zod);
    return zod;
  };
  const response = (operationId: string) => v.operations[operationId]!.responses['200']!.content!['application/json']!;

  it('binds the item type where the page is used, and leaves the page alone without items', () => {
    expect(ok('Page', { data: [] })).toBe(true);
    expect(ok('Page', { data: [{ name: 'a' }] })).toBe(false);
    expect(ok('ThingPage', { data: [{ name: 'a' }, { name: 'b' }], total: 2 })).toBe(true);
    expect(ok('ThingPage', { data: [{ name: 1 }] })).toBe(false);
    expect(ok('ThingPage', { data: [42] })).toBe(false);
    expect(ok('ThingPage', { data: [{ name: 'a' }], total: 'two' })).toBe(false);
  });

  it('names the item and the rule in its issues', () => {
    const result = v.schemas['ThingPage']!.safeParse({ data: [{ name: 'a' }, { name: 1 }] });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual(['data.1.name', 'expected string, received number (type)']);
  });

  it('binds it inside a plain object around the page, and in an inline response', () => {
    expect(ok('Holder', { page: { data: [{ name: 'a' }] } })).toBe(true);
    expect(ok('Holder', { page: { data: [7] } })).toBe(false);
    expect(response('listNumbers').safeParse({ data: [1, 2.5] }).success).toBe(true);
    expect(response('listNumbers').safeParse({ data: [{ name: 'a' }] }).success).toBe(false);
    expect(response('listThings').safeParse({ data: [{ name: 'a' }] }).success).toBe(true);
    expect(response('listThings').safeParse({ data: [1] }).success).toBe(false);
  });

  it('gives mocks whose items are of the bound type, each accepted by the response schema', () => {
    let items = 0;
    for (let seed = 1; seed <= 25; seed++) {
      const numbers = mocks['listNumbers']!({ seed }).body as { data: unknown[] };
      expect(response('listNumbers').safeParse(numbers).success, `seed ${seed}: ${JSON.stringify(numbers)}`).toBe(true);
      for (const item of numbers.data) expect(typeof item).toBe('number');
      const things = mocks['listThings']!({ seed }).body as { data: unknown[] };
      expect(response('listThings').safeParse(things).success, `seed ${seed}: ${JSON.stringify(things)}`).toBe(true);
      for (const item of things.data) expect(item).toMatchObject({ name: expect.any(String) });
      items += numbers.data.length + things.data.length;
    }
    expect(items).toBeGreaterThan(0);
  });
});

describe('$dynamicRef reached through a plain object, by a reference into the middle of a resource', () => {
  // Outer binds T to strings; the list inside it declares numbers, but Outer, entered first, wins.
  const NESTED = {
    openapi: '3.1.0',
    info: { title: 'Nested', version: '1.0.0' },
    paths: { '/holder': { get: { operationId: 'getHolder', responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `${S}/Holder` } } } } } } } },
    components: {
      schemas: {
        Outer: {
          $id: `${BASE}/outer`,
          $defs: {
            t: { $dynamicAnchor: 'T', type: 'string' },
            Wrapper: {
              type: 'object',
              properties: { list: { $id: `${BASE}/list`, $defs: { t: { $dynamicAnchor: 'T', type: 'number' } }, type: 'array', minItems: 1, items: { $dynamicRef: '#T' } } },
            },
          },
          $ref: '#/$defs/Wrapper',
        },
        // A plain object whose member refers into the middle of Outer: Outer's anchors are in scope there too.
        Holder: { type: 'object', required: ['w'], properties: { w: { $ref: `${S}/Outer/$defs/Wrapper` } } },
      },
    },
  };
  let nested: { v: Validators; mocks: Record<string, Mock> };
  beforeAll(async () => {
    nested = await generated(NESTED, 'dynamic-ref-nested');
  }, 60_000);

  it('answers as the resource itself does: the outer binding wins, whichever way in', () => {
    const ok = (name: string, value: unknown) => nested.v.schemas[name]!.safeParse(value).success;
    expect(ok('Outer', { list: ['a'] })).toBe(true);
    expect(ok('Outer', { list: [1] })).toBe(false);
    expect(ok('Holder', { w: { list: ['a'] } })).toBe(true);
    expect(ok('Holder', { w: { list: [1] } })).toBe(false);
  });

  it('gives mocks of the same binding', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const body = nested.mocks['getHolder']!({ seed }).body as { w: { list?: unknown[] } };
      expect(nested.v.schemas['Holder']!.safeParse(body).success, JSON.stringify(body)).toBe(true);
      for (const item of body.w.list ?? []) expect(typeof item).toBe('string');
    }
  });
});
