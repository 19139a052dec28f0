/**
 * Path parameters as the path's template has them. Published files forget to declare a
 * template expression (`/fxTransfers/{commitRequestId}` with no parameter), or declare a path
 * parameter the path does not have. Read as written, the first gives a route no request
 * reaches, the second a route that refuses every request. Here both are mended, with a
 * warning each. Over HTTP, the mock server of such a file then passes `codegen test`.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import { startMockServer, testServer } from '../../src/index.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Templates', version: '1' },
  paths: {
    '/things': { post: { operationId: 'createThing', responses: { '201': { description: 'created' } } } },
    // The expression has no parameter.
    '/things/{thingId}': { put: { operationId: 'putThing', responses: { '200': { description: 'ok' } } } },
    // The path has no expression for the parameter.
    '/others': {
      get: {
        operationId: 'listOthers',
        parameters: [
          { name: 'otherId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
    // Declared partly at the path item, partly at the operation: no warning.
    '/pairs/{id}/{id2}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      get: { operationId: 'getPair', parameters: [{ name: 'id2', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } },
    },
    // An expression written twice, without a parameter: one parameter read for it.
    '/mirror/{side}/to/{side}': { get: { operationId: 'mirror', responses: { '200': { description: 'ok' } } } },
  },
};

afterAll(removeScratchDirs);

describe('path parameters and the path template', () => {
  const api = buildIR({ source: 'templates.json', document: SPEC, diagnostics: [] }).api;
  const op = (id: string) => api.operations.find((o) => o.operationId === id)!;

  it('reads an expression without a parameter as a required string, with a warning naming the operation', () => {
    expect(op('putThing').parameters).toStrictEqual([
      { name: 'thingId', in: 'path', required: true, schema: { kind: 'string', pointer: '#/paths/~1things~1{thingId}/put' }, style: 'simple', explode: false, examples: [] },
    ]);
    expect(api.diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'undeclared-path-parameter', pointer: '#/paths/~1things~1{thingId}/put' }));
  });

  it('leaves out a path parameter the template lacks, with a warning, and keeps the others', () => {
    expect(op('listOthers').parameters.map((p) => `${p.in}:${p.name}`)).toStrictEqual(['query:limit']);
    expect(api.diagnostics).toContainEqual(expect.objectContaining({ severity: 'warning', code: 'path-parameter-not-in-template', pointer: '#/paths/~1others/get' }));
  });

  it('says nothing where the template and the parameters agree', () => {
    expect(op('getPair').parameters.map((p) => p.name)).toStrictEqual(['id', 'id2']);
    expect(api.diagnostics.filter((d) => d.pointer.startsWith('#/paths/~1pairs'))).toStrictEqual([]);
    expect(api.diagnostics.filter((d) => !d.pointer.startsWith('#/paths/~1mirror'))).toHaveLength(2);
  });

  it('reads an expression written twice as one parameter, with one warning', () => {
    expect(op('mirror').parameters.map((p) => `${p.in}:${p.name}`)).toStrictEqual(['path:side']);
    expect(api.diagnostics.filter((d) => d.pointer.startsWith('#/paths/~1mirror')).map((d) => d.code)).toStrictEqual(['undeclared-path-parameter']);
  });

  it('gives a mock server that codegen test finds nothing wrong with: every route reached, none refusing its own requests', { timeout: 60_000 }, async () => {
    const spec = path.join(await scratchDir('path-template'), 'templates.json');
    await writeFile(spec, JSON.stringify(SPEC));
    const server = await startMockServer({ spec, port: 0, onError: () => {} });
    try {
      const report = await testServer({ spec, baseUrl: server.url, maxExamples: 3 });
      expect(report.failures.map((f) => `${f.operation} ${f.check}: ${f.message}`)).toStrictEqual([]);
      expect(report.operations.map((o) => o.operation).sort()).toStrictEqual(['createThing', 'getPair', 'listOthers', 'mirror', 'putThing']);
    } finally {
      await server.close();
    }
  });
});
