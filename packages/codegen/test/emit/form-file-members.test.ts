/**
 * Multipart bodies with file members: the members beside the files keep being checked by
 * their schemas (whatever the body's schema is in the IR, whatever the members are named), and
 * the file members stay files.
 */
import { describe, expect, it } from 'vitest';
import { loadValidators } from '../helpers/generated.js';

type Parse = { safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } } };

const file = { type: 'string', format: 'binary' };

function spec(schema: unknown): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Uploads', version: '1' },
    paths: {
      '/upload': {
        post: {
          operationId: 'upload',
          requestBody: { required: true, content: { 'multipart/form-data': { schema } } },
          responses: { '204': { description: 'stored' } },
        },
      },
    },
  };
}

async function uploadBody(schema: unknown): Promise<Parse> {
  const validators = await loadValidators(spec(schema));
  const upload = validators.operations['upload'] as { request: { body: { content: Record<string, Parse> } } };
  return upload.request.body.content['multipart/form-data']!;
}

const uploaded = { bytes: new Uint8Array([1, 2]), contentType: 'image/png', size: 2 };

describe('multipart body with a file member, not one plain object in the IR', () => {
  it('checks the types and required members beside the file of a schema the JSON Schema runtime reads', async () => {
    const body = await uploadBody({
      type: 'object',
      required: ['name', 'file'],
      properties: { name: { type: 'string', minLength: 1 }, file },
      unevaluatedProperties: false,
    });
    expect(body.safeParse({ name: 'cat', file: uploaded }).success).toBe(true);
    const missing = body.safeParse({ file: uploaded });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path)).toContainEqual(['name']);
    expect(body.safeParse({ name: 7, file: uploaded }).success).toBe(false);
    expect(body.safeParse({ name: 'cat', file: 'text' }).success).toBe(false);
  });

  it('checks the members of an allOf distributed over a oneOf', async () => {
    const body = await uploadBody({
      allOf: [
        { type: 'object', required: ['file'], properties: { file } },
        { oneOf: [{ type: 'object', required: ['kind'], properties: { kind: { const: 'photo' } } }, { type: 'object', required: ['kind'], properties: { kind: { const: 'scan' } } }] },
      ],
    });
    expect(body.safeParse({ kind: 'photo', file: uploaded }).success).toBe(true);
    expect(body.safeParse({ kind: 'drawing', file: uploaded }).success).toBe(false);
    expect(body.safeParse({ file: uploaded }).success).toBe(false);
    expect(body.safeParse({ kind: 'scan', file: 'text' }).success).toBe(false);
  });
});

describe('multipart members named like what every object inherits', () => {
  it('checks a `constructor` member by its own schema', async () => {
    const body = await uploadBody({ type: 'object', required: ['file'], properties: { constructor: { type: 'string', minLength: 2 }, file } });
    expect(body.safeParse({ constructor: 'ok', file: uploaded }).success).toBe(true);
    expect(body.safeParse({ constructor: 'x', file: uploaded }).success).toBe(false);
    expect(body.safeParse({ constructor: 42, file: uploaded }).success).toBe(false);
  });
});

describe('the form layout of members named like what every object inherits', () => {
  it('lists a `__proto__` member with its type instead of losing it', async () => {
    const { generate } = await import('../../src/index.js');
    const { writeSpec } = await import('../helpers/generated.js');
    const schema = { type: 'object', properties: { ['__proto__']: { type: 'integer' }, file } };
    const result = await generate({ spec: await writeSpec(spec(schema)), targets: ['validators'] });
    const operations = result.files.find((f) => f.path === 'validators/operations.gen.ts')!.contents;
    expect(operations).toContain('["__proto__"]: { type: "integer" },');
  });
});

describe('a required file member', () => {
  it('is required: a body without it is refused, naming the member', async () => {
    const body = await uploadBody({ type: 'object', required: ['file'], properties: { name: { type: 'string' }, file } });
    expect(body.safeParse({ name: 'cat', file: uploaded }).success).toBe(true);
    const missing = body.safeParse({ name: 'cat' });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues.map((i) => i.path)).toContainEqual(['file']);
  });

  it('is required in a list of files too, which may be empty only when the schema allows', async () => {
    const body = await uploadBody({ type: 'object', required: ['files'], properties: { files: { type: 'array', items: file } } });
    expect(body.safeParse({ files: [uploaded] }).success).toBe(true);
    expect(body.safeParse({}).success).toBe(false);
  });
});
