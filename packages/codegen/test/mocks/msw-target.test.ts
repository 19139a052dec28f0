import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dump } from 'js-yaml';
import { generate, parseTargetList, resolveTargets } from '../../src/generate.js';
import { scratchDir } from '../helpers/generated.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Msw', version: '1.0.0' },
  servers: [{ url: 'https://api.example/v1' }],
  components: { securitySchemes: { Key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
  paths: {
    '/things/{id}': {
      get: {
        operationId: 'GetThing',
        security: [{ Key: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: { id: { type: 'string' } } } } } } },
      },
    },
  },
};

describe('the msw target', () => {
  it('is asked for by name only, and brings the mocks and validators', () => {
    expect(parseTargetList('all')).not.toContain('msw');
    expect(parseTargetList('msw')).toStrictEqual(['msw']);
    expect(resolveTargets(['msw']).targets).toStrictEqual(['validators', 'mocks', 'msw']);
  });

  it('writes mocks/msw.ts and its runtime beside the mocks', async () => {
    const dir = await scratchDir();
    const spec = path.join(dir, 'api.yaml');
    await writeFile(spec, dump(SPEC));
    const { files } = await generate({ spec, targets: ['msw'] });
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['mocks/msw.ts', 'mocks/msw-runtime.gen.ts', 'mocks/msw-path.gen.ts', 'mocks/index.ts', 'mocks/mock.gen.ts', 'validators/index.ts']));
    const runtime = files.find((f) => f.path === 'mocks/msw-runtime.gen.ts')!.contents;
    expect(runtime).toContain("from './mock.gen.js'");
    expect(runtime).not.toContain("from './mock.js'");
    expect(runtime).toContain("from './msw-path.gen.js'");
    expect(runtime).toContain("from 'msw'");
    const msw = files.find((f) => f.path === 'mocks/msw.ts')!.contents;
    expect(msw).toContain("import { operations } from '../validators/index.js';");
    expect(msw).toContain('export const pathPrefix = "/v1";');
    expect(msw).toContain('"GetThing": [');
    expect(msw).toContain('"name": "X-Api-Key"');
    expect(msw).toMatch(/export const handlers = /);
    expect(msw).toMatch(/export const mswHandlers = /);
    expect(msw).toMatch(/export function createHandlers\(/);
  });

  it('is not written by the mocks target alone', async () => {
    const dir = await scratchDir();
    const spec = path.join(dir, 'api.yaml');
    await writeFile(spec, dump(SPEC));
    const { files } = await generate({ spec, targets: ['mocks'] });
    expect(files.map((f) => f.path)).not.toContain('mocks/msw.ts');
  });
});
