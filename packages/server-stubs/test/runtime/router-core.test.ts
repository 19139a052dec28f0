/**
 * The runtime router on hand-built API definitions (the shapes the generator emits), for
 * what the Bank Data Sharing specs do not exercise: specs without 415, other error shapes,
 * other security schemes, bodies parsed by other middleware, plain Node without Express.
 * Run against Express 5 and Express 4.
 */
import http from 'node:http';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiRouter, type ApiDefinition, type RouterOptions } from '../../src/runtime/index.js';
import { EXPRESS } from '../helpers/apps.js';
import { getOperation, oneOperationApi } from '../helpers/definitions.js';
import { listen, send, type Running } from '../helpers/http.js';

const noParams = z.looseObject({});
const lfiError = z.looseObject({ errorCode: z.string(), errorMessage: z.string() });

/** A tiny API: a form POST without 415, an apiKey-protected GET, an optionally secured GET. */
const definition: ApiDefinition = {
  api: { title: 'Mini', version: '1', pathPrefix: '/mini', servers: ['/mini'] },
  operations: {
    postForm: {
      operationId: 'postForm',
      method: 'post',
      path: '/forms',
      request: {
        path: noParams,
        query: noParams,
        headers: noParams,
        cookies: noParams,
        body: { required: true, content: { 'application/x-www-form-urlencoded': z.looseObject({ grant_type: z.literal('client_credentials'), scope: z.string() }) } },
      },
      responses: {
        '200': { headers: noParams, content: { 'application/json': z.strictObject({ got: z.unknown() }) } },
        '400': { headers: noParams, content: { 'application/json': lfiError } },
      },
    },
    getItem: {
      operationId: 'getItem',
      method: 'get',
      path: '/items/{id}.json',
      request: { path: z.looseObject({ id: z.string().max(5) }), query: z.looseObject({ n: z.preprocess((v) => Number(v), z.int()).optional() }), headers: noParams, cookies: z.looseObject({ session: z.string().optional() }), body: undefined },
      responses: {
        '200': { headers: noParams, content: { 'application/json': z.strictObject({ id: z.string(), n: z.number().optional(), session: z.string().optional() }) } },
        '400': { headers: noParams, content: { 'application/json': lfiError } },
      },
    },
    getSpecial: {
      operationId: 'getSpecial',
      method: 'get',
      path: '/items/special.json',
      request: { path: noParams, query: noParams, headers: noParams, cookies: noParams, body: undefined },
      responses: { '200': { headers: noParams, content: { 'text/plain': z.string() } } },
    },
    postJson: {
      operationId: 'postJson',
      method: 'post',
      path: '/json',
      request: { path: noParams, query: noParams, headers: noParams, cookies: noParams, body: { required: false, content: { 'application/json': z.strictObject({ a: z.number() }) } } },
      responses: { '200': { headers: noParams, content: { 'application/json': z.unknown() } }, default: { headers: noParams, content: { 'application/json': lfiError } } },
    },
  },
  meta: {
    postForm: { security: [], permissions: [] },
    getItem: { security: [{ key: [] }], permissions: [] },
    getSpecial: { security: [{ key: ['admin'] }, {}], permissions: [] },
    postJson: { security: [], permissions: [] },
  },
  securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
};

const handlers = {
  postForm: (req: { body: unknown }) => ({ status: 200, body: { got: req.body } }),
  getItem: (req: { path: { id: string }; query: { n?: number }; cookies: { session?: string } }) => ({
    status: 200,
    body: { id: req.path.id, ...(req.query.n !== undefined ? { n: req.query.n } : {}), ...(req.cookies.session ? { session: req.cookies.session } : {}) },
  }),
  getSpecial: () => ({ status: 200, body: 'special' }),
  postJson: (req: { body: unknown }) => ({ status: 200, body: { body: req.body ?? null } }),
};

