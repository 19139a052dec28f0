/**
 * The warning for a super-linear pattern (pattern-warning.ts): each `pattern` and
 * `patternProperties` key a backtracking engine matches in super-linear time is named by its
 * pointer, its class and an input shape, once per position, from `generate` and `verify`.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate, verify } from '../src/index.js';
import { buildIR } from '../src/ir/build-ir.js';
import type { Diagnostic } from '../src/ir/types.js';
import { specWithSchemas } from './helpers/generated.js';
import { PACKAGE_ROOT } from './support/spec-files.js';

const FIXTURE = path.join(PACKAGE_ROOT, 'test/fixtures/super-linear-patterns.yaml');
const P = '#/components/schemas';

const warnings = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.code === 'super-linear-pattern');

describe('the super-linear pattern warning', () => {
  it('names the pointer, the class, the input shape and what the toolkit does', () => {
    const built = buildIR({ source: 'f.yaml', document: specWithSchemas({ Slug: { type: 'string', pattern: '^([a-z0-9]+-?)*[a-z0-9]+$' }, Token: { type: 'string', pattern: '^.+\\..+\\..+$' } }), diagnostics: [] });
    const [slug, token] = warnings(built.api.diagnostics);
    expect(slug).toMatchObject({ severity: 'warning', pointer: `${P}/Slug/pattern` });
    expect(slug!.message).toContain('"^([a-z0-9]+-?)*[a-z0-9]+$" is exponential');
    expect(slug!.message).toMatch(/on an input shaped .*× n/);
    expect(slug!.message).toContain('matched by the linear-time engine');
    expect(token).toMatchObject({ severity: 'warning', pointer: `${P}/Token/pattern` });
    expect(token!.message).toContain('is polynomial (degree 3)');
    expect(token!.message).toContain('grows as n^3');
  });

  it('says nothing of linear patterns', () => {
    const built = buildIR({ source: 'f.yaml', document: specWithSchemas({ Slug: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }, Code: { type: 'string', pattern: '^[A-Z]{3}$' } }), diagnostics: [] });
    expect(warnings(built.api.diagnostics)).toStrictEqual([]);
  });

  it('names patternProperties keys by their own pointer, read as JSON Schema', () => {
    const built = buildIR({ source: 'f.yaml', document: specWithSchemas({ M: { type: 'object', patternProperties: { '^x/(a|a)*$': { type: 'string' } }, not: { const: 1 } } }, '3.1.0'), diagnostics: [] });
    expect(warnings(built.api.diagnostics).map((d) => d.pointer)).toStrictEqual([`${P}/M/patternProperties/^x~1(a|a)*$`]);
  });

  it('comes from generate once per pattern position, in a fixed order, however often the schema is used', async () => {
    const result = await generate({ spec: FIXTURE, targets: ['validators', 'server', 'client'] });
    // Components first, then paths; within a schema, as the generator reads it.
    expect(warnings(result.diagnostics).map((d) => d.pointer)).toStrictEqual([
      `${P}/Article/patternProperties/^x-(a|a)*$`,
      `${P}/Article/properties/author/pattern`,
      `${P}/Article/properties/reviewer/pattern`,
      '#/paths/~1articles~1{slug}/get/parameters/0/schema/pattern',
    ]);
    const again = await generate({ spec: FIXTURE, targets: ['validators', 'server', 'client'] });
    expect(warnings(again.diagnostics)).toStrictEqual(warnings(result.diagnostics));
  }, 60_000);

  it('comes from verify, as a warning that does not fail it', async () => {
    const report = await verify({ spec: FIXTURE });
    expect(warnings(report.diagnostics).length).toBe(4);
    expect(report.ok).toBe(true);
  }, 120_000);
});
