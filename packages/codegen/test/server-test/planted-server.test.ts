/**
 * The planted-defect fixture (planted/): the contract parses, the correct server keeps it strictly
 * (every request outside it refused with the declared status, every answer valid), and each
 * planted defect shows, and is the only change from the correct server on a fixed set of probes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFECTS, startPlantedServer, type DefectName, type PlantedServer } from './planted/planted-server.mjs';

const require = createRequire(import.meta.url);
const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');
const here = path.dirname(fileURLToPath(import.meta.url));
const SPEC_FILE = path.join(here, 'planted/inventory.yaml');
const AUTH = { authorization: 'Bearer good-token' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parsed JSON of the answers, read loosely: the schemas are checked with ajv. */
type Json = any;

interface Answer {
  status: number;
  contentType: string;
  headers: Headers;
  text: string;
  json: Json;
}

interface Call {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Blob;
  /** Send the valid bearer token (default true). */
  auth?: boolean;
}

async function call(server: PlantedServer, target: string, { method = 'GET', headers = {}, body, auth = true }: Call = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${target}`, { method, headers: { ...(auth ? AUTH : {}), ...headers }, body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', headers: res.headers, text, json };
}

const postJson = (server: PlantedServer, value: unknown, headers: Record<string, string> = {}) =>
  call(server, '/items', { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof value === 'string' ? value : JSON.stringify(value) });

const doc = load(readFileSync(SPEC_FILE, 'utf8')) as Json;

/** A validator of one component schema of the file (OpenAPI 3.0 schemas here are plain JSON Schema). */
function schemaOf(name: string): ValidateFunction {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile({ $ref: `#/components/schemas/${name}`, components: doc.components });
}
const isItem = schemaOf('Item');
const isPage = schemaOf('ItemPage');
const isError = schemaOf('Error');

function expectError(answer: Answer, status: number): void {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.contentType).toBe('application/json');
  expect(isError(answer.json), answer.text).toBe(true);
}

describe('inventory.yaml', () => {
  it('is OpenAPI 3.0.3 with the three operations, bearer security and the link', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.servers).toEqual([{ url: '/inventory/v1' }]);
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/items'].get.operationId).toBe('listItems');
    expect(doc.paths['/items'].post.operationId).toBe('createItem');
    expect(doc.paths['/items/{itemId}'].get.operationId).toBe('getItem');
    expect(doc.paths['/items'].get.responses['200'].headers['X-Request-Id'].required).toBe(true);
    expect(doc.paths['/items'].post.responses['201'].links.GetCreatedItem).toMatchObject({ operationId: 'getItem', parameters: { itemId: '$response.body#/id' } });
  });

  it('has examples that its own schemas accept', () => {
    expect(isPage(doc.paths['/items'].get.responses['200'].content['application/json'].example)).toBe(true);
    expect(isItem(doc.paths['/items'].post.responses['201'].content['application/json'].example)).toBe(true);
    expect(isItem(doc.paths['/items/{itemId}'].get.responses['200'].content['application/json'].example)).toBe(true);
    const newItem = schemaOf('NewItem');
    expect(newItem(doc.paths['/items'].post.requestBody.content['application/json'].example)).toBe(true);
    expect(doc.paths['/items/{itemId}'].get.parameters[0].example).toMatch(/^itm-[0-9]{3}$/);
  });
});

