/**
 * Form bodies (`application/x-www-form-urlencoded`, `multipart/form-data`): the layout the IR
 * reads from each media type's schema and `encoding`, the data operations.gen.ts carries for
 * the runtimes, and the types of file members (a `Blob`/`Uint8Array` for the client, an
 * uploaded file for the handler), type-checked with code that uses them.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIR } from '../src/ir/build-ir.js';
import { emitValidators } from '../src/emit/validators/emit-validators.js';
import { verify } from '../src/index.js';
import { scratchDir, writeSpec } from './helpers/generated.js';
import { typeCheckFile } from './helpers/type-check.js';

const OK = { '200': { description: 'OK' } };

function spec(openapi: '3.0.3' | '3.1.0'): Record<string, unknown> {
  const file = openapi === '3.0.3' ? { type: 'string', format: 'binary' } : { type: 'string', contentMediaType: 'image/png' };
  return {
    openapi,
    info: { title: 'Forms', version: '1' },
    paths: {
      '/upload': {
        post: {
          operationId: 'upload',
          requestBody: {
            required: true,
            content: {
              'multipart/form-data': {
                schema: { $ref: '#/components/schemas/Upload' },
                encoding: { meta: { contentType: 'application/json' }, tags: { style: 'pipeDelimited', explode: false }, bogus: { style: 'nonsense' } },
              },
            },
          },
          responses: OK,
        },
      },
      '/token': {
        post: {
          operationId: 'token',
          requestBody: {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['scope'],
                  properties: { scope: { type: 'integer' }, flag: { type: 'boolean' }, where: { type: 'object', properties: { x: { type: 'number' } } }, raw: file },
                },
                encoding: { where: { style: 'deepObject', explode: true } },
              },
              'application/json': { schema: { type: 'object' } },
            },
          },
          responses: OK,
        },
      },
      '/raw': { post: { operationId: 'raw', requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }, responses: OK } },
      '/json': { post: { operationId: 'json', requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: OK } },
    },
    components: {
      schemas: {
        Upload: {
          type: 'object',
          required: ['file'],
          properties: {
            file,
            more: { type: 'array', items: file },
            count: { type: 'integer' },
            tags: { type: 'array', items: { type: 'string' } },
            meta: { type: 'object', properties: { a: { type: 'string' } } },
          },
        },
      },
    },
  };
}

async function built(openapi: '3.0.3' | '3.1.0') {
  const { loadSpec } = await import('../src/load/load-spec.js');
  return buildIR(await loadSpec(await writeSpec(spec(openapi))));
}

describe('form layout in the IR', () => {
  for (const openapi of ['3.0.3', '3.1.0'] as const) {
    it(`reads member types, files and encoding entries (${openapi})`, async () => {
      const { api } = await built(openapi);
      const upload = api.operations.find((o) => o.operationId === 'upload')!.requestBody!.content[0]!;
      expect(upload.form).toEqual({
        file: { type: 'file' },
        more: { type: 'array', items: { type: 'file' } },
        count: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' }, style: 'pipeDelimited', explode: false },
        meta: { type: 'object', properties: { a: { type: 'string' } }, contentType: 'application/json' },
      });
      const token = api.operations.find((o) => o.operationId === 'token')!.requestBody!.content;
      // Files exist only in multipart bodies: in a urlencoded one a binary string is text.
      expect(token[0]!.form).toEqual({
        scope: { type: 'integer' },
        flag: { type: 'boolean' },
        where: { type: 'object', properties: { x: { type: 'number' } }, style: 'deepObject', explode: true },
        raw: { type: 'string' },
      });
      expect(token[1]!.form).toBeUndefined();
    });
  }

  it('emits the layout as data beside the schemas, and nothing for JSON-only bodies', async () => {
    const { api } = await built('3.0.3');
    const operations = emitValidators(api).find((f) => f.path === 'validators/operations.gen.ts')!.contents;
    expect(operations).toContain('      where: { type: "object", properties: { x: { type: "number" } }, style: "deepObject", explode: true },');
    expect(operations).toContain('rt.withFiles(');
    expect(operations).toContain('{ file: "one", more: "many" }');
    expect(operations.match(/encoding: \{/g)).toHaveLength(2);
  });
});

describe('file members, type-checked', () => {
  it('are Blob/Uint8Array for the client and uploaded files for the handler; binary bodies take bytes', async () => {
    const dir = await scratchDir();
    const report = await verify({ spec: await writeSpec(spec('3.0.3')), keepDir: dir, targets: ['validators', 'server', 'client'] });
    expect(report.typeErrors).toEqual([]);
    await writeFile(
      path.join(dir, 'consumer.ts'),
      [
        "import type { RawParams, UploadParams, TokenParams } from './client/index.js';",
        "import type { Handlers } from './server/index.js';",
        '',
        'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
        'const assert = <T extends true>(): T | undefined => undefined;',
        "type Body = Parameters<Handlers['upload']>[0]['body'];",
        "assert<Same<Body['file'], { readonly bytes: Uint8Array; readonly filename?: string; readonly contentType: string; readonly size: number }>>();",
        "assert<Same<Body['count'], number | undefined>>();",
        '',
        "export const withBlob: UploadParams = { body: { file: new Blob(['x']), more: [new Uint8Array(1)], count: 1 } };",
        "// @ts-expect-error a file member is not text",
        "export const withText: UploadParams = { body: { file: 'x' } };",
        "export const form: TokenParams = { body: { scope: 1, where: { x: 2 } } };",
        "export const raw: RawParams[] = [{ body: new Uint8Array(2) }, { body: new Blob(['x']) }, { body: 'text' }];",
        "// @ts-expect-error bytes, a Blob or a string, not an object",
        "export const notRaw: RawParams = { body: { a: 1 } };",
        '',
      ].join('\n'),
    );
    expect(await typeCheckFile(path.join(dir, 'consumer.ts'))).toEqual([]);
  });
});
