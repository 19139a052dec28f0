/**
 * Whether a file is one of this API family's (the Open Finance account information APIs,
 * their hub-to-LFI contracts and directory): what only the family's files declare, read from
 * the file itself, never from its title. Used where the family's own conventions apply on
 * top of what any file gets (the mocks' banking vocabulary).
 */
import type { ApiIR, SchemaNode } from './types.js';
import { derefKind } from './deref-kind.js';

const INTERACTION_ID = 'x-fapi-interaction-id';

/** An object with an `Errors` array whose items have `Code` and `Message`: the family's error envelope. */
function isErrorsEnvelope(node: SchemaNode | undefined, schemas: ReadonlyMap<string, SchemaNode>): boolean {
  if (!node) return false;
  const body = derefKind(node, schemas);
  if (body.kind !== 'object') return false;
  const errors = body.properties.find((p) => p.name === 'Errors');
  const list = errors ? derefKind(errors.schema, schemas) : undefined;
  if (list?.kind !== 'array') return false;
  const item = derefKind(list.items, schemas);
  return item.kind === 'object' && ['Code', 'Message'].every((name) => item.properties.some((p) => p.name === name));
}

/**
 * True for a file of this API family: one that declares the FAPI interaction id (as a
 * parameter or a response header) or answers errors in the family's `Errors` envelope.
 *
 * @example
 * isOpenFinanceFamily(api) // true for spec/v2.2/account-information.yaml
 */
export function isOpenFinanceFamily(api: ApiIR): boolean {
  const schemas = new Map(api.schemas.map((s) => [s.name, s.schema]));
  return api.operations.some(
    (op) =>
      op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === INTERACTION_ID) ||
      op.responses.some((r) => r.headers.some((h) => h.name.toLowerCase() === INTERACTION_ID) || (!r.status.startsWith('2') && r.content.some((c) => isErrorsEnvelope(c.schema, schemas)))),
  );
}
