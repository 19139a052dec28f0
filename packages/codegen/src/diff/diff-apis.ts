import type { ApiIR, MediaTypeIR, OperationIR, SchemaNode, WebhookIR } from '../ir/types.js';
import { referencedNames } from '../ir/references.js';
import { escapePointerToken } from '../ir/json-pointer.js';
import { diffSchemas, type Direction, type SchemaChange, type SchemaResolver } from './diff-schemas.js';

/**
 * Where a schema is read: what a client sends, what a server answers; and for a webhook, the
 * delivery the API sends to its users' receivers and the answer a receiver gives. A delivery
 * travels like a response (the API writes it, its users read it), an answer like a request.
 */
type Context = 'request' | 'response' | 'delivery' | 'delivery-answer';

/** Whether the API's users (the clients) write what is read in this context. */
function clientsWrite(context: Context): boolean {
  return context === 'request' || context === 'delivery-answer';
}

export interface Breaking {
  client: boolean;
  server: boolean;
}

/** One place of one operation that a component schema reaches. */
export interface Reach {
  operationId: string;
  method: string;
  path: string;
  /** `request body application/json`, `response 200 body application/json`, `parameter query page`, `response 200 header x-a`. */
  place: string;
}

/** The operation or webhook a change belongs to: a webhook's method is its operation's, its path `webhook <name>`. */
export interface ChangedOperation {
  noun: 'operation' | 'webhook';
  operationId: string;
  method: string;
  path: string;
}

export interface ApiChange {
  /** `operation GetAccounts`, `operation GetAccounts 200 application/json`, `schema Transaction`. */
  location: string;
  /**
   * The operation or webhook the change is in, as named in the newer version (in the older one
   * when it was removed); absent for changes of component schemas and servers.
   */
  operation?: ChangedOperation;
  /** The component schema the change is in; absent for changes inside operations. */
  schema?: string;
  /** Field path inside a schema, when the change is inside one. */
  path?: string;
  kind: string;
  description: string;
  direction?: Direction;
  breaking: Breaking;
  /** Why the change breaks what it breaks, in a few words (breaking changes only). */
  why?: string;
  /** JSON pointers of what changed, in the older (`from`) and the newer (`to`) document. */
  pointers: { from?: string; to?: string };
  /**
   * The operations and places the change reaches: for a component schema, every place that
   * reads it in either version; for a change inside an operation, that operation and place.
   */
  reaches?: Reach[];
}

export interface ApiDiff {
  from: { title: string; version: string; pathPrefix: string };
  to: { title: string; version: string; pathPrefix: string };
  /** Every change, each once; the summary counts exactly these. */
  changes: ApiChange[];
  /** Component schemas renamed: their contents are compared as changes of the new name. */
  renames: Array<{ location: string; path?: string; description: string }>;
  summary: { total: number; breaking: number; breakingForClients: number; breakingForServers: number };
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
    } else if ((direction === 'narrower') === clientsWrite(context)) out.client = true;
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

/** The schemas of one media type: the whole body's and, in a sequence (OpenAPI 3.2), each item's. */
function bodySchemas(media: MediaTypeIR): Array<SchemaNode | undefined> {
  return [media.schema, media.itemSchema];
}

/**
 * Changes of one media type present in both versions: its schema, its item schema (OpenAPI 3.2
 * sequences) and whether it is a sequence at all, which breaks both sides either way (a reader of
 * one value cannot read items, nor the other way round).
 */
