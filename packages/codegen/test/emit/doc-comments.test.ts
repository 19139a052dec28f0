/**
 * Descriptions and deprecation reach the written-out TypeScript types (what an editor shows on
 * hover), not only the zod objects.
 */
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../src/index.js';
import { writeSpec } from '../helpers/generated.js';

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Docs', version: '1' },
  paths: {
    '/things': {
      get: {
        operationId: 'ListThings',
        deprecated: true,
        parameters: [{ name: 'old', in: 'query', deprecated: true, description: 'Use page instead.', schema: { type: 'string' } }],
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        description: 'A thing.',
        required: ['id'],
        properties: {
          id: { type: 'string', description: 'Identifies the thing.\nNever reused.' },
          legacyCode: { type: 'string', deprecated: true, description: 'The code of the old system.' },
          flag: { type: 'boolean', deprecated: true },
        },
      },
      OldThing: { type: 'object', deprecated: true, properties: { n: { type: 'integer' } } },
    },
  },
};

let files: Map<string, string>;
beforeAll(async () => {
  const result = await generate({ spec: await writeSpec(SPEC), targets: ['validators', 'server', 'client'] });
  files = new Map(result.files.map((f) => [f.path, f.contents]));
});

/** The JSDoc (text and tags) of a member of an exported type alias, read by the TypeScript parser. */
function memberDoc(source: string, typeName: string, member: string): { text: string; tags: string[] } {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const alias = file.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === typeName);
  if (!alias || !ts.isTypeLiteralNode(alias.type)) throw new Error(`no object type ${typeName}`);
  const property = alias.type.members.find((m) => m.name && ts.isIdentifier(m.name) && m.name.text === member);
  if (!property) throw new Error(`no member ${member} in ${typeName}`);
  const docs = ts.getJSDocCommentsAndTags(property).filter(ts.isJSDoc);
  return {
    text: docs.map((d) => ts.getTextOfJSDocComment(d.comment) ?? '').join('\n'),
    tags: docs.flatMap((d) => (d.tags ?? []).map((t) => t.tagName.text)),
  };
}

function aliasTags(source: string, typeName: string): string[] {
  const file = ts.createSourceFile('x.ts', source, ts.ScriptTarget.Latest, true);
  const alias = file.statements.find((s): s is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(s) && s.name.text === typeName)!;
  return ts.getJSDocTags(alias).map((t) => t.tagName.text);
}

describe('JSDoc in the generated types', () => {
  it('gives each property its description', () => {
    const schemas = files.get('validators/schemas.gen.ts')!;
    expect(memberDoc(schemas, 'Thing', 'id')).toStrictEqual({ text: 'Identifies the thing.\nNever reused.', tags: [] });
  });

  it('marks deprecated properties and schemas @deprecated', () => {
    const schemas = files.get('validators/schemas.gen.ts')!;
    const legacy = memberDoc(schemas, 'Thing', 'legacyCode');
    expect(legacy.text).toBe('The code of the old system.');
    expect(legacy.tags).toStrictEqual(['deprecated']);
    expect(memberDoc(schemas, 'Thing', 'flag').tags).toStrictEqual(['deprecated']);
    expect(aliasTags(schemas, 'OldThing')).toStrictEqual(['deprecated']);
    expect(aliasTags(schemas, 'Thing')).toStrictEqual([]);
  });

  it('marks deprecated operations and parameters @deprecated in validators, server and client', () => {
    const operations = files.get('validators/operations.gen.ts')!;
    expect(operations).toMatch(/\/\*\*\n \* GET \/things\n \* @deprecated [^\n]*\n \*\/\nexport const ListThings/);
    expect(operations).toMatch(/\/\*\*\n\s+\* Use page instead\.\n\s+\* @deprecated [^\n]*\n\s+\*\/\n\s+old:/);
    expect([...files].filter(([p, c]) => p.startsWith('server/') && c.includes('@deprecated')).length).toBeGreaterThan(0);
    expect([...files].filter(([p, c]) => p.startsWith('client/') && c.includes('@deprecated')).length).toBeGreaterThan(0);
  });
});
