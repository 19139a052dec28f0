/** Formats OpenAPI itself defines are not reported as unknown; formats nobody defines are. */
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';
import type { Diagnostic } from '../../src/ir/types.js';

function notesOf(schemas: Record<string, unknown>, openapi = '3.0.3'): Diagnostic[] {
  const { api } = buildIR({ source: 'fixture.yaml', document: { openapi, info: { title: 'T', version: '1' }, paths: {}, components: { schemas } }, diagnostics: [] });
  return api.diagnostics.filter((d: Diagnostic) => d.code === 'unknown-format');
}

describe('string formats', () => {
  it('takes binary and password as known OpenAPI formats, in 3.0 and 3.1', () => {
    for (const openapi of ['3.0.3', '3.1.0']) {
      const schemas = { Upload: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, secret: { type: 'string', format: 'password' } } } };
      expect(notesOf(schemas, openapi)).toEqual([]);
    }
  });

  it('still notes a format nobody defines, by pointer', () => {
    expect(notesOf({ Code: { type: 'string', format: 'iban' } }).map((d) => d.pointer)).toEqual(['#/components/schemas/Code/format']);
  });

  it('keeps binary as an annotation the mocks read', () => {
    const api = buildIR({ source: 'f.yaml', document: { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {}, components: { schemas: { F: { type: 'string', format: 'binary' } } } }, diagnostics: [] }).api;
    expect(api.schemas[0]!.schema).toMatchObject({ kind: 'string', annotatedFormat: 'binary' });
  });
});
