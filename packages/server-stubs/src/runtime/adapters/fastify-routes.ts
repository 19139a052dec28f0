/**
 * How a router's operations become Fastify routes: an OpenAPI template whose parameters are
 * whole segments becomes a native route (`/accounts/{AccountId}` → `/accounts/:AccountId`);
 * any other template (`/files/{name}.{ext}`, `/v{major}`) is left to the router's own matcher,
 * behind a catch-all route below the prefix.
 */
import type { RouterOperation } from '../types.js';

/** A parameter Fastify can name: a whole segment, and a name its router reads to the end. */
const WHOLE_SEGMENT_PARAMETER = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/;
/** Characters Fastify's router gives a meaning to in a route (parameters, wildcards, regular expressions), or decodes. */
const SPECIAL_IN_FASTIFY = /[:*()%;?#{}]/;

/** Segments of a template as both routers split it: empty ones (a trailing slash) do not count. */
function segmentsOf(template: string): string[] {
  return template.split('/').filter((segment) => segment !== '');
}

/** The Fastify route of an OpenAPI path template, or undefined when Fastify cannot express it as the router matches it. */
export function fastifyPath(template: string): string | undefined {
  const out: string[] = [];
  for (const segment of segmentsOf(template)) {
    const parameter = WHOLE_SEGMENT_PARAMETER.exec(segment);
    if (parameter !== null) out.push(`:${parameter[1]!}`);
    else if (SPECIAL_IN_FASTIFY.test(segment)) return undefined;
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

export interface NativeRoute {
  readonly url: string;
  readonly methods: readonly string[];
  /** The operation `name` these requests are answered by. */
  readonly name: string;
}

/**
 * The native routes for `operations`: each operation's method at its Fastify path, `HEAD` with
 * `GET` where the path has no `HEAD` of its own (the router answers it as GET without the body).
 * A template the router matches by itself keeps every template with as many segments away
 * from Fastify too: a request that Fastify would give to one could be the other's.
 */
export function nativeRoutes(operations: readonly RouterOperation[], prefix: string, supported: ReadonlySet<string>): NativeRoute[] {
  const selfMatched = new Set(operations.filter((op) => fastifyPath(op.path) === undefined).map((op) => segmentsOf(op.path).length));
  const routes: NativeRoute[] = [];
  for (const op of operations) {
    const path = fastifyPath(op.path);
    if (path === undefined || selfMatched.has(segmentsOf(op.path).length) || !supported.has(op.method)) continue;
    const hasHead = operations.some((other) => other.path === op.path && other.method === 'HEAD');
    const methods = op.method === 'GET' && !hasHead && supported.has('HEAD') ? ['GET', 'HEAD'] : [op.method];
    routes.push({ url: path === '/' && prefix !== '' ? prefix : `${prefix}${path}`, methods, name: op.name });
  }
  return routes;
}
