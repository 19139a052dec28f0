import type { NameResolver } from '../shared/names.js';

/**
 * What the validators module declares itself, besides the names it gives schemas and
 * operations: `api`, `schemas`, `operations` and `checks` in index.ts, and the imports of the
 * other modules (and `webhooks` in index.ts, when the file has webhooks). A schema or operation
 * named like one of them gets another name.
 */
export const VALIDATOR_MODULE_NAMES = ['api', 'schemas', 'operations', 'checks', 'zod', 'ZodType', 'z', 'rt', 'S', 'C', 'O'];

/** What a key of the validators' name resolver stands for, in words. */
function describeKey(key: string): string {
  const [kind, ...rest] = key.split(':');
  const name = rest.join(':');
  if (kind === 'operation') return `the operation ${name}`;
  if (kind === 'webhook') return `the webhook ${rest.slice(0, -1).join(':')} (${rest.at(-1)?.toUpperCase()})`;
  if (kind === 'input') return `the input type of ${name}`;
  if (kind === 'check') return `the check function of ${name}`;
  if (kind === 'shared') return 'a shared declaration';
  return `the schema ${key}`;
}

/**
 * A sentence for the doc comment of an export that could not have the name its schema or
 * operation gives (`isFoo_2`, because `isFoo` is the schema isFoo), or undefined.
 */
export function nameNote(names: NameResolver, key: string): string | undefined {
  const renamed = names.renamed(key);
  if (!renamed) return undefined;
  const holder = renamed.heldBy === undefined ? "a name the generated module declares itself" : describeKey(renamed.heldBy);
  return `Exported as ${names.get(key)}: ${renamed.wanted} is ${holder}.`;
}
