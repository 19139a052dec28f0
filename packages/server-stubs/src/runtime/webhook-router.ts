/**
 * The receiver of an API's webhooks (OpenAPI 3.1 `webhooks`): each webhook becomes an
 * operation at the path the application chooses, served by the same pipeline as the API's
 * operations (`Content-Type`, security, body and headers validated, 400 in the spec's error
 * shape, handler result validated). Requests to other paths are passed on (`next()`), so the
 * receiver can share an application with other routes.
 */
import { buildRouter } from './router.js';
import type { WebhookRouterOptions } from './options.js';
import type { ApiRouter, OperationSchemas, WebhookDefinition } from './types.js';

/** `/<name>` with everything but unreserved characters percent-encoded (`{` cannot start a template). */
function defaultWebhookPath(name: string): string {
  return `/${encodeURIComponent(name)}`;
}

/**
 * Builds the receiver of an API's webhooks. Generated code calls this; applications call the
 * generated `createWebhookRouter`.
 *
 * @example
 * app.use(createWebhookRouter({ newPet: async ({ body }) => ({ status: 204 }) }, { paths: { newPet: '/hooks/new-pet' } }));
 */
export function createApiWebhookRouter(definition: WebhookDefinition, handlers: object, options: WebhookRouterOptions = {}): ApiRouter {
  const paths: Readonly<Record<string, string | undefined>> = options.paths ?? {};
  for (const key of Object.keys(paths)) {
    if (!Object.hasOwn(definition.webhooks, key)) {
      throw new TypeError(`createWebhookRouter: options.paths names ${JSON.stringify(key)}, which is not a webhook (webhooks: ${Object.keys(definition.webhooks).join(', ') || 'none'})`);
    }
  }
  const operations: Record<string, OperationSchemas> = {};
  for (const [key, hook] of Object.entries(definition.webhooks)) {
    const path = paths[key] ?? defaultWebhookPath(hook.webhook);
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new TypeError(`createWebhookRouter: the path of webhook ${JSON.stringify(key)} must start with "/" (got ${JSON.stringify(path)})`);
    }
    operations[key] = { operationId: key, method: hook.method, path, request: hook.request, responses: hook.responses };
  }
  const { paths: _paths, ...routerOptions } = options;
  return buildRouter(
    { api: definition.api, operations, meta: definition.meta, securitySchemes: definition.securitySchemes },
    handlers,
    { ...routerOptions, prefix: options.prefix ?? '' },
    { label: 'createWebhookRouter', entries: 'webhook(s)', passUnmatched: true, fallbackResponses: Object.values(definition.operations ?? {}) },
  );
}
