/**
 * The generator's notes on JSON bodies written by JSON.stringify: each listed once, with the
 * pointer and the reason, and none for bodies that have a writer.
 */
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/index.js';
import { writeSpec } from '../helpers/generated.js';

const SCHEMAS = {
  Tree: { type: 'object', properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } } },
  Cents: { type: 'object', properties: { price: { type: 'number', multipleOf: 0.01 } } },
  Priced: { type: 'object', properties: { cents: { $ref: '#/components/schemas/Cents' } } },
  Tagged: { type: 'object', properties: { name: { type: 'string' } }, patternProperties: { '^x-': { type: 'string' } } },
  Plain: { type: 'object', properties: { name: { type: 'string' } } },
  Defaulted: { allOf: [{ type: 'string' }, { anyOf: [{ type: 'string', enum: ['A'] }, { type: 'string', enum: ['B'] }] }, { anyOf: [{ type: 'string' }, { type: 'integer' }], default: 'A' }] },
};

function body(schema: unknown) {
  return { description: 'ok', content: { 'application/json': { schema } } };
}

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/tree': { get: { operationId: 'getTree', responses: { '200': body({ $ref: '#/components/schemas/Tree' }) } } },
    '/priced': { get: { operationId: 'getPriced', responses: { '200': body({ $ref: '#/components/schemas/Priced' }), '201': body({ $ref: '#/components/schemas/Priced' }) } } },
    '/tagged': { get: { operationId: 'getTagged', responses: { '200': body({ $ref: '#/components/schemas/Tagged' }) } } },
    '/defaulted': { get: { operationId: 'getDefaulted', responses: { '200': body({ $ref: '#/components/schemas/Defaulted' }) } } },
    '/plain': { get: { operationId: 'getPlain', responses: { '200': body({ $ref: '#/components/schemas/Plain' }), '202': body({ type: 'array', items: { $ref: '#/components/schemas/Plain' } }) } } },
  },
  components: { schemas: SCHEMAS },
};

describe('json-writer-fallback notes', () => {
  it('name each body JSON.stringify writes once, with why', async () => {
    const result = await generate({ spec: await writeSpec(SPEC), targets: ['validators'] });
    const notes = result.diagnostics.filter((d) => d.code === 'json-writer-fallback').map((d) => `${d.pointer}: ${d.message}`);
    expect(notes).toHaveLength(3);
    expect(notes.find((n) => n.startsWith('#/components/schemas/Tree:'))).toMatch(/values nested more than 64 deep in its reference cycle are written by JSON.stringify/);
    expect(notes.find((n) => n.startsWith('#/components/schemas/Defaulted:'))).toMatch(/the allOf at #\/components\/schemas\/Defaulted applies defaults/);
    expect(notes.find((n) => n.includes('Tagged'))).toMatch(/^#\/components\/schemas\/Tagged: written by JSON.stringify inside the writer/);
    expect(notes.some((n) => n.includes('Plain') || n.includes('Priced'))).toBe(false);
    const checks = result.files.find((f) => f.path === 'validators/checks.gen.ts')!.contents;
    for (const name of ['writePlain', 'writeGetPlainResponse202', 'writeTagged', 'writeTree', 'writePriced', 'writeCents']) expect(checks).toContain(`export function ${name}(`);
    expect(checks).not.toContain('export function writeDefaulted(');
  });
});
