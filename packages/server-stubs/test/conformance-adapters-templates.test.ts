/**
 * Path templates Fastify's router cannot express (two parameters in a segment, a parameter
 * that is part of one) and a declared 413, on a hand-built API, answered the same by every
 * serving: the Fastify plugin leaves such templates to the router's own matcher.
 */
import { z } from 'zod';
import { createApiRouter, type ApiDefinition } from '../src/runtime/index.js';
import { describeTable, type Case } from './helpers/conformance.js';

const noParams = z.looseObject({});
const problem = z.looseObject({ status: z.number() });
const json = (schema: z.ZodType) => ({ headers: noParams, content: { 'application/json': schema } });
const errors = { '400': json(problem), '404': json(problem), '405': json(problem), '413': json(problem) };
const get = (path: string, params: z.ZodType) => ({
  operationId: path,
  method: 'get',
  path,
  request: { path: params, query: noParams, headers: noParams, cookies: noParams, body: undefined },
  responses: { '200': json(z.looseObject({})), ...errors },
});

const definition: ApiDefinition = {
  api: { title: 'Templates', version: '1', pathPrefix: '/t', servers: ['/t'] },
  operations: {
    getFile: get('/files/{name}.{ext}', z.looseObject({ name: z.string().max(10), ext: z.enum(['json', 'csv']) })),
    getFolder: get('/files/{name}', z.looseObject({ name: z.string() })),
    getStatus: get('/v{major}/status', z.looseObject({ major: z.string().regex(/^\d+$/) })),
    getItem: get('/items/{id}', z.looseObject({ id: z.string() })),
    putItem: {
      operationId: 'putItem',
      method: 'put',
      path: '/items/{id}',
      request: { path: z.looseObject({ id: z.string() }), query: noParams, headers: noParams, cookies: noParams, body: { required: true, content: { 'application/json': z.looseObject({ n: z.number() }) } } },
      responses: { '200': json(z.looseObject({})), ...errors },
    },
  },
  meta: { getFile: { security: [] }, getFolder: { security: [] }, getStatus: { security: [] }, getItem: { security: [] }, putItem: { security: [] } },
  securitySchemes: {},
};

const handlers = {
  getFile: (req: { path: unknown }) => ({ status: 200, body: { file: req.path } }),
  getFolder: (req: { path: unknown }) => ({ status: 200, body: { folder: req.path } }),
  getStatus: (req: { path: unknown }) => ({ status: 200, body: { status: req.path } }),
  getItem: (req: { path: unknown }) => ({ status: 200, body: { item: req.path } }),
  putItem: (req: { body: unknown }) => ({ status: 200, body: { put: req.body } }),
};

const CASES: readonly Case[] = [
  { name: 'two parameters in one segment', path: '/files/report.json', status: 200 },
  { name: 'the whole-segment template beside them', path: '/files/report', status: 200 },
  { name: 'a value the two-parameter template refuses', path: '/files/report.xml', status: 400 },
  { name: '405 at a self-matched template', method: 'POST', path: '/files/report.json', status: 405, expectHeaders: { allow: 'GET, HEAD' } },
  { name: 'HEAD at a self-matched template', method: 'HEAD', path: '/files/report.json', status: 200, codes: [] },
  { name: 'a parameter that is part of a segment', path: '/v2/status', status: 200 },
  { name: 'a part-segment parameter the schema refuses', path: '/vx/status', status: 400 },
  { name: 'a native route', path: '/items/a1', status: 200 },
  { name: '405 with Allow at a native route', method: 'DELETE', path: '/items/a1', status: 405, expectHeaders: { allow: 'GET, PUT, HEAD' } },
  { name: 'a JSON body', method: 'PUT', path: '/items/a1', headers: { 'content-type': 'application/json' }, body: () => '{"n":1}', status: 200 },
  { name: 'a body over the limit: the declared 413', method: 'PUT', path: '/items/a1', headers: { 'content-type': 'application/json' }, body: () => `{"n":1,"pad":"${'x'.repeat(200)}"}`, status: 413, expectHeaders: { connection: 'close' } },
  { name: 'a required body missing', method: 'PUT', path: '/items/a1', status: 400 },
  { name: '404', path: '/nowhere', status: 404 },
];

describeTable('self-matched templates and a declared 413', CASES, {
  base: '/t',
  start: (serving) => serving.start(createApiRouter(definition, handlers, { limits: { bodyBytes: 100 }, onError: () => undefined }), ''),
});
