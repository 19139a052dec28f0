/**
 * The routed patterns inside the exported zod schemas: still RegExps with the pattern's own
 * `source`, so zod's JSON Schema export reads them, and a consumer's `.shape`, `.extend` and
 * `.pick` keep the linear check.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadValidators } from '../helpers/generated.js';
import { LinearRegExp } from '../../templates/validators/pattern-guard.js';

const SLUG = '^([a-z0-9]+-?)*[a-z0-9]+$';
const ATTACK = `${'a'.repeat(100_000)}!`;

describe('zod schemas with a routed pattern', () => {
  it('keep the linear check through .shape, .extend and .pick, and export the pattern as written', async () => {
    const v = await loadValidators({
      openapi: '3.0.3',
      info: { title: 'Guard', version: '1' },
      paths: {},
      components: { schemas: { Page: { type: 'object', required: ['slug'], properties: { slug: { type: 'string', pattern: SLUG }, title: { type: 'string' } } } } },
    });
    const Page = v.schemas['Page'] as unknown as z.ZodObject<{ slug: z.ZodString; title: z.ZodOptional<z.ZodString> }>;
    const start = performance.now();
    expect(Page.safeParse({ slug: ATTACK }).success).toBe(false);
    expect(Page.shape.slug.safeParse(ATTACK).success).toBe(false);
    expect(Page.extend({ extra: z.number() }).safeParse({ slug: ATTACK, extra: 1 }).success).toBe(false);
    expect(Page.pick({ slug: true }).safeParse({ slug: ATTACK }).success).toBe(false);
    expect(performance.now() - start).toBeLessThan(2_000);
    expect(Page.extend({ extra: z.number() }).safeParse({ slug: 'my-post', extra: 1 }).success).toBe(true);
    const exported = z.toJSONSchema(Page) as unknown as { properties: { slug: { pattern: string } } };
    expect(exported.properties.slug.pattern).toBe(SLUG);
  });

  it('LinearRegExp: a RegExp with the same source and flags, tested without backtracking', () => {
    const regex = new LinearRegExp(SLUG, 'u');
    expect(regex).toBeInstanceOf(RegExp);
    expect(regex.source).toBe(new RegExp(SLUG, 'u').source);
    expect(regex.flags).toBe('u');
    expect(regex.test('my-post')).toBe(true);
    expect(regex.exec(ATTACK)).toBeNull();
    expect(regex.exec('my-post')?.[0]).toBe('my-post');
    expect('a-b c-d'.split(new LinearRegExp(' ', 'u'))).toEqual(['a-b', 'c-d']);
  });
});