function mediaChanges(
  where: string,
  prefix: 'request' | 'response',
  contexts: ReadonlySet<Context>,
  before: MediaTypeIR,
  after: MediaTypeIR,
  resolver: SchemaResolver,
  reached: Reach[],
  pointers: { from: string; to: string },
): ApiChange[] {
  if ((before.itemSchema === undefined) !== (after.itemSchema === undefined)) {
    const nowItems = after.itemSchema !== undefined;
    return [
      change({
        location: where,
        kind: `${prefix}-sequence-changed`,
        description: nowItems ? 'body is now a sequence of items (itemSchema)' : 'body is no longer a sequence of items (itemSchema)',
        breaking: { client: true, server: true },
        why: nowItems ? 'one value became a stream of items: clients and servers must read and write it item by item' : 'a stream of items became one value: clients and servers must read and write it whole',
        reaches: reached,
        from: pointers.from,
        to: pointers.to,
      }),
    ];
  }
  if (before.itemSchema && after.itemSchema) return schemaChanges(`${where} items`, `${prefix}-item-schema`, diffSchemas(before.itemSchema, after.itemSchema, '', 0, resolver), contexts, reached);
  if (before.schema && after.schema) return schemaChanges(where, `${prefix}-schema`, diffSchemas(before.schema, after.schema, '', 0, resolver), contexts, reached);
  return [];
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
  for (const { op, roles } of comparables(api)) {
    mark(collectRefs([...op.parameters.map((p) => p.schema), ...(op.requestBody?.content.flatMap(bodySchemas) ?? [])], components), roles.request);
    mark(collectRefs(op.responses.flatMap((r) => [...r.content.flatMap(bodySchemas), ...r.headers.map((h) => h.schema)]), components), roles.response);
  }
  return out;
}

/** Every place of every operation each component schema reaches (directly or through others). */
function reaches(api: ApiIR): Map<string, Reach[]> {
  const components = new Map(api.schemas.map((s) => [s.name, s.schema]));
  const out = new Map<string, Reach[]>();
  for (const { op } of comparables(api)) {
    const places: Array<[string, SchemaNode | undefined]> = [
      ...op.parameters.map((p): [string, SchemaNode] => [`parameter ${p.in} ${p.name}`, p.schema]),
      ...(op.requestBody?.content ?? []).map((c): [string, SchemaNode | undefined] => [`request body ${c.contentType}`, c.itemSchema ?? c.schema]),
      ...op.responses.flatMap((r) => [
        ...r.content.map((c): [string, SchemaNode | undefined] => [`response ${r.status} body ${c.contentType}`, c.itemSchema ?? c.schema]),
        ...r.headers.map((h): [string, SchemaNode] => [`response ${r.status} header ${h.name}`, h.schema]),
      ]),
    ];
    for (const [place, node] of places) {
      for (const name of collectRefs([node], components)) {
        const list = out.get(name) ?? [];
        list.push({ operationId: op.operationId, method: op.method.toUpperCase(), path: op.path, place });
        out.set(name, list);
      }
    }
  }
  return out;
}

/** What an operation and a webhook share, as compared here. */
type Comparable = Pick<OperationIR, 'operationId' | 'method' | 'path' | 'pointer' | 'security' | 'parameters' | 'requestBody' | 'responses'>;

/** How a comparable is named, and where what it sends and answers is read. */
interface Roles {
  noun: ChangedOperation['noun'];
  request: Context;
  response: Context;
  /** Why a new method or path breaks both sides, and other credentials too. */
  moved: string;
  security: string;
  /** Where they are listed (the pointer a removed one goes to, an added one comes from), and why either breaks its side. */
  home: string;
  /**
   * Why a removal breaks; `pathRemains`: another method is still served at its path;
   * `successor`: the name under which the same method and path remain.
   */
  removed: (pathRemains: boolean, successor?: string) => string;
  added: string;
}

const OPERATION_ROLES: Roles = {
  noun: 'operation',
  request: 'request',
  response: 'response',
  moved: 'its method or path changed: clients must call the new one and servers serve it',
  security: 'other credentials or scopes: clients must obtain them and servers check them',
  home: '#/paths',
  // A path that keeps other methods answers the removed one 405 (RFC 9110 §15.5.6), not 404.
  // The same method and path under another operationId are still served: only the name went.
  removed: (pathRemains, successor) =>
    successor !== undefined
      ? `operation removed: its method and path are still served, as operation ${successor}; clients calling it by name (generated code) must use the new name`
      : `operation removed: a client calling it gets ${pathRemains ? '405 (other methods remain on its path)' : '404'}`,
  // Servers that claim the new version must implement it; clients are not affected.
  added: 'operation added: a server of the new version must implement it',
};
const WEBHOOK_ROLES: Roles = {
  noun: 'webhook',
  request: 'delivery',
  response: 'delivery-answer',
  moved: 'its method changed: the API must send the new one and receivers accept it',
  security: 'other credentials: the API must present them and receivers check them',
  home: '#/webhooks',
  removed: () => 'webhook removed: a receiver waiting for it gets nothing',
  added: 'webhook added: the API of the new version must send it',
};

