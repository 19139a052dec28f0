import type { ApiIR, OperationIR, SchemaNode } from '../ir/types.js';
import { referencedNames } from '../ir/references.js';
import { diffSchemas, type Direction, type SchemaChange, type SchemaResolver } from './diff-schemas.js';

/** Where a schema is read: what a client sends, what a server answers. */
type Context = 'request' | 'response';

export interface Breaking {
  client: boolean;
  server: boolean;
}

export interface ApiChange {
  /** `operation GetAccounts`, `operation GetAccounts 200 application/json`, `schema Transaction`. */
  location: string;
  /** Field path inside a schema, when the change is inside one. */
  path?: string;
  kind: string;
  description: string;
  direction?: Direction;
  breaking: Breaking;
}

export interface ApiDiff {
  from: { title: string; version: string; pathPrefix: string };
  to: { title: string; version: string; pathPrefix: string };
  changes: ApiChange[];
  summary: { total: number; breakingForClients: number; breakingForServers: number };
}

/**
 * A request that accepts fewer values breaks clients that sent them; one that accepts more
 * makes servers handle what they did not. Responses are the mirror image.
 */
function breakingOf(direction: Direction, contexts: ReadonlySet<Context>): Breaking {
  const out: Breaking = { client: false, server: false };
  if (direction === 'compatible') return out;
  for (const context of contexts) {
    if (direction === 'changed') {
      out.client = true;
      out.server = true;
    } else if ((direction === 'narrower') === (context === 'request')) out.client = true;
    else out.server = true;
  }
  return out;
}

function collectRefs(nodes: Array<SchemaNode | undefined>, components: Map<string, SchemaNode>): Set<string> {
  const seen = new Set<string>();
  const queue: string[] = [];
  for (const node of nodes) if (node) for (const name of referencedNames(node)) queue.push(name);
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const node = components.get(name);
    if (node) for (const next of referencedNames(node)) queue.push(next);
  }
  return seen;
}

function usage(api: ApiIR): Map<string, Set<Context>> {
  const components = new Map(api.schemas.map((s) => [s.name, s.schema]));
  const out = new Map<string, Set<Context>>();
  const mark = (names: Set<string>, context: Context) => {
    for (const name of names) {
      const set = out.get(name) ?? new Set<Context>();
      set.add(context);
      out.set(name, set);
    }
  };
  for (const op of api.operations) {
    mark(collectRefs([...op.parameters.map((p) => p.schema), ...(op.requestBody?.content.map((c) => c.schema) ?? [])], components), 'request');
    mark(collectRefs(op.responses.flatMap((r) => [...r.content.map((c) => c.schema), ...r.headers.map((h) => h.schema)]), components), 'response');
  }
  return out;
}

function key(op: OperationIR): string {
  return op.operationId;
}

function schemaChanges(location: string, kind: string, changes: SchemaChange[], contexts: ReadonlySet<Context>): ApiChange[] {
  return changes.map((c) => ({
    location,
    ...(c.path ? { path: c.path } : {}),
    kind,
    description: c.description,
    direction: c.direction,
    breaking: breakingOf(c.direction, contexts),
  }));
}

const REQUEST: ReadonlySet<Context> = new Set(['request']);
const RESPONSE: ReadonlySet<Context> = new Set(['response']);

