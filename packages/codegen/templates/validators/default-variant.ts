// The variant a discriminator's `defaultMapping` names (OpenAPI 3.2); written beside the runtime
// only for an API that has one, so that other APIs' generated files stay as they were.
import { z } from 'zod';
import * as rt from './runtime.gen.js';

type Variants = readonly [z.ZodType, ...z.ZodType[]];

/**
 * `oneOf`/`anyOf` whose discriminator hints, with a `defaultMapping`: what validates is the
 * union's answer, as without it. When nothing matches and the value has no tag (or one the
 * mapping does not name), the issues reported are those of the default variant, the one the
 * spec says such a value is meant to be.
 */
export function withDefaultVariant<const T extends Variants>(
  mode: 'oneOf' | 'anyOf',
  variants: T,
  property: string,
  mapping: Readonly<Record<string, number>>,
  fallback: number,
): z.ZodType<z.output<T[number]>, z.input<T[number]>> {
  const union: z.ZodType = mode === 'oneOf' ? rt.oneOf(variants, property, mapping) : rt.anyOf(variants, property, mapping);
  return z.unknown().transform((input, ctx) => {
    const result = union.safeParse(input);
    if (result.success) return result.data;
    const tag = input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>)[property] : undefined;
    const named = typeof tag === 'string' && Object.prototype.hasOwnProperty.call(mapping, tag);
    const fallbackIssues = named ? undefined : variants[fallback]?.safeParse(input).error?.issues;
    // `issue as object`: spreading zod's union of issue types costs the compiler time per spread.
    for (const issue of fallbackIssues ?? result.error.issues) ctx.issues.push({ ...(issue as object), input } as never);
    return z.NEVER;
  }) as unknown as z.ZodType<z.output<T[number]>, z.input<T[number]>>;
}
