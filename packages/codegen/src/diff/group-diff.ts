import type { ApiChange, ApiDiff, Breaking, ChangedOperation } from './diff-apis.js';

/** What happened to an operation, a webhook or a component schema as a whole. */
export type Fate = 'added' | 'removed' | 'changed';

export interface OperationGroup {
  operation: ChangedOperation;
  fate: Fate;
  /** Its changes, in the order of the diff (for an added or removed one, that one change). */
  changes: ApiChange[];
  /** Whom any of its changes breaks. */
  breaking: Breaking;
}

export interface SchemaGroup {
  schema: string;
  fate: Fate;
  changes: ApiChange[];
  breaking: Breaking;
}

/** The changes of a diff by what they happened to, each change in exactly one group. */
export interface GroupedDiff {
  operations: OperationGroup[];
  webhooks: OperationGroup[];
  schemas: SchemaGroup[];
  /** Changes of neither an operation nor a schema (the servers' path prefix). */
  other: ApiChange[];
}

function fateOf(kind: string, noun: string): Fate {
  if (kind === `${noun}-added`) return 'added';
  if (kind === `${noun}-removed`) return 'removed';
  return 'changed';
}

function anyBreaking(changes: readonly ApiChange[]): Breaking {
  return { client: changes.some((c) => c.breaking.client), server: changes.some((c) => c.breaking.server) };
}

/** Groups the changes by operation, webhook and schema, each group where its first change is. */
export function groupDiff(diff: ApiDiff): GroupedDiff {
  const operations = new Map<string, { operation: ChangedOperation; fate: Fate; changes: ApiChange[] }>();
  const schemas = new Map<string, { schema: string; fate: Fate; changes: ApiChange[] }>();
  const other: ApiChange[] = [];
  for (const change of diff.changes) {
    if (change.operation) {
      const { noun, operationId } = change.operation;
      // Within a noun an operationId is removed, added or in both versions, never two of these.
      const key = `${noun}\u0000${operationId}`;
      const group = operations.get(key) ?? { operation: change.operation, fate: fateOf(change.kind, noun), changes: [] };
      group.changes.push(change);
      operations.set(key, group);
    } else if (change.schema !== undefined) {
      const group = schemas.get(change.schema) ?? { schema: change.schema, fate: fateOf(change.kind, 'schema'), changes: [] };
      group.changes.push(change);
      schemas.set(change.schema, group);
    } else other.push(change);
  }
  const withBreaking = <G extends { changes: ApiChange[] }>(group: G) => ({ ...group, breaking: anyBreaking(group.changes) });
  const all = [...operations.values()].map(withBreaking);
  return {
    operations: all.filter((g) => g.operation.noun === 'operation'),
    webhooks: all.filter((g) => g.operation.noun === 'webhook'),
    schemas: [...schemas.values()].map(withBreaking),
    other,
  };
}
