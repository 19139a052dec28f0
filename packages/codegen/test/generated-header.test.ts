/**
 * The first lines of generated files quote the spec's title, version and file name in a `//`
 * comment: each on one line, so that no text of the spec (a third party's file) becomes code.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../src/generate.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'bds-header-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('generated headers', () => {
  it('keep an info.version or title with line breaks in the comment', async () => {
    const spec = path.join(dir, 'spec.json');
    const document = {
      openapi: '3.0.3',
      info: { title: 'Museum\u2028globalThis.fromTitle = 1; //', version: '1\nglobalThis.fromVersion = 1; //' },
      paths: { '/items': { get: { operationId: 'listItems', responses: { '200': { description: 'ok' } } } } },
    };
    await writeFile(spec, JSON.stringify(document));
    const { files } = await generate({ spec, targets: ['validators', 'server', 'client', 'mocks', 'msw'] });
    let headed = 0;
    for (const file of files) {
      const header = file.contents.split('\n', 1)[0]!;
      if (!header.startsWith('//')) continue;
      headed++;
      // The whole header is one comment line: the version and title in it, no line terminator
      // (JavaScript ends a line at U+2028 and U+2029 too).
      expect(header, file.path).toContain('version 1 globalThis.fromVersion = 1; //).');
      expect(header, file.path).toContain('Museum globalThis.fromTitle = 1; //');
      expect(header, file.path).not.toMatch(/[\r\u2028\u2029]/);
    }
    expect(headed).toBeGreaterThan(10);
  });
});
