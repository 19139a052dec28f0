import type { ApiIR, OperationIR, TagIR, WebhookIR } from '../../ir/types.js';
import { propertyKey } from '../shared/names.js';
import { jsDoc, moduleSpecifier } from './comment.js';
import { permissionsOf } from './print-meta.js';
import { apiTitle, apiVersion, summarySuffix } from '../shared/titles.js';

/**
 * `typeof operations.X` (or `webhooks`), or `(typeof operations)["ö"]` when the key is not an
 * ASCII identifier.
 */
function memberType(map: 'operations' | 'webhooks', key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `typeof ${map}.${key}` : `(typeof ${map})[${JSON.stringify(key)}]`;
}

/**
 * One method of a handlers interface: `key(request: <Kind>Request<T>): <Kind>Reply<T>;`, on one
 * line when it fits in 100 columns. Whether a body is required comes from the IR, so it holds
 * however the validators type it.
 */
function printSignature(key: string, kind: 'Handler' | 'Webhook', type: string, bodyRequired: boolean): string {
  const request = bodyRequired ? `${kind}Request<${type}, true>` : `${kind}Request<${type}>`;
  const oneLine = `  ${propertyKey(key)}(request: ${request}): ${kind}Reply<${type}>;`;
  if (oneLine.length <= 100) return oneLine;
  return `  ${propertyKey(key)}(\n    request: ${request},\n  ): ${kind}Reply<${type}>;`;
}

function securityLine(op: Pick<OperationIR, 'security'>): string | undefined {
  if (op.security.length === 0) return 'Security: none.';
  const alternatives = op.security.map((requirement) => {
    const entries = Object.entries(requirement);
    if (entries.length === 0) return 'anonymous';
    return entries.map(([scheme, scopes]) => (scopes.length ? `${scheme} (${scopes.join(', ')})` : scheme)).join(' and ');
  });
  return `Security: ${alternatives.join(', or ')}.`;
}

function statusesLine(entry: Pick<OperationIR, 'responses'>): string | undefined {
  // OpenAPI 3.2 responses may carry a `summary`: shown beside its status.
  return entry.responses.length ? `Responses: ${entry.responses.map((r) => (r.summary ? `${r.status} (${r.summary})` : r.status)).join(', ')}.` : undefined;
}

/**
 * `Tag: Quotes › Live quotes.` for an operation whose first tag has OpenAPI 3.2's `summary` or
 * `parent`: the tag's place among its parents, by their summaries. Undefined for other tags,
 * so files without them print as before.
 */
function tagLine(op: OperationIR, tags: ReadonlyMap<string, TagIR>): string | undefined {
  const first = op.tags[0] === undefined ? undefined : tags.get(op.tags[0]);
  if (!first || (first.summary === undefined && first.parent === undefined)) return undefined;
  const trail: string[] = [];
  // Bounded: a parent chain that loops stops at the tag count.
  for (let tag: TagIR | undefined = first; tag && trail.length <= tags.size; tag = tag.parent === undefined ? undefined : tags.get(tag.parent)) trail.unshift(tag.summary ?? tag.name);
  return `Tag: ${trail.join(' › ')}${first.kind ? ` (${first.kind})` : ''}.`;
}

function printMember(op: OperationIR, tags: ReadonlyMap<string, TagIR>): string {
  const title = `${op.method.toUpperCase()} ${op.path}${summarySuffix(op.summary)}`;
  const permissions = permissionsOf(op);
  const statuses = statusesLine(op);
  const doc = jsDoc(
    [
      title,
      [tagLine(op, tags), securityLine(op), permissions.length ? `Consent permissions (any of): ${permissions.join(', ')}.` : undefined, statuses]
        .filter(Boolean)
        .join(' '),
      op.deprecated ? '@deprecated The spec marks this operation as deprecated.' : undefined,
    ],
    '  ',
  );
  return `${doc}${printSignature(op.name, 'Handler', memberType('operations', op.name), op.requestBody?.required === true)}`;
}

function printWebhookMember(hook: WebhookIR, key: string): string {
  const title = `Webhook ${hook.name}: ${hook.method.toUpperCase()}${summarySuffix(hook.summary)}`;
  const statuses = statusesLine(hook);
  const doc = jsDoc(
    [title, [securityLine(hook), statuses].filter(Boolean).join(' '), hook.deprecated ? '@deprecated The spec marks this webhook as deprecated.' : undefined],
    '  ',
  );
  return `${doc}${printSignature(key, 'Webhook', memberType('webhooks', key), hook.requestBody?.required === true)}`;
}

/** The interface a receiver of the API's webhooks fills in; empty when the spec has none. */
function printWebhookHandlers(api: ApiIR): string[] {
  const hooks = api.webhooks ?? [];
  if (hooks.length === 0) return [];
  const members = hooks.map((hook) => printWebhookMember(hook, hook.key));
  return [
    '',
    jsDoc(
      [
        `One method per webhook of ${apiTitle(api)} (${apiVersion(api)}): requests the API sends to a receiver you run.`,
        'Each receives the validated delivery (typed headers, body) and returns one of the statuses the spec lets the receiver answer; mount them with `createWebhookRouter`.',
      ],
      '',
    ).trimEnd(),
    `export interface WebhookHandlers {\n${members.join('\n\n')}\n}`,
  ];
}

/** `handlers.gen.ts`: the interface an implementation of the API fills in (and one for its webhooks). */
export function printHandlers(api: ApiIR, header: string, runtimeImport: string, validatorsImport: string): string {
  const tags = new Map((api.tags ?? []).map((tag) => [tag.name, tag]));
  const members = api.operations.map((op) => printMember(op, tags));
  // Names that exist only in a module with webhooks.
  const ifWebhooks = (text: string) => ((api.webhooks ?? []).length > 0 ? text : '');
  return [
    header.trimEnd(),
    `import type { HandlerReply, HandlerRequest${ifWebhooks(', WebhookReply, WebhookRequest')} } from ${moduleSpecifier(runtimeImport)};`,
    `import type { operations${ifWebhooks(', webhooks')} } from ${moduleSpecifier(validatorsImport)};`,
    '',
    jsDoc(
      [
        `One method per operation of ${apiTitle(api)} (${apiVersion(api)}).`,
        'Each receives the validated request (typed path, query, headers, body) and returns one of the statuses the spec defines with its body; throw `ApiError` to answer with an error envelope.',
      ],
      '',
    ).trimEnd(),
    `export interface Handlers ${members.length ? `{\n${members.join('\n\n')}\n}` : '{}'}`,
    '',
    // Why it exists: a handler typed only as `Handlers['X']` that returns an undeclared status
    // gets TypeScript's error on the whole function type, several levels deep; with this as its
    // return type the error is on the returned status, naming the declared ones.
    jsDoc(
      [
        'What the handler of one operation resolves to: one of the statuses the spec declares, with its body.',
        "Give it as a handler's return type and a status the spec does not declare is a one-line error that names the declared ones (`Type '201' is not assignable to type '200 | 400 | ...'`).",
        "@example\nexport const GetThing: Handlers['GetThing'] = async (request): Promise<HandlerResultOf<'GetThing'>> => ({ status: 200, body });",
      ],
      '',
    ).trimEnd(),
    'export type HandlerResultOf<K extends keyof Handlers> = Awaited<ReturnType<Handlers[K]>>;',
    ...printWebhookHandlers(api),
    '',
  ].join('\n');
}
