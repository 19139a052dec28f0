import type { UnionNode } from '../../ir/types.js';

/**
 * How a union is validated; the zod printer, the check printer and the type printers all
 * follow this one decision, so that they agree.
 *
 * - `single`: one variant, validated alone.
 * - `switch`: a discriminator whose tag provably selects the only variant that can match
 *   (`DiscriminatorIR.selects`): the tag dispatches, with the answer of `oneOf`/`anyOf`.
 * - `counted`: a `oneOf` whose variants may overlap: exactly one must match (`rt.oneOf`).
 * - `union`: an `anyOf`, or a `oneOf` proven disjoint: at least one must match.
 *
 * A discriminator that does not select is a hint only: in `counted` and `union` it chooses
 * which variant is tried first and whose issues an error reports, never the answer.
 */
export type UnionForm = 'single' | 'switch' | 'counted' | 'union';

export function unionForm(node: UnionNode): UnionForm {
  if (node.variants.length === 1) return 'single';
  if (node.discriminator?.selects) return 'switch';
  return node.mode === 'oneOf' && !node.exclusive ? 'counted' : 'union';
}

/** True when the discriminator can hint (some tag value names a variant) without selecting. */
export function hasHint(node: UnionNode): boolean {
  return node.discriminator !== undefined && Object.keys(node.discriminator.mapping).length > 0;
}

/** Entries of a value-to-index map in a stable order (by value). */
export function sortedEntries(map: Record<string, number>): Array<[string, number]> {
  return Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