/** A webhook as an operation: named by its key, its "path" the name it has in the file. */
function webhookAsComparable(webhook: WebhookIR): Comparable {
  return {
    operationId: webhook.key,
    method: webhook.method,
    path: `webhook ${webhook.name}`,
    pointer: webhook.pointer,
    security: webhook.security,
    parameters: webhook.parameters,
    ...(webhook.requestBody ? { requestBody: webhook.requestBody } : {}),
    responses: webhook.responses,
  };
}

/** The operations, then the webhooks, each with its roles. */
function comparables(api: ApiIR): Array<{ op: Comparable; roles: Roles }> {
  return [...api.operations.map((op) => ({ op, roles: OPERATION_ROLES })), ...(api.webhooks ?? []).map((w) => ({ op: webhookAsComparable(w), roles: WEBHOOK_ROLES }))];
}

/** What a breaking change costs each side, by where the schema is read. */
const CONSEQUENCE = {
  request: { client: 'a client sending what was valid before is refused', server: 'a server must accept what it could refuse before' },
  response: { client: 'a client that checks responses strictly rejects what a server may now send', server: 'a server must stop sending what was valid before' },
  delivery: { client: 'a receiver that checks deliveries strictly rejects what the API may now send', server: 'the API must stop sending what was valid before' },
  'delivery-answer': { client: 'a receiver answering what was valid before is refused', server: 'the API must accept answers it could refuse before' },
} as const;

const CONTEXT_WORDS: Record<Context, string> = { request: 'requests', response: 'responses', delivery: 'webhook deliveries', 'delivery-answer': 'answers to webhooks' };
const CONTEXT_ORDER: readonly Context[] = ['request', 'response', 'delivery', 'delivery-answer'];

/** Why a schema change breaks: the fact, where it is read, and what it costs. */
function schemaWhy(fact: string, direction: Direction | undefined, contexts: ReadonlySet<Context>): string | undefined {
  if (direction === undefined || direction === 'compatible') return undefined;
  const costs: string[] = [];
  for (const context of CONTEXT_ORDER.filter((c) => contexts.has(c))) {
    const side = breakingOf(direction, new Set([context]));
    if (side.client) costs.push(CONSEQUENCE[context].client);
    if (side.server) costs.push(CONSEQUENCE[context].server);
  }
  if (costs.length === 0) return undefined;
  const where = CONTEXT_ORDER.filter((c) => contexts.has(c)).map((c) => CONTEXT_WORDS[c]).join(' and ');
  return `${fact}, in ${where}: ${costs.join('; ')}`;
}

function schemaChanges(location: string, kind: string, changes: SchemaChange[], contexts: ReadonlySet<Context>, reached?: Reach[]): ApiChange[] {
  return changes.map((c) => {
    const breaking = breakingOf(c.direction, contexts);
    const why = breaking.client || breaking.server ? schemaWhy(c.fact ?? c.description, c.direction, contexts) : undefined;
    return {
      location,
      ...(c.path ? { path: c.path } : {}),
      kind,
      description: c.description,
      direction: c.direction,
      breaking,
      ...(why ? { why } : {}),
      pointers: { ...(c.from ? { from: c.from } : {}), ...(c.to ? { to: c.to } : {}) },
      ...(reached ? { reaches: reached } : {}),
    };
  });
}

/**
 * A change outside schemas: its pointers, and why it breaks when it does (given, or said from
 * its direction and whether requests or responses carry it).
 */
function change(
  fields: Omit<ApiChange, 'pointers' | 'why'> & { from?: string | undefined; to?: string | undefined; why?: string; context?: Context },
): ApiChange {
  const { from, to, why, context, ...rest } = fields;
  const breaking = rest.breaking.client || rest.breaking.server;
  const said = rest.direction && context ? schemaWhy(rest.description, rest.direction, new Set([context])) : undefined;
  const reason = breaking ? (why ?? said) : undefined;
  return { ...rest, ...(reason ? { why: reason } : {}), pointers: { ...(from ? { from } : {}), ...(to ? { to } : {}) } };
}