const options: RouterOptions = {
  authorize: ({ credential }) => (credential === 'k1' ? { scopes: [] } : credential === 'admin-key' ? { scopes: ['admin'] } : undefined),
  onError: () => undefined,
};

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe.each(EXPRESS)('runtime router on %s', (_name, express) => {
  async function start(extra: (app: ReturnType<typeof express>) => void = () => undefined): Promise<string> {
    const app = express();
    extra(app);
    app.use(createApiRouter(definition, handlers, options));
    running = await listen(app);
    return `${running.origin}/mini`;
  }

  it('answers an unaccepted body type with 400 where the operation defines no 415, in the spec shape', async () => {
    const base = await start();
    const reply = await send(`${base}/forms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      errorCode: 'Body.InvalidFormat',
      errorMessage: 'Content-Type: Content-Type application/json is not accepted; use application/x-www-form-urlencoded',
    });
  });

  it('parses and validates form bodies', async () => {
    const base = await start();
    const ok = await send(`${base}/forms`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=directory%3Asoftware' });
    expect(ok.json()).toEqual({ got: { grant_type: 'client_credentials', scope: 'directory:software' } });
    const bad = await send(`${base}/forms`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password&scope=x' });
    expect(bad.status).toBe(400);
    expect((bad.json() as { errorCode: string }).errorCode).toBe('Body.InvalidFormat');
    const proto = await send(`${base}/forms`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '__proto__=x' });
    expect(proto.status).toBe(400);
  });

  it('takes an apiKey credential from its header, and prefers literal path segments', async () => {
    const base = await start();
    expect((await send(`${base}/items/abc.json`)).status).toBe(401);
    expect((await send(`${base}/items/abc.json`, { headers: { 'x-api-key': 'nope' } })).status).toBe(401);
    const ok = await send(`${base}/items/abc.json?n=4`, { headers: { 'x-api-key': 'k1', cookie: 'session=s%201; other=x' } });
    expect(ok.json()).toEqual({ id: 'abc', n: 4, session: 's 1' });
    // `{}` among the alternatives makes security optional; the literal path wins over {id}.json.
    const special = await send(`${base}/items/special.json`);
    expect(special.status).toBe(200);
    expect(special.headers['content-type']).toBe('text/plain');
    expect(special.text).toBe('special');
  });

  it('names invalid parameters in the LFI error shape', async () => {
    const base = await start();
    const reply = await send(`${base}/items/toolong.json?n=x`, { headers: { 'x-api-key': 'k1' } });
    expect(reply.status).toBe(400);
    const body = reply.json() as { errorCode: string; errorMessage: string };
    expect(body.errorCode).toBe('Resource.InvalidFormat');
    expect(body.errorMessage).toMatch(/^id: path parameter id: .*; n: query parameter n: /);
  });

  it('accepts an optional body being absent, and uses the default response for errors', async () => {
    const base = await start();
    expect((await send(`${base}/json`, { method: 'POST' })).json()).toEqual({ body: null });
    const bad = await send(`${base}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":"x"}' });
    expect(bad.status).toBe(400);
    expect((bad.json() as { errorCode: string }).errorCode).toBe('Body.InvalidFormat');
  });

  it('works after express.json() has consumed the body, with the same safety checks', async () => {
    const base = await start((app) => app.use(express.json()));
    expect((await send(`${base}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })).json()).toEqual({ body: { a: 1 } });
    const proto = await send(`${base}/json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"__proto__":{"a":1}}' });
    expect(proto.status).toBe(400);
  });

  it('runs under an Express mount path, with the prefix relative to it', async () => {
    const app = express();
    app.use('/api', createApiRouter(definition, handlers, { ...options, prefix: '' }));
    running = await listen(app);
    const reply = await send(`${running.origin}/api/items/special.json`);
    expect(reply.text).toBe('special');
  });
});

describe('runtime router without Express', () => {
  it('serves plain node:http and answers 404 itself outside its prefix', async () => {
    const router = createApiRouter(definition, handlers, options);
    running = await listen((req, res) => router(req, res));
    expect((await send(`${running.origin}/mini/items/special.json`)).text).toBe('special');
    expect((await send(`${running.origin}/other`)).status).toBe(404);
  });

  it('sends text bodies with their length in bytes, not characters, and HEAD with the same length and no body', async () => {
    const router = createApiRouter(definition, handlers, options);
    running = await listen((req, res) => router(req, res));
    // `é€` is 2 characters and 5 bytes in UTF-8: the answer is sent as text, its length counted in bytes.
    const url = `${running.origin}/mini/items/%C3%A9%E2%82%AC.json`;
    const reply = await send(url, { headers: { 'x-api-key': 'k1' } });
    expect(reply.status).toBe(200);
    expect(reply.json()).toEqual({ id: 'é€' });
    expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(reply.text, 'utf8')));
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(reply.text.length);
    const head = await send(url, { method: 'HEAD', headers: { 'x-api-key': 'k1' } });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-length']).toBe(reply.headers['content-length']);
  });

  it('is mounted at the prefix of the first server, normalised', () => {
    expect(createApiRouter(definition, handlers, options).prefix).toBe('/mini');
    expect(createApiRouter(definition, handlers, { ...options, prefix: 'x/y/' }).prefix).toBe('/x/y');
  });
});

describe('operations without a handler', () => {
  const { postForm: _form, getItem: _item, ...partial } = handlers;

  it('are named once, when the router is created, and answer 501 in the spec\'s error shape once the caller is allowed', async () => {
    const told: unknown[] = [];
    const router = createApiRouter(definition, partial, { ...options, onMissingHandlers: (ops) => told.push(ops) });
    expect(told).toStrictEqual([
      [
        { operationId: 'postForm', method: 'post', path: '/forms' },
        { operationId: 'getItem', method: 'get', path: '/items/{id}.json' },
      ],
    ]);
    running = await listen((req, res) => router(req, res));
    const base = `${running.origin}/mini`;
    const missing = await send(`${base}/forms`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&scope=x' });
    expect(missing.status).toBe(501);
    // The envelope of this API (its 400 schema): { errorCode, errorMessage }.
    expect(missing.json()).toStrictEqual({ errorCode: 'Request.NotImplemented', errorMessage: 'POST /forms (postForm) is not implemented by this server' });
    // Credentials come first: no key, 401; with the key, 501.
    expect((await send(`${base}/items/abc.json`)).status).toBe(401);
    const item = await send(`${base}/items/abc.json`, { headers: { 'x-api-key': 'k1' } });
    expect(item.status).toBe(501);
    expect((item.json() as { errorMessage: string }).errorMessage).toBe('GET /items/{id}.json (getItem) is not implemented by this server');
    // Operations with a handler are served as before, and nothing more was told.
    expect((await send(`${base}/items/special.json`)).text).toBe('special');
    expect(told).toHaveLength(1);
  });

  it('are named in one console.warn line by default, and never when every operation has a handler', () => {
    const warnings: unknown[][] = [];
    const original = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args);
    try {
      createApiRouter(definition, partial, options);
      createApiRouter(definition, handlers, options);
    } finally {
      console.warn = original;
    }
    expect(warnings).toStrictEqual([
      ['[server-stubs] createRouter: 2 operation(s) have no handler and answer 501: postForm (POST /forms), getItem (GET /items/{id}.json)'],
    ]);
  });

  it("make createRouter throw with missingHandlers: 'throw'", () => {
    expect(() => createApiRouter(definition, partial, { ...options, missingHandlers: 'throw' })).toThrow(
      "createRouter: no handler for postForm, getItem (missingHandlers: 'throw')",
    );
    expect(() => createApiRouter(definition, handlers, { ...options, missingHandlers: 'throw' })).not.toThrow();
    expect(() => createApiRouter(definition, handlers, { ...options, missingHandlers: 'nope' as 'throw' })).toThrow('options.missingHandlers must be');
  });
});

describe('start-up checks', () => {
  it('refuses a missing authorize hook, and signed bodies without a key', () => {
    expect(() => createApiRouter(definition, handlers, {})).toThrow('createRouter: getItem (and 1 more) require security; pass options.authorize');
    const signed: ApiDefinition = {
      ...definition,
      operations: {
        ...definition.operations,
        postJson: { ...definition.operations.postJson!, request: { ...definition.operations.postJson!.request, body: { required: true, content: { 'application/jwt': z.unknown() } } } },
      },
    };
    expect(() => createApiRouter(signed, handlers, options)).toThrow('createRouter: postJson accept signed (application/jwt) bodies; pass options.verification');
  });
});

it('never lets a slow or aborted upload crash the router', async () => {
  const router = createApiRouter(definition, handlers, options);
  running = await listen((req, res) => router(req, res));
  const { origin } = running;
  await new Promise<void>((resolve) => {
    const req = http.request(`${origin}/mini/json`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1000' } });
    req.on('error', () => resolve());
    req.write('{"a":');
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 50);
  });
  expect((await send(`${origin}/mini/items/special.json`)).text).toBe('special');
});

describe('a status range written in lower case', () => {
  it('covers a handler\'s answer as it covers the router\'s own, with answers checked', async () => {
    const lowerCase = oneOperationApi(
      'Ranges',
      '/r',
      getOperation(
        'getThing',
        '/things/{id}',
        {
          '200': { headers: noParams, content: { 'application/json': z.strictObject({ id: z.string() }) } },
          '4xx': { headers: noParams, content: { 'application/json': lfiError } },
        },
        { path: z.looseObject({ id: z.string() }) },
      ),
    );
    const router = createApiRouter(lowerCase, { getThing: () => ({ status: 404, body: { errorCode: 'Thing.NotFound', errorMessage: 'no such thing' } }) }, { onError: () => undefined, validateResponses: true });
    running = await listen((req, res) => router(req, res));
    const reply = await send(`${running.origin}/r/things/x`);
    expect(reply.status).toBe(404);
    expect(reply.json()).toEqual({ errorCode: 'Thing.NotFound', errorMessage: 'no such thing' });
  });
});