describe('the correct server', () => {
  let server: PlantedServer;
  beforeAll(async () => {
    server = await startPlantedServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('listens on 127.0.0.1 under the file\'s server path', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/inventory\/v1$/);
    expect(server.url.startsWith(server.origin)).toBe(true);
  });

  it('refuses every request without exactly "Bearer good-token" with 401, before anything else', async () => {
    const wrong: Record<string, string>[] = [{}, { authorization: 'Bearer bad-token' }, { authorization: 'bearer good-token' }, { authorization: 'Bearer  good-token' }, { authorization: 'Bearer good-token2' }, { authorization: 'Basic Z29vZC10b2tlbg==' }, { authorization: 'good-token' }];
    for (const headers of wrong) {
      const answer = await call(server, '/items', { auth: false, headers });
      expectError(answer, 401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    }
    // Before the 400 of a malformed id, the 400 of a bad query, the 404 of an unknown path, the 415 of a wrong body.
    expectError(await call(server, '/items/nope', { auth: false }), 401);
    expectError(await call(server, '/items?page=0', { auth: false }), 401);
    expectError(await call(server, '/nowhere', { auth: false }), 401);
    expectError(await call(server, '/items', { auth: false, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }), 401);
  });

  it('lists the first page by default, with X-Request-Id and a valid ItemPage', async () => {
    const answer = await call(server, '/items');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    expect(answer.headers.get('x-request-id')).toMatch(UUID);
    expect(isPage(answer.json), answer.text).toBe(true);
    expect(answer.json.data.map((i: Json) => i.id)).toEqual(Array.from({ length: 10 }, (_, i) => `itm-${String(i + 1).padStart(3, '0')}`));
    expect(answer.json.meta).toEqual({ totalPages: 3, totalRecords: 25 });
    // The file's example is the real first page of two.
    const example = await call(server, '/items?page=1&page-size=2');
    expect(example.json).toEqual(doc.paths['/items'].get.responses['200'].content['application/json'].example);
    const again = await call(server, '/items');
    expect(again.headers.get('x-request-id')).toMatch(UUID);
    expect(again.headers.get('x-request-id')).not.toBe(answer.headers.get('x-request-id'));
  });

  it('refuses page and page-size outside their bounds or not canonical integers, and repeated values, with 400', async () => {
    const bad = ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=', 'page=1e1', 'page=+1', 'page=%201', 'page=0x1', 'page-size=0', 'page-size=101', 'page-size=1.5', 'page-size=', 'page-size=ten', 'page=1&page=2', 'page-size=5&page-size=5'];
    for (const query of bad) expectError(await call(server, `/items?${query}`), 400);
    for (const query of ['page=1', 'page-size=1', 'page-size=100', 'page=3&page-size=10', 'page=007', 'unknown=1&page=2']) {
      const answer = await call(server, `/items?${query}`);
      expect(answer.status, query).toBe(200);
      expect(isPage(answer.json), query).toBe(true);
    }
    expect((await call(server, '/items?page-size=100')).json.data).toHaveLength(25);
  });

  it('answers a page beyond the last with an empty data and the same meta', async () => {
    for (const query of ['page=4&page-size=10', 'page=26&page-size=1', 'page=99999999999999999999']) {
      const answer = await call(server, `/items?${query}`);
      expect(answer.status, query).toBe(200);
      expect(answer.json.data, query).toEqual([]);
      expect(isPage(answer.json)).toBe(true);
    }
    expect((await call(server, '/items?page=4&page-size=10')).json.meta).toEqual({ totalPages: 3, totalRecords: 25 });
  });

  it('pages through all 25 items with no repeats, the same on two reads in a row', async () => {
    async function readAll(size: number): Promise<string[]> {
      const ids: string[] = [];
      const first = await call(server, `/items?page=1&page-size=${size}`);
      for (let page = 1; page <= first.json.meta.totalPages; page++) {
        const answer = await call(server, `/items?page=${page}&page-size=${size}`);
        expect(answer.json.meta).toEqual(first.json.meta);
        ids.push(...answer.json.data.map((i: Json) => i.id));
      }
      return ids;
    }
    for (const size of [1, 7, 10, 25]) {
      const one = await readAll(size);
      const two = await readAll(size);
      expect(one).toEqual(two);
      expect(one).toHaveLength(25);
      expect(new Set(one).size).toBe(25);
      expect([...one].sort()).toEqual(one);
    }
  });

  it('reads an item by id: 200 valid Item, 404 unknown, 400 malformed (percent-decoded first)', async () => {
    const answer = await call(server, '/items/itm-001');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    expect(isItem(answer.json)).toBe(true);
    expect(answer.json).toEqual(doc.paths['/items/{itemId}'].get.responses['200'].content['application/json'].example);
    expect((await call(server, '/items/itm%2D025')).json.id).toBe('itm-025');
    for (const id of ['itm-000', 'itm-500', 'itm-999']) expectError(await call(server, `/items/${id}`), 404);
    for (const id of ['abc', 'itm-1', 'ITM-001', 'itm-0011', 'itm-00a', '%20itm-001', 'itm-001%0A', '%E0%A4%A', 'itm%2F001', '']) expectError(await call(server, `/items/${id}`), 400);
  });

  it('creates an item (201, the next id), readable with GET, leaving the list unchanged', async () => {
    const before = await call(server, '/items?page-size=100');
    const created = await postJson(server, { name: 'Hex nut', quantity: 12, tags: ['hardware', 'metric'] });
    expect(created.status, created.text).toBe(201);
    expect(created.contentType).toBe('application/json');
    expect(created.json).toEqual({ id: 'itm-026', name: 'Hex nut', quantity: 12, tags: ['hardware', 'metric'] });
    expect(isItem(created.json)).toBe(true);
    const read = await call(server, `/items/${created.json.id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
    // Parameters of the media type are allowed; 40 code points (80 UTF-16 units) is not too long.
    const second = await postJson(server, { name: '😀'.repeat(40), quantity: 0 }, { 'content-type': 'application/json; charset=utf-8' });
    expect(second.status, second.text).toBe(201);
    expect(second.json).toEqual({ id: 'itm-027', name: '😀'.repeat(40), quantity: 0 });
    const after = await call(server, '/items?page-size=100');
    expect(after.json).toEqual(before.json);
  });

  it('refuses a body that is not application/json with 415', async () => {
    const body = JSON.stringify({ name: 'Hex nut', quantity: 1 });
    for (const type of ['text/plain', 'application/xml', 'application/jsonx', 'application/merge-patch+json', 'multipart/form-data; boundary=x']) {
      expectError(await call(server, '/items', { method: 'POST', headers: { 'content-type': type }, body }), 415);
    }
    expectError(await call(server, '/items', { method: 'POST', body: new Blob([body]) }), 415);
  });

  it('refuses a body outside NewItem with 400, and one over 64 KiB with 413', async () => {
    const bad: unknown[] = [
      { name: 'Hex nut', quantity: 1, colour: 'red' },
      { name: 'Hex nut', quantity: 1, id: 'itm-050' },
      { quantity: 1 },
      { name: 'Hex nut' },
      { name: '', quantity: 1 },
      { name: 'x'.repeat(41), quantity: 1 },
      { name: 7, quantity: 1 },
      { name: 'Hex nut', quantity: 1.5 },
      { name: 'Hex nut', quantity: '3' },
      { name: 'Hex nut', quantity: -1 },
      { name: 'Hex nut', quantity: null },
      { name: 'Hex nut', quantity: 1, tags: ['a', 'b', 'c', 'd', 'e', 'f'] },
      { name: 'Hex nut', quantity: 1, tags: [1] },
      { name: 'Hex nut', quantity: 1, tags: 'hardware' },
      { name: 'Hex nut', quantity: 1, tags: null },
      'null',
      '[]',
      '"Hex nut"',
      '12',
      'not json',
      '',
      '{"name":"Hex nut","quantity":1,"__proto__":{}}',
      '{"name":"Hex nut","quantity":1e400}',
    ];
    for (const value of bad) expectError(await postJson(server, value), 400);
    expectError(await postJson(server, { name: 'Hex nut', quantity: 1, tags: ['x'.repeat(70_000)] }), 413);
    // None of them was stored: the next id is still the one after those created above (or itm-026).
    const next = await postJson(server, { name: 'Washer', quantity: 3 });
    expect(next.status).toBe(201);
    expect(['itm-026', 'itm-028']).toContain(next.json.id);
  });

  it('answers unknown paths with 404 and other methods on known paths with 405', async () => {
    expectError(await call(server, '/nowhere'), 404);
    expectError(await call(server, '/items/itm-001/parts'), 404);
    expectError(await fetch(`${server.origin}/items`, { headers: AUTH }).then(async (r) => ({ status: r.status, contentType: r.headers.get('content-type') ?? '', headers: r.headers, text: '', json: await r.json() })), 404);
    const deleted = await call(server, '/items/itm-001', { method: 'DELETE' });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get('allow')).toBe('GET');
    const put = await call(server, '/items', { method: 'PUT', body: '{}' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, POST');
  });
});

/** Requests sent to every variant; an answer is reduced to what a defect may change. */
const PROBES: Record<string, { target: string } & Call> = {
  'list-page-1': { target: '/items?page=1&page-size=10' },
  'list-page-2': { target: '/items?page=2&page-size=10' },
  'list-page-3': { target: '/items?page=3&page-size=10' },
  get: { target: '/items/itm-001' },
  'get-unknown': { target: '/items/itm-500' },
  'get-malformed': { target: '/items/abc' },
  create: { target: '/items', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Hex nut', quantity: 12 }) },
  'create-invalid': { target: '/items', method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Hex nut', quantity: 1.5, colour: 'red' }) },
  'create-wrong-type': { target: '/items', method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'Hex nut' },
  'no-token': { target: '/items', auth: false },
  'wrong-token': { target: '/items/itm-001', auth: false, headers: { authorization: 'Bearer bad-token' } },
};

async function fingerprints(server: PlantedServer): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, { target, ...options }] of Object.entries(PROBES)) {
    const answer = await call(server, target, options);
    out[name] = `${answer.status} ${answer.contentType} request-id:${UUID.test(answer.headers.get('x-request-id') ?? '')} ${answer.text}`;
  }
  return out;
}

/** Which probes each defect changes, and a closer look at how. */
const EXPECTED: Record<DefectName, { changes: string[]; check(server: PlantedServer): Promise<void> }> = {
  'missing-required-member': {
    changes: ['get'],
    async check(server) {
      const answer = await call(server, '/items/itm-001');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ id: 'itm-001', name: 'Anchor bolt', tags: ['hardware'] });
      expect(isItem(answer.json)).toBe(false);
    },
  },
  'wrong-type': {
    changes: ['get'],
    async check(server) {
      const answer = await call(server, '/items/itm-001');
      expect(answer.status).toBe(200);
      expect(answer.json.quantity).toBe('7');
      expect(isItem(answer.json)).toBe(false);
    },
  },
  'undeclared-status': {
    changes: ['get'],
    async check(server) {
      const answer = await call(server, '/items/itm-001');
      expect(answer.status).toBe(203);
      expect(isItem(answer.json)).toBe(true);
    },
  },
  'undeclared-content-type': {
    changes: ['get'],
    async check(server) {
      const answer = await call(server, '/items/itm-001');
      expect(answer.status).toBe(200);
      expect(answer.contentType).toBe('text/plain');
      expect(isItem(answer.json)).toBe(true);
    },
  },
  'server-error-on-malformed': {
    changes: ['get-malformed'],
    async check(server) {
      for (const id of ['abc', 'itm-1', '%E0%A4%A']) {
        const answer = await call(server, `/items/${id}`);
        expect(answer.status).toBe(500);
        expect(answer.contentType).toBe('text/plain');
        expect(answer.json).toBeUndefined();
      }
    },
  },
  'invalid-body-accepted': {
    changes: ['create-invalid'],
    async check(server) {
      const answer = await postJson(server, { quantity: 'many', colour: 'red' });
      expect(answer.status).toBe(201);
      expect(isItem(answer.json)).toBe(true);
      expect((await call(server, `/items/${answer.json.id}`)).json).toEqual(answer.json);
      expectError(await postJson(server, '[]'), 400); // still a JSON object only
    },
  },
  'unenforced-security': {
    changes: ['no-token', 'wrong-token'],
    async check(server) {
      expect((await call(server, '/items', { auth: false })).status).toBe(200);
      expect((await postJson(server, { name: 'Hex nut', quantity: 1 }, { authorization: 'Bearer nope' })).status).toBe(201);
    },
  },
  'missing-required-header': {
    changes: ['list-page-1', 'list-page-2', 'list-page-3'],
    async check(server) {
      const answer = await call(server, '/items');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-request-id')).toBeNull();
      expect(isPage(answer.json)).toBe(true);
    },
  },
  'page-skipping-record': {
    changes: ['list-page-2'],
    async check(server) {
      const answer = await call(server, '/items?page=2&page-size=10');
      expect(answer.json.data.map((i: Json) => i.id)).toEqual(['itm-012', 'itm-013', 'itm-014', 'itm-015', 'itm-016', 'itm-017', 'itm-018', 'itm-019', 'itm-020']);
      expect(answer.json.meta).toEqual({ totalPages: 3, totalRecords: 25 });
      expect(isPage(answer.json)).toBe(true);
      expect((await call(server, '/items?page=2&page-size=25')).json.data).toEqual([]); // no page 2 when one page holds all
    },
  },
  'member-outside-closed-object': {
    changes: ['get'],
    async check(server) {
      const answer = await call(server, '/items/itm-001');
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ id: 'itm-001', name: 'Anchor bolt', quantity: 7, tags: ['hardware'], internalNote: expect.any(String) });
      expect(isItem(answer.json)).toBe(false);
    },
  },
};

describe('the planted defects', () => {
  let baseline: Record<string, string>;
  beforeAll(async () => {
    const correct = await startPlantedServer();
    try {
      baseline = await fingerprints(correct);
    } finally {
      await correct.close();
    }
  });

  it('are the ten named ones, in order, each described', () => {
    expect(DEFECTS.map((d) => d.name)).toEqual(Object.keys(EXPECTED));
    for (const d of DEFECTS) expect(d.description.length).toBeGreaterThan(20);
  });

  it('refuses an unknown defect name', async () => {
    await expect(startPlantedServer({ defect: 'nope' as DefectName })).rejects.toThrow(/unknown defect/);
  });

  for (const { name } of DEFECTS) {
    it(`${name}: shows, and changes nothing else the probes see`, async () => {
      const server = await startPlantedServer({ defect: name });
      try {
        const seen = await fingerprints(server);
        const changed = Object.keys(PROBES).filter((probe) => seen[probe] !== baseline[probe]);
        expect(changed).toEqual(EXPECTED[name].changes);
        await EXPECTED[name].check(server);
      } finally {
        await server.close();
      }
    });
  }
});
