/**
 * Each operation carries, as data, how its parameters travel (`request.parameters`): only
 * those that need more than one plain text, so files without styles generate as before.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadValidators, specWithSchemas, type LoadedValidators } from '../helpers/generated.js';

const SPEC = {
  ...specWithSchemas({ Point: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'number' }, on: { type: 'boolean' }, tag: { type: 'string' } } } }),
  paths: {
    '/plain/{id}': {
      get: {
        operationId: 'Plain',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'page', in: 'query', schema: { type: 'integer' } },
          { name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
          { name: 'x-trace', in: 'header', schema: { type: 'string' } },
          { name: 'session', in: 'cookie', schema: { type: 'string' } },
        ],
        responses: { '204': { description: 'none' } },
      },
    },
    '/styled/{ids}': {
      get: {
        operationId: 'Styled',
        parameters: [
          { name: 'ids', in: 'path', required: true, style: 'matrix', schema: { type: 'array', items: { type: 'integer' } } },
          { name: 'at', in: 'query', style: 'deepObject', explode: true, schema: { $ref: '#/components/schemas/Point' } },
          { name: 'tags', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
          { name: 'next', in: 'query', allowReserved: true, schema: { type: 'string' } },
          { name: 'where', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
          { name: 'X-Point', in: 'header', schema: { $ref: '#/components/schemas/Point' } },
        ],
        responses: { '204': { description: 'none' } },
      },
    },
  },
};

type Operation = { request: { parameters?: unknown; query: { safeParse(v: unknown): { success: boolean; data?: unknown } } } };

describe('request.parameters', () => {
  let mod: LoadedValidators;
  beforeAll(async () => {
    mod = await loadValidators(SPEC);
  });

  it('is absent when every parameter is one plain text (or a repeated query name)', () => {
    expect((mod.operations['Plain'] as Operation).request.parameters).toBeUndefined();
  });

  it('lists the others with their style, explode, shape, allowReserved and content type', () => {
    expect((mod.operations['Styled'] as Operation).request.parameters).toEqual([
      { name: 'ids', in: 'path', style: 'matrix', explode: false, shape: 'array' },
      { name: 'at', in: 'query', style: 'deepObject', explode: true, shape: 'object' },
      { name: 'tags', in: 'query', style: 'form', explode: false, shape: 'array' },
      { name: 'next', in: 'query', style: 'form', explode: true, shape: 'primitive', allowReserved: true },
      { name: 'where', in: 'query', style: 'form', explode: true, shape: 'object', contentType: 'application/json' },
      { name: 'X-Point', in: 'header', style: 'simple', explode: false, shape: 'object' },
    ]);
  });

  it('decodes the text members of an object parameter by their schema, and takes a content parameter as parsed', () => {
    const query = (mod.operations['Styled'] as Operation).request.query;
    expect(query.safeParse({ at: { x: '3', y: '-1.5', on: 'true', tag: '7' }, where: { any: [1] } })).toEqual({
      success: true,
      data: { at: { x: 3, y: -1.5, on: true, tag: '7' }, where: { any: [1] } },
    });
    expect(query.safeParse({ at: { x: 'three' } }).success).toBe(false);
  });
});
