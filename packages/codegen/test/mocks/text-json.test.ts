/**
 * `text/json` in mocks: a JSON media type, as the runtimes read and write it. Chosen before a
 * text type when no media type is asked for, answered with a JSON value, and a `multipart/mixed`
 * part declared `text/json` carries an object item.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '../../src/index.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';

const NOTE = { type: 'object', required: ['text'], properties: { text: { type: 'string' } } };
const SPEC = {
  openapi: '3.2.0',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/note': { get: { operationId: 'getNote', responses: { '200': { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } }, 'text/json': { schema: NOTE } } } } } },
    '/notes': {
      get: {
        operationId: 'listNotes',
        responses: { '200': { description: 'ok', content: { 'multipart/mixed': { itemSchema: NOTE, itemEncoding: { contentType: 'text/json' } } } } },
      },
    },
  },
};

type Mock = (options?: Record<string, unknown>) => { status: number; contentType: string | undefined; body: unknown };
let mocks: Record<string, Mock>;

beforeAll(async () => {
  const dir = await scratchDir('mocks-text-json');
  const spec = path.join(dir, 'notes.json');
  await writeFile(spec, JSON.stringify(SPEC));
  const result = await generate({ spec, targets: ['mocks'] });
  expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  await writeFiles(dir, result.files, { check: false });
  ({ mocks } = (await import(pathToFileURL(path.join(dir, 'mocks/index.ts')).href)) as { mocks: Record<string, Mock> });
}, 60_000);
afterAll(() => removeScratchDirs());

describe('text/json in mocks', () => {
  it('is the default answer over text/plain, with a JSON value', () => {
    const answer = mocks['getNote']!({ seed: 3 });
    expect(answer.contentType).toBe('text/json');
    expect(answer.body).toMatchObject({ text: expect.any(String) });
  });

  it('lets a multipart/mixed part declared text/json carry an object item', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const answer = mocks['listNotes']!({ seed });
      expect(answer.contentType, `seed ${seed}`).toBe('multipart/mixed');
      for (const item of answer.body as unknown[]) expect(item, `seed ${seed}`).toMatchObject({ text: expect.any(String) });
    }
  });
});
