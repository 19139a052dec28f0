/**
 * Nullable parameters in sampled requests. A parameter's null has no text of its own: the
 * client leaves such a parameter out, and "null" would arrive as that string, which a
 * `format: date-time` (or an integer) refuses. So a sampled request leaves an optional null
 * parameter out and samples a required one again, and `codegen test` finds nothing wrong with
 * the mock of a file full of them.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, testServer, type MockServer } from '../../src/index.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Nulls', version: '1' },
  paths: {
    '/dialogs': {
      get: {
        operationId: 'searchDialogs',
        parameters: [
          { name: 'createdBefore', in: 'query', schema: { type: 'string', format: 'date-time', nullable: true } },
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', minimum: 1, nullable: true } },
          { name: 'x-trace', in: 'header', schema: { type: 'string', format: 'uuid', nullable: true } },
          { name: 'session', in: 'cookie', schema: { type: 'integer', nullable: true } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
};

let spec: string;
let server: MockServer;

beforeAll(async () => {
  spec = path.join(await scratchDir('null-parameters'), 'nulls.json');
  await writeFile(spec, JSON.stringify(SPEC));
  server = await startMockServer({ spec, port: 0, onError: () => {} });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeScratchDirs();
});

describe('nullable parameters in sampled requests', () => {
  it('never send null as text: an optional one is left out, a required one has a value', () => {
    let optionalSent = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const request = server.sampleRequest('searchDialogs', { seed, optional: true, examples: false });
      expect(request.target, `seed ${seed}`).not.toMatch(/=null(&|$)/);
      expect(request.target, `seed ${seed}`).toMatch(/[?&]limit=\d+/);
      expect(Object.values(request.headers), `seed ${seed}`).not.toContain('null');
      if (/createdBefore=/.test(request.target)) optionalSent++;
    }
    // Optional ones are still sent, when their value is not null.
    expect(optionalSent).toBeGreaterThan(0);
  });

  it('give codegen test nothing to report against the mock, whatever the seed', { timeout: 60_000 }, async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const report = await testServer({ spec, baseUrl: server.url, maxExamples: 20, seed });
      expect(report.failures.map((f) => `seed ${seed}: ${f.operation} ${f.check}: ${f.message}`)).toStrictEqual([]);
    }
  });
});