function pointerOf(base: string, ...tokens: string[]): string {
  return [base, ...tokens.map(escapePointerToken)].join('/');
}

function diffOperation(before: Comparable, after: Comparable, resolver: SchemaResolver, roles: Roles = OPERATION_ROLES): ApiChange[] {
  const at = `${roles.noun} ${after.operationId}`;
  const REQUEST: ReadonlySet<Context> = new Set([roles.request]);
  const RESPONSE: ReadonlySet<Context> = new Set([roles.response]);
  const ops = { from: before.pointer, to: after.pointer };
  // The operation (as it is in the newer version) and the place in it that a change touches.
  const reach = (place: string): Reach[] => [{ operationId: after.operationId, method: after.method.toUpperCase(), path: after.path, place }];
  const changes: ApiChange[] = [];
  if (before.method !== after.method || before.path !== after.path) {
    changes.push(
      change({
        location: at,
        kind: `${roles.noun}-moved`,
        description: `${before.method.toUpperCase()} ${before.path} → ${after.method.toUpperCase()} ${after.path}`,
        breaking: { client: true, server: true },
        why: roles.moved,
        ...ops,
      }),
    );
  }
  const scopes = (op: Comparable) => JSON.stringify(op.security.map((r) => Object.entries(r).map(([k, v]) => [k, [...v].sort()]).sort()));
  if (scopes(before) !== scopes(after)) {
    changes.push(
      change({
        location: at,
        kind: 'security',
        description: `security ${scopes(before)} → ${scopes(after)}`,
        breaking: { client: true, server: true },
        why: roles.security,
        from: pointerOf(before.pointer, 'security'),
        to: pointerOf(after.pointer, 'security'),
      }),
    );
  }

  const paramKey = (p: { in: string; name: string }) => `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const afterParams = new Map(after.parameters.map((p) => [paramKey(p), p]));
  const beforeParams = new Map(before.parameters.map((p) => [paramKey(p), p]));
  for (const p of before.parameters) {
    const q = afterParams.get(paramKey(p));
    const where = `${at} parameter ${paramKey(p)}`;
    if (!q) {
      changes.push(
        change({
          location: where,
          kind: 'parameter-removed',
          description: 'parameter removed',
          direction: 'wider',
          breaking: breakingOf('wider', REQUEST),
          context: roles.request,
          reaches: reach(`parameter ${p.in} ${p.name}`),
          from: p.schema.pointer,
          to: pointerOf(after.pointer, 'parameters'),
        }),
      );
      continue;
    }
    if (p.required !== q.required) {
      const direction: Direction = q.required ? 'narrower' : 'wider';
      changes.push(
        change({
          location: where,
          kind: 'parameter-required',
          description: q.required ? 'now required' : 'no longer required',
          direction,
          breaking: breakingOf(direction, REQUEST), context: roles.request,
          reaches: reach(`parameter ${q.in} ${q.name}`),
          from: p.schema.pointer,
          to: q.schema.pointer,
        }),
      );
    }
    changes.push(...schemaChanges(where, 'parameter-schema', diffSchemas(p.schema, q.schema, '', 0, resolver), REQUEST, reach(`parameter ${q.in} ${q.name}`)));
  }
  for (const q of after.parameters) {
    if (beforeParams.has(paramKey(q))) continue;
    const direction: Direction = q.required ? 'narrower' : 'wider';
    changes.push(
      change({
        location: `${at} parameter ${paramKey(q)}`,
        kind: 'parameter-added',
        description: `parameter added (${q.required ? 'required' : 'optional'})`,
        direction,
        breaking: breakingOf(direction, REQUEST), context: roles.request,
        reaches: reach(`parameter ${q.in} ${q.name}`),
        from: pointerOf(before.pointer, 'parameters'),
        to: q.schema.pointer,
      }),
    );
  }

  const bodyBefore = new Map((before.requestBody?.content ?? []).map((c) => [c.contentType, c]));
  const bodyAfter = new Map((after.requestBody?.content ?? []).map((c) => [c.contentType, c]));
  const body = { from: pointerOf(before.pointer, 'requestBody'), to: pointerOf(after.pointer, 'requestBody') };
  if (!!before.requestBody?.required !== !!after.requestBody?.required) {
    const direction: Direction = after.requestBody?.required ? 'narrower' : 'wider';
    changes.push(
      change({
        location: `${at} request body`,
        kind: 'body-required',
        description: after.requestBody?.required ? 'body now required' : 'body no longer required',
        direction,
        breaking: breakingOf(direction, REQUEST), context: roles.request,
        reaches: reach('request body'),
        ...body,
      }),
    );
  }
  for (const [type, media] of bodyBefore) {
    const next = bodyAfter.get(type);
    const where = `${at} request ${type}`;
    if (!next) {
      changes.push(
        change({
          location: where,
          kind: 'request-content-type-removed',
          description: 'request content type removed',
          direction: 'narrower',
          breaking: breakingOf('narrower', REQUEST), context: roles.request,
          reaches: reach(`request body ${type}`),
          from: pointerOf(body.from, 'content', type),
          to: pointerOf(body.to, 'content'),
        }),
      );
    } else changes.push(...mediaChanges(where, 'request', REQUEST, media, next, resolver, reach(`request body ${type}`), { from: pointerOf(body.from, 'content', type), to: pointerOf(body.to, 'content', type) }));
  }
  for (const type of bodyAfter.keys()) {
    if (!bodyBefore.has(type)) {
      changes.push(
        change({
          location: `${at} request ${type}`,
          kind: 'request-content-type-added',
          description: 'request content type added',
          direction: 'wider',
          breaking: breakingOf('wider', REQUEST), context: roles.request,
          reaches: reach(`request body ${type}`),
          from: pointerOf(body.from, 'content'),
          to: pointerOf(body.to, 'content', type),
        }),
      );
    }
  }

  const responsesAfter = new Map(after.responses.map((r) => [r.status, r]));
  const responsesBefore = new Map(before.responses.map((r) => [r.status, r]));
  for (const response of before.responses) {
    const next = responsesAfter.get(response.status);
    const where = `${at} ${response.status}`;
    const ptr = { from: pointerOf(before.pointer, 'responses', response.status), to: pointerOf(after.pointer, 'responses', response.status) };
    if (!next) {
      changes.push(
        change({
          location: where,
          kind: 'status-removed',
          description: `status ${response.status} removed`,
          direction: 'narrower',
          breaking: breakingOf('narrower', RESPONSE), context: roles.response,
          reaches: reach(`response ${response.status}`),
          from: ptr.from,
          to: pointerOf(after.pointer, 'responses'),
        }),
      );
      continue;
    }
    const typesAfter = new Map(next.content.map((c) => [c.contentType, c]));
    const typesBefore = new Map(response.content.map((c) => [c.contentType, c]));
    for (const media of response.content) {
      const other = typesAfter.get(media.contentType);
      if (!other) {
        changes.push(
          change({
            location: `${where} ${media.contentType}`,
            kind: 'response-content-type-removed',
            description: 'response content type removed',
            direction: 'narrower',
            breaking: breakingOf('narrower', RESPONSE), context: roles.response,
            reaches: reach(`response ${response.status} body ${media.contentType}`),
            from: pointerOf(ptr.from, 'content', media.contentType),
            to: pointerOf(ptr.to, 'content'),
          }),
        );
      } else {
        const pointers = { from: pointerOf(ptr.from, 'content', media.contentType), to: pointerOf(ptr.to, 'content', media.contentType) };
        changes.push(...mediaChanges(`${where} ${media.contentType}`, 'response', RESPONSE, media, other, resolver, reach(`response ${response.status} body ${media.contentType}`), pointers));
      }
    }
    for (const media of next.content) {
      if (!typesBefore.has(media.contentType)) {
        changes.push(
          change({
            location: `${where} ${media.contentType}`,
            kind: 'response-content-type-added',
            description: 'response content type added',
            direction: 'wider',
            breaking: breakingOf('wider', RESPONSE), context: roles.response,
            reaches: reach(`response ${response.status} body ${media.contentType}`),
            from: pointerOf(ptr.from, 'content'),
            to: pointerOf(ptr.to, 'content', media.contentType),
          }),
        );
      }
    }
    const headersAfter = new Map(next.headers.map((h) => [h.name.toLowerCase(), h]));
    for (const header of response.headers) {
      const other = headersAfter.get(header.name.toLowerCase());
      if (!other) {
        changes.push(
          change({
            location: `${where} header ${header.name}`,
            kind: 'response-header-removed',
            description: 'response header removed',
            direction: 'wider',
            breaking: breakingOf('wider', RESPONSE), context: roles.response,
            reaches: reach(`response ${response.status} header ${header.name}`),
            from: pointerOf(ptr.from, 'headers', header.name),
            to: pointerOf(ptr.to, 'headers'),
          }),
        );
      } else if (header.required !== other.required) {
        const direction: Direction = other.required ? 'narrower' : 'wider';
        changes.push(
          change({
            location: `${where} header ${header.name}`,
            kind: 'response-header-required',
            description: other.required ? 'now required' : 'no longer required',
            direction,
            breaking: breakingOf(direction, RESPONSE), context: roles.response,
            reaches: reach(`response ${response.status} header ${other.name}`),
            from: pointerOf(ptr.from, 'headers', header.name),
            to: pointerOf(ptr.to, 'headers', other.name),
          }),
        );
      }
    }
  }
  for (const response of after.responses) {
    if (!responsesBefore.has(response.status)) {
      changes.push(
        change({
          location: `${at} ${response.status}`,
          kind: 'status-added',
          description: `status ${response.status} added`,
          direction: 'wider',
          breaking: breakingOf('wider', RESPONSE), context: roles.response,
          reaches: reach(`response ${response.status}`),
          from: pointerOf(before.pointer, 'responses'),
          to: pointerOf(after.pointer, 'responses', response.status),
        }),
      );
    }
  }
  return changes;
}

/** Renamed components whose content is compared below them: noise in a list of changes. */
function isRename(change: ApiChange): boolean {
  return change.direction === 'compatible' && change.description.startsWith('schema renamed ');
}

function changedOperation(item: Comparable, roles: Roles): ChangedOperation {
  return { noun: roles.noun, operationId: item.operationId, method: item.method.toUpperCase(), path: item.path };
}

/**
 * Operations (or webhooks) removed, changed and added, matched by name (an operation's
 * operationId, a webhook's key), in that order.
 */
function listChanges(before: readonly Comparable[], after: readonly Comparable[], resolver: SchemaResolver, roles: Roles): ApiChange[] {
  const changes: ApiChange[] = [];
  const byNameAfter = new Map(after.map((item) => [item.operationId, item]));
  const namesBefore = new Set(before.map((item) => item.operationId));
  // Paths compared by shape: `/a/{id}` and `/a/{key}` are the same path to a client.
  const shape = (path: string) => path.replace(/\{[^}]*\}/g, '{}');
  const pathsAfter = new Set(after.map((item) => shape(item.path)));
  for (const item of before) {
    const next = byNameAfter.get(item.operationId);
    // Each change says which operation it is in, right after where (key order is the JSON report's).
    if (next) changes.push(...diffOperation(item, next, resolver, roles).map(({ location, ...rest }) => ({ location, operation: changedOperation(next, roles), ...rest })));
    else {
      changes.push(
        change({
          location: `${roles.noun} ${item.operationId}`,
          operation: changedOperation(item, roles),
          kind: `${roles.noun}-removed`,
          description: `${item.method.toUpperCase()} ${item.path} removed`,
          breaking: { client: true, server: false },
          why: roles.removed(pathsAfter.has(shape(item.path)), after.find((other) => other.method === item.method && shape(other.path) === shape(item.path) && !namesBefore.has(other.operationId))?.operationId),
          from: item.pointer,
          to: roles.home,
        }),
      );
    }
  }
  for (const item of after) {
    if (namesBefore.has(item.operationId)) continue;
    changes.push(
      change({
        location: `${roles.noun} ${item.operationId}`,
        operation: changedOperation(item, roles),
        kind: `${roles.noun}-added`,
        description: `${item.method.toUpperCase()} ${item.path} added`,
        breaking: { client: false, server: true },
        why: roles.added,
        from: roles.home,
        to: item.pointer,
      }),
    );
  }
  return changes;
}

/** Everything that changed from one version of an API to the next, each classified. */
export function diffApis(before: ApiIR, after: ApiIR): ApiDiff {
  const changes: ApiChange[] = [];
  const beforeComponents = new Map(before.schemas.map((s) => [s.name, s.schema]));
  const afterComponents = new Map(after.schemas.map((s) => [s.name, s.schema]));
  const resolver: SchemaResolver = { before: (n) => beforeComponents.get(n), after: (n) => afterComponents.get(n) };
  changes.push(...listChanges(before.operations, after.operations, resolver, OPERATION_ROLES));
  changes.push(...listChanges((before.webhooks ?? []).map(webhookAsComparable), (after.webhooks ?? []).map(webhookAsComparable), resolver, WEBHOOK_ROLES));

  const useBefore = usage(before);
  const useAfter = usage(after);
  const reachBefore = reaches(before);
  const reachAfter = reaches(after);
  const schemasAfter = new Map(after.schemas.map((s) => [s.name, s]));
  const schemasBefore = new Map(before.schemas.map((s) => [s.name, s]));
  for (const schema of before.schemas) {
    const next = schemasAfter.get(schema.name);
    if (!next) {
      changes.push(
        change({ location: `schema ${schema.name}`, schema: schema.name, kind: 'schema-removed', description: 'component schema removed', breaking: { client: false, server: false }, from: schema.schema.pointer, to: '#/components/schemas' }),
      );
      continue;
    }
    const contexts = new Set<Context>([...(useBefore.get(schema.name) ?? []), ...(useAfter.get(schema.name) ?? [])]);
    // Where the schema is read, in either version, each place once (operations in file order).
    const seen = new Set<string>();
    const reached = [...(reachAfter.get(schema.name) ?? []), ...(reachBefore.get(schema.name) ?? [])].filter((r) => {
      const id = `${r.method} ${r.path} ${r.place}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
    const inSchema = schemaChanges(`schema ${schema.name}`, 'schema', diffSchemas(schema.schema, next.schema, '', 0, resolver), contexts, reached);
    changes.push(...inSchema.map(({ location, ...rest }) => ({ location, schema: schema.name, ...rest })));
  }
  for (const schema of after.schemas) {
    if (!schemasBefore.has(schema.name)) {
      changes.push(
        change({ location: `schema ${schema.name}`, schema: schema.name, kind: 'schema-added', description: 'component schema added', breaking: { client: false, server: false }, from: '#/components/schemas', to: schema.schema.pointer }),
      );
    }
  }

  const prefix = (api: ApiIR) => api.servers[0]?.pathPrefix ?? '';
  if (prefix(before) !== prefix(after)) {
    changes.push(
      change({
        location: 'servers',
        kind: 'path-prefix',
        description: `path prefix ${prefix(before)} → ${prefix(after)}`,
        breaking: { client: true, server: true },
        why: 'every URL changes: clients must call the new prefix and servers serve it',
        from: '#/servers/0/url',
        to: '#/servers/0/url',
      }),
    );
  }
  const listed = changes.filter((c) => !isRename(c));
  return {
    from: { title: before.title, version: before.version, pathPrefix: prefix(before) },
    to: { title: after.title, version: after.version, pathPrefix: prefix(after) },
    changes: listed,
    renames: changes.filter(isRename).map((c) => ({ location: c.location, ...(c.path ? { path: c.path } : {}), description: c.description })),
    summary: {
      total: listed.length,
      breaking: listed.filter((c) => c.breaking.client || c.breaking.server).length,
      breakingForClients: listed.filter((c) => c.breaking.client).length,
      breakingForServers: listed.filter((c) => c.breaking.server).length,
    },
  };
}
