/**
 * Server stubs: per API, a typed `Handlers` interface (one method per operation), the
 * operations' security and permissions as data, and `createRouter(handlers, options)`
 * (with `createNodeListener` and `createFastifyPlugin`, the same router outside Express),
 * which hands all of it to the runtime of `@bank-data-sharing/server-stubs`. The files stay
 * thin: request and response types are derived from the validators' schemas by the
 * runtime's generic types, so no schema is repeated here.
 */
import type { ApiIR } from '../../ir/types.js';
import { generatedHeader } from '../shared/header.js';
import type { Emitter, GeneratedFile } from '../types.js';
import { propertyKey } from '../shared/names.js';
import { jsDoc, moduleSpecifier } from './comment.js';
import { printHandlers } from './print-handlers.js';
import { printMeta } from './print-meta.js';
import { apiTitle, apiVersion } from '../shared/titles.js';

/** Module specifier of the runtime the generated code calls. */
export const SERVER_RUNTIME_IMPORT = '@bank-data-sharing/server-stubs/runtime';

/** The receiver of the API's webhooks; nothing when the spec has none. */
function printWebhookRouter(api: ApiIR): string[] {
  const hooks = api.webhooks ?? [];
  if (hooks.length === 0) return [];
  const first = hooks[0]!;
  const firstKey = first.key;
  return [
    '',
    jsDoc(
      [
        `An Express-compatible router receiving the webhooks of ${apiTitle(api)} (${apiVersion(api)}) with \`handlers\`: each at \`options.paths[key]\`, by default \`/<webhook name>\`, below \`options.prefix\` (default: none). Requests to other paths go on to the next middleware.`,
        "Every delivery is checked before its handler runs (Content-Type, security, headers and body: 400 in the spec's error shape), and every result is checked against the responses the spec lets the receiver send.",
        `@example\napp.use(createWebhookRouter(handlers, { paths: { ${propertyKey(firstKey)}: ${moduleSpecifier(`/hooks${defaultWebhookPath(first.name)}`)} } }));`,
      ],
      '',
    ).trimEnd(),
    'export function createWebhookRouter(handlers: Partial<WebhookHandlers>, options: WebhookRouterOptions<keyof WebhookHandlers & string> = {}): ApiRouter {',
    '  return createApiWebhookRouter({ api, webhooks, operations, meta: webhookMeta, securitySchemes }, handlers, options);',
    '}',
  ];
}

/** The router of `createRouter` served without Express: as a node:http listener, as a Fastify plugin. */
function printAdapters(): string[] {
  const signature = '(handlers: Partial<Handlers>, options: RouterOptions<ErrorBodyOf<typeof operations>> = {})';
  return [
    '',
    jsDoc(
      [
        "The router of `createRouter` as a plain node:http request listener: the same answers, without Express. A request outside the router's prefix is answered with its 404.",
        "@example\nhttp.createServer(createNodeListener(handlers, { authorize })).listen(8080);",
      ],
      '',
    ).trimEnd(),
    `export function createNodeListener${signature}: NodeRequestListener {`,
    '  return toNodeListener(createRouter(handlers, options));',
    '}',
    '',
    jsDoc(
      [
        "The router of `createRouter` as a Fastify plugin: each operation a native Fastify route, the router's own 404 and 405 below its prefix, the same answers as under Express. (For the targets Fastify refuses before routing, see `fastifyFrameworkErrors`.)",
        '@example\nawait app.register(createFastifyPlugin(handlers, { authorize }));',
      ],
      '',
    ).trimEnd(),
    `export function createFastifyPlugin${signature}: FastifyRouterPlugin {`,
    '  return fastifyPlugin(createRouter(handlers, options));',
    '}',
  ];
}

/** `/<name>`, percent-encoded: where the runtime receives a webhook unless told otherwise. */
function defaultWebhookPath(name: string): string {
  return `/${encodeURIComponent(name)}`;
}

function printIndex(api: ApiIR, header: string, validatorsImport: string): string {
  const prefix = api.servers[0]?.pathPrefix ?? '';
  // Names that exist only in a module with webhooks.
  const ifWebhooks = (text: string) => ((api.webhooks ?? []).length > 0 ? text : '');
  return [
    header.trimEnd(),
    `import { createApiRouter${ifWebhooks(', createApiWebhookRouter')}, fastifyPlugin, toNodeListener, type ApiRouter, type ErrorBodyOf, type FastifyRouterPlugin, type NodeRequestListener, type RouterOptions${ifWebhooks(', type WebhookRouterOptions')} } from ${moduleSpecifier(SERVER_RUNTIME_IMPORT)};`,
    `import { api, operations${ifWebhooks(', webhooks')} } from ${moduleSpecifier(validatorsImport)};`,
    `import type { Handlers${ifWebhooks(', WebhookHandlers')} } from './handlers.gen.js';`,
    `import { operationMeta, securitySchemes${ifWebhooks(', webhookMeta')} } from './meta.gen.js';`,
    '',
    `export type { HandlerResultOf, Handlers${ifWebhooks(', WebhookHandlers')} } from './handlers.gen.js';`,
    `export { operationMeta, securitySchemes${ifWebhooks(', webhookMeta')} } from './meta.gen.js';`,
    '',
    jsDoc(
      [
        `An Express-compatible router (Express 4 or 5) serving ${apiTitle(api)} (${apiVersion(api)}) with \`handlers\`, under ${
          prefix ? `\`${prefix}\` (the first server in the spec)` : 'the root'
        } unless \`options.prefix\` says otherwise.`,
        'Every request is checked before its handler runs (404, 405, 406, 415, 401, 403, 400), and every result is checked against the spec before it is sent (switch off with `validateResponses: false`).',
        "Operations without a handler answer 501 in the error contract the spec declares, and are named once when the router is created (`missingHandlers: 'throw'` makes a missing one an error instead).",
        "Errors take the body the spec declares for their status (exact, `4XX`/`5XX`, `default`): `options.formatError` builds one where the router cannot, and must return a declared error body; RFC 9457 problem details where nothing is declared.",
        '@example\napp.use(createRouter(handlers, { authorize }));',
      ],
      '',
    ).trimEnd(),
    'export function createRouter(handlers: Partial<Handlers>, options: RouterOptions<ErrorBodyOf<typeof operations>> = {}): ApiRouter {',
    '  return createApiRouter({ api, operations, meta: operationMeta, securitySchemes }, handlers, options);',
    '}',
    ...printAdapters(),
    ...printWebhookRouter(api),
    '',
  ].join('\n');
}

export const emitServer: Emitter = (built, options) => {
  const { api } = built;
  const header = generatedHeader(api);
  const files: GeneratedFile[] = [
    { path: 'server/handlers.gen.ts', contents: printHandlers(api, header, SERVER_RUNTIME_IMPORT, options.validatorsImport) },
    { path: 'server/index.ts', contents: printIndex(api, header, options.validatorsImport) },
    { path: 'server/meta.gen.ts', contents: printMeta(api, header, SERVER_RUNTIME_IMPORT) },
  ];
  return files;
};