function diffOperation(before: OperationIR, after: OperationIR, resolver: SchemaResolver): ApiChange[] {
  const at = `operation ${after.operationId}`;
  const changes: ApiChange[] = [];
  if (before.method !== after.method || before.path !== after.path) {
    changes.push({
      location: at,
      kind: 'operation-moved',
      description: `${before.method.toUpperCase()} ${before.path} → ${after.method.toUpperCase()} ${after.path}`,
      breaking: { client: true, server: true },
    });
  }
  const scopes = (op: OperationIR) => JSON.stringify(op.security.map((r) => Object.entries(r).map(([k, v]) => [k, [...v].sort()]).sort()));
  if (scopes(before) !== scopes(after)) {
    changes.push({ location: at, kind: 'security', description: `security ${scopes(before)} → ${scopes(after)}`, breaking: { client: true, server: true } });
  }

  const paramKey = (p: { in: string; name: string }) => `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const afterParams = new Map(after.parameters.map((p) => [paramKey(p), p]));
  const beforeParams = new Map(before.parameters.map((p) => [paramKey(p), p]));
  for (const p of before.parameters) {
    const q = afterParams.get(paramKey(p));
    const where = `${at} parameter ${paramKey(p)}`;
    if (!q) {
      changes.push({ location: where, kind: 'parameter-removed', description: 'parameter removed', direction: 'wider', breaking: breakingOf('wider', REQUEST) });
      continue;
    }
    if (p.required !== q.required) {
      const direction: Direction = q.required ? 'narrower' : 'wider';
      changes.push({ location: where, kind: 'parameter-required', description: q.required ? 'now required' : 'no longer required', direction, breaking: breakingOf(direction, REQUEST) });
    }
    changes.push(...schemaChanges(where, 'parameter-schema', diffSchemas(p.schema, q.schema, '', 0, resolver), REQUEST));
  }
  for (const q of after.parameters) {
    if (beforeParams.has(paramKey(q))) continue;
    const direction: Direction = q.required ? 'narrower' : 'wider';
    changes.push({
      location: `${at} parameter ${paramKey(q)}`,
      kind: 'parameter-added',
      description: `parameter added (${q.required ? 'required' : 'optional'})`,
      direction,
      breaking: breakingOf(direction, REQUEST),
    });
  }

  const bodyBefore = new Map((before.requestBody?.content ?? []).map((c) => [c.contentType, c]));
  const bodyAfter = new Map((after.requestBody?.content ?? []).map((c) => [c.contentType, c]));
  if (!!before.requestBody?.required !== !!after.requestBody?.required) {
    const direction: Direction = after.requestBody?.required ? 'narrower' : 'wider';
    changes.push({ location: `${at} request body`, kind: 'body-required', description: after.requestBody?.required ? 'body now required' : 'body no longer required', direction, breaking: breakingOf(direction, REQUEST) });
  }
  for (const [type, media] of bodyBefore) {
    const next = bodyAfter.get(type);
    const where = `${at} request ${type}`;
    if (!next) changes.push({ location: where, kind: 'request-content-type-removed', description: 'request content type removed', direction: 'narrower', breaking: breakingOf('narrower', REQUEST) });
    else if (media.schema && next.schema) changes.push(...schemaChanges(where, 'request-schema', diffSchemas(media.schema, next.schema, '', 0, resolver), REQUEST));
  }
  for (const type of bodyAfter.keys()) {
    if (!bodyBefore.has(type)) {
      changes.push({ location: `${at} request ${type}`, kind: 'request-content-type-added', description: 'request content type added', direction: 'wider', breaking: breakingOf('wider', REQUEST) });
    }
  }

  const responsesAfter = new Map(after.responses.map((r) => [r.status, r]));
  const responsesBefore = new Map(before.responses.map((r) => [r.status, r]));
  for (const response of before.responses) {
    const next = responsesAfter.get(response.status);
    const where = `${at} ${response.status}`;
    if (!next) {
      changes.push({ location: where, kind: 'status-removed', description: `status ${response.status} removed`, direction: 'narrower', breaking: breakingOf('narrower', RESPONSE) });
      continue;
    }
    const typesAfter = new Map(next.content.map((c) => [c.contentType, c]));
    const typesBefore = new Map(response.content.map((c) => [c.contentType, c]));
    for (const media of response.content) {
      const other = typesAfter.get(media.contentType);
      if (!other) {
        changes.push({ location: `${where} ${media.contentType}`, kind: 'response-content-type-removed', description: 'response content type removed', direction: 'narrower', breaking: breakingOf('narrower', RESPONSE) });
      } else if (media.schema && other.schema) {
        changes.push(...schemaChanges(`${where} ${media.contentType}`, 'response-schema', diffSchemas(media.schema, other.schema, '', 0, resolver), RESPONSE));
      }
    }
    for (const media of next.content) {
      if (!typesBefore.has(media.contentType)) {
        changes.push({ location: `${where} ${media.contentType}`, kind: 'response-content-type-added', description: 'response content type added', direction: 'wider', breaking: breakingOf('wider', RESPONSE) });
      }
    }
    const headersAfter = new Map(next.headers.map((h) => [h.name.toLowerCase(), h]));
    for (const header of response.headers) {
      const other = headersAfter.get(header.name.toLowerCase());
      if (!other) changes.push({ location: `${where} header ${header.name}`, kind: 'response-header-removed', description: 'response header removed', direction: 'wider', breaking: breakingOf('wider', RESPONSE) });
      else if (header.required !== other.required) {
        const direction: Direction = other.required ? 'narrower' : 'wider';
        changes.push({ location: `${where} header ${header.name}`, kind: 'response-header-required', description: other.required ? 'now required' : 'no longer required', direction, breaking: breakingOf(direction, RESPONSE) });
      }
    }
  }
  for (const response of after.responses) {
    if (!responsesBefore.has(response.status)) {
      changes.push({ location: `${at} ${response.status}`, kind: 'status-added', description: `status ${response.status} added`, direction: 'wider', breaking: breakingOf('wider', RESPONSE) });
    }
  }
  return changes;
}

/** Everything that changed from one version of an API to the next, each classified. */
export function diffApis(before: ApiIR, after: ApiIR): ApiDiff {
  const changes: ApiChange[] = [];
  const beforeComponents = new Map(before.schemas.map((s) => [s.name, s.schema]));
  const afterComponents = new Map(after.schemas.map((s) => [s.name, s.schema]));
  const resolver: SchemaResolver = { before: (n) => beforeComponents.get(n), after: (n) => afterComponents.get(n) };
  const opsAfter = new Map(after.operations.map((o) => [key(o), o]));
  const opsBefore = new Map(before.operations.map((o) => [key(o), o]));
  for (const op of before.operations) {
    const next = opsAfter.get(key(op));
    if (!next) {
      changes.push({ location: `operation ${op.operationId}`, kind: 'operation-removed', description: `${op.method.toUpperCase()} ${op.path} removed`, breaking: { client: true, server: false } });
    } else {
      changes.push(...diffOperation(op, next, resolver));
    }
  }
  for (const op of after.operations) {
    if (!opsBefore.has(key(op))) {
      // Servers that claim the new version must implement it; clients are not affected.
      changes.push({ location: `operation ${op.operationId}`, kind: 'operation-added', description: `${op.method.toUpperCase()} ${op.path} added`, breaking: { client: false, server: true } });
    }
  }

  const useBefore = usage(before);
  const useAfter = usage(after);
  const schemasAfter = new Map(after.schemas.map((s) => [s.name, s]));
  const schemasBefore = new Map(before.schemas.map((s) => [s.name, s]));
  for (const schema of before.schemas) {
    const next = schemasAfter.get(schema.name);
    if (!next) {
      changes.push({ location: `schema ${schema.name}`, kind: 'schema-removed', description: 'component schema removed', breaking: { client: false, server: false } });
      continue;
    }
    const contexts = new Set<Context>([...(useBefore.get(schema.name) ?? []), ...(useAfter.get(schema.name) ?? [])]);
    changes.push(...schemaChanges(`schema ${schema.name}`, 'schema', diffSchemas(schema.schema, next.schema, '', 0, resolver), contexts));
  }
  for (const schema of after.schemas) {
    if (!schemasBefore.has(schema.name)) {
      changes.push({ location: `schema ${schema.name}`, kind: 'schema-added', description: 'component schema added', breaking: { client: false, server: false } });
    }
  }

  const prefix = (api: ApiIR) => api.servers[0]?.pathPrefix ?? '';
  if (prefix(before) !== prefix(after)) {
    changes.push({ location: 'servers', kind: 'path-prefix', description: `path prefix ${prefix(before)} → ${prefix(after)}`, breaking: { client: true, server: true } });
  }
  return {
    from: { title: before.title, version: before.version, pathPrefix: prefix(before) },
    to: { title: after.title, version: after.version, pathPrefix: prefix(after) },
    changes,
    summary: {
      total: changes.length,
      breakingForClients: changes.filter((c) => c.breaking.client).length,
      breakingForServers: changes.filter((c) => c.breaking.server).length,
    },
  };
}
