/**
 * The request pipeline behind every generated `createRouter`, in the order the contract
 * prescribes: route (404/405), rate limit (429), `Accept` (406), `Content-Type` (415, or 400
 * where the operation defines no 415), credentials (401) and scopes (403), body and
 * parameters (400/413), consent (403), then the handler and its result.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { acceptedContentType, authChallenges, bodyKind, commonResponses, declaredFor, declaresHeader, DEFAULT_MAX_DEPTH, FAILURES, missingCredentialFailure, missingCredentialsMessage, negotiate, PROBLEM_JSON, problemDetails, refusedCredentialMessage, sequenceEncodingOf, sequenceFormat, sequenceItemOf } from '@bank-data-sharing/wire';
import { ApiError, isApiError } from './api-error.js';
import { DEFAULT_BODY_LIMIT, DEFAULT_FIELDS_LIMIT, DEFAULT_FILE_LIMIT, DEFAULT_FILES_LIMIT, hasBody } from './body.js';
import { errorAnswer, errorPlan } from './error-contract.js';
import type { Exchange } from './exchange.js';
import { interactionId } from './interaction-id.js';
import type { ErrorContext, RouterOptions } from './options.js';
import { compilePaths, matchPath } from './path-matcher.js';
import { claimedNames, credentialNames, readRequestBody, validateParts, type ReadBodyResult } from './read-request.js';
import { producibleTypes, sendApiError, sendError, sendFailure } from './respond.js';
import { requestItems } from './request-stream.js';
import { checkSecurity } from './security.js';
import { sendResult } from './send-result.js';
import type { ApiDefinition, ApiRouter, AuthGrant, HandlerRequest, OperationSchemas, RouterCore, RouterOperation } from './types.js';
import { withoutTrailing } from '@bank-data-sharing/wire';

function defaultOnError(error: unknown, context: ErrorContext): void {
  const detail = context.issues && context.issues.length > 0 ? `\n  ${context.issues.join('\n  ')}` : '';
  console.error(`[server-stubs] ${context.phase} error in ${context.operationId ?? '(routing)'} (interaction ${context.interactionId}):`, error, detail);
}

/** `text` without the slashes it ends with (a `publicUrl` built from a forwarded header can hold many). */
export function withoutTrailingSlashes(text: string): string {
  return withoutTrailing(text, '/');
}

/** `/a/b/` → `/a/b`; `` and `/` → ``. */
function normalizePrefix(prefix: string): string {
  const trimmed = withoutTrailingSlashes(prefix);
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

function firstHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * A request target in origin form: the absolute form (`http://host/path`, which RFC 9112
 * §3.2.2 says servers must accept) reduced to its path and query, `/` when it has neither.
 */
function originForm(target: string): string {
  if (target.charCodeAt(0) === 47 /* / */) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  return authority === null ? target : target.slice(authority[0].length) || '/';
}

const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

function absoluteUrl(req: IncomingMessage, publicUrl: RouterOptions['publicUrl']): string {
  const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
  const original = originForm(target);
  let base: string;
  if (typeof publicUrl === 'function') base = publicUrl(req);
  else if (publicUrl !== undefined) base = publicUrl;
  else {
    const host = req.headers.host !== undefined && HOST.test(req.headers.host) ? req.headers.host : 'localhost';
    const tls = (req.socket as { encrypted?: boolean }).encrypted === true;
    base = `${tls ? 'https' : 'http'}://${host}`;
  }
  return withoutTrailingSlashes(base) + asUriTarget(original);
}

/**
 * The request target as it goes into URLs handlers return (`Links.Self`): characters RFC 3986
 * does not allow, and a `%` that starts no escape, are percent-encoded, so a client's odd
 * query cannot make the answer invalid.
 */
function asUriTarget(target: string): string {
  return target.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/gu, (c) => encodeURIComponent(c));
}

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

/**
 * The path of a request target as the router compares it: in origin form (`originForm`),
 * and percent-escapes of unreserved characters decoded (RFC 3986 §6.2.2.2: `%2D` is `-`).
 */
function normalisePath(target: string): string {
  // The common case: an origin-form target without escapes is already normal.
  if (target.charCodeAt(0) === 47 /* / */ && !target.includes('%')) return target;
  return originForm(target).replace(/%([0-9A-Fa-f]{2})/g, (escape, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : escape;
  });
}

/** How a router built here names itself and what it serves (in messages), and what it leaves to others. */
export interface RouterSettings {
  /** The generated function that builds it, e.g. `createRouter`. */
  readonly label: string;
  /** What its entries are, e.g. `operation(s)`. */
  readonly entries: string;
  /** A path none of its entries has is passed on (`next()`) instead of answered 404. */
  readonly passUnmatched: boolean;
  /** More responses whose shapes error answers may take, after the entries' own. */
  readonly fallbackResponses: readonly OperationSchemas[];
}

const API_ROUTER: RouterSettings = { label: 'createRouter', entries: 'operation(s)', passUnmatched: false, fallbackResponses: [] };

function onMissingHandlersDefault(settings: RouterSettings) {
  return (missing: readonly { operationId: string; method: string; path: string }[]): void => {
    const list = missing.map((op) => `${op.operationId} (${op.method.toUpperCase()} ${op.path})`).join(', ');
    console.warn(`[server-stubs] ${settings.label}: ${missing.length} ${settings.entries} have no handler and answer 501: ${list}`);
  };
}

/**
 * Each operation's name: its key in `definition.operations`, which is also the key of its
 * handler and of its `meta`. (Generated code gives an operation one identifier; its operationId,
 * which need not be one, is data for messages and logs.)
 */
function operationNames(definition: ApiDefinition): Map<OperationSchemas, string> {
  return new Map(Object.entries(definition.operations).map(([name, op]) => [op, name]));
}

/** Operations of `definition` without a handler function. */
function missingHandlers(definition: ApiDefinition, handlers: object): OperationSchemas[] {
  return Object.entries(definition.operations)
    .filter(([name]) => typeof (handlers as Record<string, unknown>)[name] !== 'function')
    .map(([, op]) => op);
}

/**
 * Fails at start-up, not on the first request, when the options cannot serve the API.
 * `names` and `missing` are the router's own (`operationNames`, `missingHandlers`).
 */
function checkConfiguration(
  definition: ApiDefinition,
  options: RouterOptions<unknown>,
  label: string,
  names: ReadonlyMap<OperationSchemas, string>,
  missing: readonly OperationSchemas[],
): void {
  const ops = Object.values(definition.operations);
  if (missing.length > 0 && options.missingHandlers === 'throw') {
    throw new TypeError(`${label}: no handler for ${missing.map((op) => op.operationId).join(', ')} (missingHandlers: 'throw')`);
  }
  if (options.missingHandlers !== undefined && options.missingHandlers !== 'throw' && options.missingHandlers !== 'notImplemented') {
    throw new TypeError(`${label}: options.missingHandlers must be 'notImplemented' or 'throw' (got ${JSON.stringify(options.missingHandlers)})`);
  }
  const secured = ops.filter((op) => (definition.meta[names.get(op)!]?.security ?? []).some((r) => Object.keys(r).length > 0));
  if (secured.length > 0 && !options.authorize) {
    throw new TypeError(`${label}: ${secured[0]!.operationId} (and ${secured.length - 1} more) require security; pass options.authorize`);
  }
  // Only operations with a handler read bodies: one answered 501 needs no verification key.
  const signedBodies = ops.filter((op) => !missing.includes(op) && Object.keys(op.request.body?.content ?? {}).some((t) => bodyKind(t) === 'jwt'));
  if (signedBodies.length > 0 && !options.verification) {
    throw new TypeError(`${label}: ${signedBodies.map((op) => op.operationId).join(', ')} accept signed (application/jwt) bodies; pass options.verification`);
  }
}

/**
 * Builds the router of one API from its generated definition and the application's
 * handlers. Generated code calls this; applications call the generated `createRouter`.
 *
 * @example
 * import { api, operations } from '@bank-data-sharing/validators/v2.2';
 * const router = createApiRouter({ api, operations, meta, securitySchemes }, handlers, { authorize });
 * app.use(router);
 */
export function createApiRouter(definition: ApiDefinition, handlers: object, options: RouterOptions<unknown> = {}): ApiRouter {
  return buildRouter(definition, handlers, options, API_ROUTER);
}

/** `createApiRouter`, and the webhook receiver (webhook-router.ts), which differs in `settings`. */
export function buildRouter(definition: ApiDefinition, handlers: object, options: RouterOptions<unknown>, settings: RouterSettings): ApiRouter {
  const operations = Object.values(definition.operations);
  const names = operationNames(definition);
  // Operations by path and method; two at the same method and path (webhooks can be given
  // any path) are refused first, before any other check or callback.
  const byPath = new Map<string, Map<string, OperationSchemas>>();
  for (const op of operations) {
    const methods = byPath.get(op.path) ?? new Map<string, OperationSchemas>();
    const method = op.method.toUpperCase();
    const other = methods.get(method);
    if (other !== undefined) {
      throw new TypeError(`${settings.label}: ${JSON.stringify(other.operationId)} and ${JSON.stringify(op.operationId)} are both received at ${method} ${op.path}`);
    }
    methods.set(method, op);
    byPath.set(op.path, methods);
  }
  const missing = missingHandlers(definition, handlers);
  checkConfiguration(definition, options, settings.label, names, missing);
  // Named once, here, rather than on every request that reaches one of them.
  if (missing.length > 0) (options.onMissingHandlers ?? onMissingHandlersDefault(settings))(missing.map(({ operationId, method, path }) => ({ operationId, method, path })));
  const resolved: RouterOptions<unknown> = { ...options, onError: options.onError ?? defaultOnError };
  const prefix = normalizePrefix(options.prefix ?? definition.api.pathPrefix);
  const bodyBytes = options.limits?.bodyBytes ?? DEFAULT_BODY_LIMIT;
  const limits = {
    bodyBytes,
    depth: options.limits?.depth ?? DEFAULT_MAX_DEPTH,
    fileBytes: options.limits?.fileBytes ?? DEFAULT_FILE_LIMIT,
    files: options.limits?.files ?? DEFAULT_FILES_LIMIT,
    fields: options.limits?.fields ?? DEFAULT_FIELDS_LIMIT,
    // A field of a multipart body is bounded as a whole body of another media type is.
    fieldBytes: bodyBytes,
  };
  const paths = compilePaths(operations.map((op) => op.path));
  const apiResponses = commonResponses(operations);
  for (const [status, response] of commonResponses(settings.fallbackResponses)) if (!apiResponses.has(status)) apiResponses.set(status, response);
  // `x-fapi-interaction-id` where the spec declares it (or the option says): per operation,
  // and for paths no operation has, when any operation declares it.
  const echoing = new Set(operations.filter((op) => options.fapiInteractionId ?? declaresHeader(op, 'x-fapi-interaction-id')));
  // A path answered 405 echoes it when one of its operations does.
  const echoingPaths = new Set([...byPath.values()].filter((methods) => [...methods.values()].some((op) => echoing.has(op))));
  const echoUnmatched = options.fapiInteractionId ?? [...operations, ...settings.fallbackResponses].some((op) => declaresHeader(op, 'x-fapi-interaction-id'));
  const reported = new Set<z.ZodType>();
  // The names each operation's object parameters cannot take, for the operations with styled
  // parameters: they depend on the operation and the API's keys alone, so they are worked out here.
  const credentials = credentialNames(definition.securitySchemes);
  // The challenges of each operation's 401, worked out once: they depend on the spec alone.
  const realm = options.realm ?? definition.api.title;
  const challenges = new Map(Object.entries(definition.meta).map(([name, meta]) => [name, authChallenges(meta.security, definition.securitySchemes, { realm })]));
  const claimed = new Map(operations.filter((op) => (op.request.parameters?.length ?? 0) > 0).map((op) => [op, claimedNames(op, credentials)]));

  // What `Accept` is checked against, per operation: it depends only on the operation's
  // responses and on whether a signing key is configured, so it is worked out once, here.
  const negotiation = new Map<OperationSchemas, { successOffers: readonly string[]; declared: boolean }>();
  for (const op of operations) {
    const success = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
    negotiation.set(op, {
      successOffers: success.flatMap(([, response]) => producibleTypes(response.content, options.signing !== undefined)),
      declared: success.some(([, response]) => Object.keys(response.content).length > 0),
    });
  }

  /** An exchange of this router, before routing finds its operation. */
  function newExchange(req: IncomingMessage, res: ServerResponse, request: Pick<Exchange, 'interactionId' | 'head' | 'accept' | 'echoInteractionId'>): Exchange {
    const { interactionId: id, head, accept, echoInteractionId } = request;
    return { req, res, interactionId: id, head, accept, op: undefined, options: resolved, apiResponses, echoInteractionId, reported };
  }

  /** The exchange of a request as it arrives: its interaction id (echoed or new), HEAD and `Accept`. */
  function arrivingExchange(req: IncomingMessage, res: ServerResponse, method: string, echoInteractionId: boolean): Exchange {
    return newExchange(req, res, { interactionId: interactionId(req.headers['x-fapi-interaction-id']), head: method === 'HEAD', accept: firstHeader(req, 'accept'), echoInteractionId });
  }

  async function handle(req: IncomingMessage, res: ServerResponse, slot: { ex?: Exchange }, url = req.url ?? '/'): Promise<boolean> {
    const q = url.indexOf('?');
    const rawPath = normalisePath(q < 0 ? url : url.slice(0, q));
    if (prefix !== '' && rawPath !== prefix && !rawPath.startsWith(`${prefix}/`)) return false;
    const localPath = rawPath.slice(prefix.length) || '/';
    const match = matchPath(paths, localPath);
    // A path this router does not serve is left to later middleware untouched (headers too).
    if (!match && settings.passUnmatched) return false;
    const method = (req.method ?? 'GET').toUpperCase();
    const ex = arrivingExchange(req, res, method, echoUnmatched);
    slot.ex = ex;
    const methods = !match || 'malformed' in match ? undefined : byPath.get(match.template);
    const op = methods?.get(method) ?? (method === 'HEAD' ? methods?.get('GET') : undefined);
    if (op) ex.echoInteractionId = echoing.has(op);
    else if (methods) ex.echoInteractionId = echoingPaths.has(methods);
    // Every answer carries the interaction id where it is declared, even one written by later middleware.
    if (ex.echoInteractionId) res.setHeader('x-fapi-interaction-id', ex.interactionId);

    if (!match) return sendFailure(ex, 'notFound', 'No resource at this path').then(() => true);
    if ('malformed' in match || !methods) {
      return sendFailure(ex, 'invalidParameter', 'path parameter is not valid percent-encoding', { path: 'malformed' in match ? match.malformed : '' }).then(() => true);
    }
    if (!op) {
      ex.op = methods.values().next().value;
      const allow = [...methods.keys()];
      if (methods.has('GET') && !methods.has('HEAD')) allow.push('HEAD');
      await sendFailure(ex, 'methodNotAllowed', `${method} is not allowed here`, { headers: { allow: allow.join(', ') } });
      return true;
    }
    ex.op = op;
    return handleOperation(ex, op, match, url, q);
  }

  /**
   * The pipeline of one operation, once routing found it (here, or a framework's own router):
   * rate limit, `Accept`, `Content-Type`, security, body, parameters, consent, handler, result.
   */
  async function handleOperation(ex: Exchange, op: OperationSchemas, match: { readonly params: Record<string, string>; readonly raw: Record<string, string> }, url: string, q: number): Promise<boolean> {
    const { req, res } = ex;
    const name = names.get(op)!;
    const meta = definition.meta[name] ?? { security: [] };
    const permissions = meta.permissions ?? [];
    const schemes = definition.securitySchemes;
    if (meta.security.length > 0) ex.challenge = challenges.get(name);

    if (resolved.rateLimit) {
      const wait = await resolved.rateLimit({ operationId: op.operationId, req });
      if (wait !== undefined) {
        await sendError(ex, 429, [{ code: FAILURES.tooManyRequests.code, message: 'Too many requests' }], { 'retry-after': String(Math.max(0, Math.ceil(wait))) });
        return true;
      }
    }

    const { successOffers, declared } = negotiation.get(op)!;
    if (declared && negotiate(ex.accept, successOffers) === undefined) {
      await sendFailure(ex, 'notAcceptable', `None of the media types in Accept can be produced (available: ${successOffers.join(', ') || 'none'})`);
      return true;
    }

    const bodySpec = op.request.body;
    const bodySent = hasBody(req);
    const requestContentType = firstHeader(req, 'content-type');
    let specContentType: string | undefined;
    if (bodySpec && bodySent) {
      const encoding = firstHeader(req, 'content-encoding');
      specContentType = requestContentType ? acceptedContentType(requestContentType, Object.keys(bodySpec.content)) : undefined;
      if (specContentType === undefined || (encoding !== undefined && encoding.toLowerCase() !== 'identity')) {
        const kind = op.responses['415'] ? 'unsupportedMediaType' : 'unsupportedMediaTypeAs400';
        const what = encoding !== undefined && encoding.toLowerCase() !== 'identity' ? `Content-Encoding ${encoding}` : `Content-Type ${requestContentType ?? '(none)'}`;
        await sendFailure(ex, kind, `${what} is not accepted; use ${Object.keys(bodySpec.content).join(', ')}`, { path: 'Content-Type' });
        return true;
      }
    }

    // The query's text: URLSearchParams is built only for an API key sent in it, or for text
    // queryObject's plain reading leaves to it.
    const query = q < 0 ? '' : url.slice(q + 1);
    const security = await checkSecurity(meta.security, definition.securitySchemes, resolved.authorize, { operationId: op.operationId, req, query });
    if (!security.ok) {
      if (security.failure === 'invalidScope') {
        await sendFailure(ex, 'invalidScope', `The access token lacks scope ${security.missingScopes?.join(', ')}`);
      } else {
        const refused = security.refused;
        if (refused !== undefined) ex.challenge = authChallenges(meta.security, schemes, { realm, refused });
        const message = refused === undefined ? missingCredentialsMessage(meta.security, schemes) : refusedCredentialMessage(schemes[refused]);
        await sendFailure(ex, security.failure === 'missingToken' ? missingCredentialFailure(meta.security, schemes) : security.failure, message);
      }
      return true;
    }

    // No handler: 501 once the caller is known to be allowed, before the body is read (so an
    // operation not implemented yet needs no verification key for its signed bodies).
    if (typeof (handlers as Record<string, unknown>)[name] !== 'function') {
      await sendFailure(ex, 'notImplemented', `${op.method.toUpperCase()} ${op.path} (${op.operationId}) is not implemented by this server`);
      return true;
    }

    let body: ReadBodyResult | undefined;
    const streamed = bodySpec && bodySent && specContentType !== undefined ? sequenceFormat(specContentType) : undefined;
    const itemSchema = streamed === undefined ? undefined : sequenceItemOf<z.ZodType>(bodySpec!.content[specContentType!]);
    if (streamed !== undefined && itemSchema !== undefined) {
      // A sequence (OpenAPI 3.2 `itemSchema`) is read as the handler iterates, not before.
      const encoding = sequenceEncodingOf(bodySpec!.content[specContentType!]);
      const items = requestItems(req, { format: streamed, itemSchema, validate: resolved.validateRequests !== false, maxItemLength: limits.bodyBytes, contentType: requestContentType, ...(encoding ? { encoding } : {}) });
      body = { body: items, signed: undefined };
    } else if (bodySpec && bodySent && specContentType !== undefined) {
      const read = await readRequestBody(req, requestContentType!, limits, resolved.verification, bodySpec.encoding?.[specContentType]);
      if ('kind' in read) {
        if (read.kind === 'bodyTooLarge' && declaredFor(op, 413) === undefined) {
          // Answer only with statuses the spec defines (413 itself, `4XX` or `default`): an
          // oversized body is a bad request elsewhere; the connection still closes, as the
          // rest of the body is never read.
          await sendError(ex, FAILURES.invalidBody.status, read.items.map((i) => ({ ...i, code: FAILURES.invalidBody.code })), { connection: 'close' });
        } else if (read.kind !== 'aborted') await sendError(ex, FAILURES[read.kind].status, read.items);
        return true;
      }
      body = read;
    }
    if (bodySpec?.required && (body === undefined || body.body === undefined)) {
      await sendFailure(ex, 'invalidBody', 'A request body is required', { path: '$' });
      return true;
    }

    const validated = validateParts(
      op,
      { pathParams: match.params, rawPathParams: match.raw, query, rawQuery: query, req, body, specContentType: body?.body === undefined ? undefined : specContentType, claimedNames: claimed.get(op) },
      resolved.validateRequests !== false,
    );
    if (!validated.ok) {
      await sendError(ex, 400, validated.items);
      return true;
    }

    const request: HandlerRequest<OperationSchemas> = {
      operationId: op.operationId,
      ...validated.parts,
      contentType: body?.body === undefined ? undefined : specContentType,
      signed: body?.signed,
      auth: security.grant,
      interactionId: ex.interactionId,
      url: absoluteUrl(req, resolved.publicUrl),
      raw: { req, res },
    };
    const handler = (handlers as Record<string, (r: unknown) => unknown>)[name]!;
    let result: unknown;
    try {
      if (resolved.checkConsent) await resolved.checkConsent({ operationId: op.operationId, permissions, grant: security.grant, request });
      else defaultConsentCheck(permissions, security.grant);
      result = await handler.call(handlers, request);
    } catch (error) {
      if (!isApiError(error)) resolved.onError!(error, { interactionId: ex.interactionId, operationId: op.operationId, phase: 'handler' });
      await sendApiError(ex, error);
      return true;
    }
    await sendResult(ex, result);
    return true;
  }

  /** The answer when the router itself failed: the declared 500 (or RFC 9457), never a throw. */
  function lastResort(req: IncomingMessage, res: ServerResponse, ex: Exchange | undefined): void {
    const exchange = ex ?? newExchange(req, res, { interactionId: interactionId(undefined), head: false, accept: undefined, echoInteractionId: false });
    const items = [{ code: FAILURES.internal.code, message: 'The server failed to handle the request' }];
    let contentType = PROBLEM_JSON;
    let payload: string;
    try {
      const answer = errorAnswer(exchange, errorPlan(exchange, 500), 500, items);
      // Serialized here, inside the guard: the application's formatError may build a body
      // JSON cannot carry (a BigInt, a cycle), and nothing may throw past this point.
      payload = JSON.stringify(answer.body);
      contentType = answer.contentType;
    } catch {
      payload = JSON.stringify(problemDetails(500, items, false));
    }
    res.statusCode = 500;
    res.setHeader('content-type', contentType);
    res.end(payload);
  }

  const router = ((req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void => {
    const slot: { ex?: Exchange } = {};
    handle(req, res, slot).then(
      (handled) => {
        if (handled) return;
        if (next) next();
        else {
          res.statusCode = 404;
          res.end();
        }
      },
      (error: unknown) => {
        resolved.onError!(error, { interactionId: slot.ex?.interactionId ?? '', operationId: slot.ex?.op?.operationId, phase: 'internal' });
        if (!res.headersSent) lastResort(req, res, slot.ex);
        else res.end();
      },
    );
  }) as ApiRouter;
  Object.defineProperty(router, 'prefix', { value: prefix, enumerable: true });
  Object.defineProperty(router, 'core', { value: routerCore(), enumerable: false });
  return router;

  /** The router for adapters: routing and the operations' pipeline, each guarded as the middleware is. */
  function routerCore(): RouterCore {
    const entries: RouterOperation[] = Object.entries(definition.operations).map(([name, op]) => ({ name, operationId: op.operationId, method: op.method.toUpperCase(), path: op.path }));
    // Each operation's template alone: a framework that routed the request has chosen it already.
    const ownPath = new Map(operations.map((op) => [op, compilePaths([op.path])]));

    function guarded(req: IncomingMessage, res: ServerResponse, run: (slot: { ex?: Exchange }) => Promise<boolean>): Promise<boolean> {
      const slot: { ex?: Exchange } = {};
      return run(slot).then(undefined, (error: unknown) => {
        resolved.onError!(error, { interactionId: slot.ex?.interactionId ?? '', operationId: slot.ex?.op?.operationId, phase: 'internal' });
        if (!res.headersSent) lastResort(req, res, slot.ex);
        else res.end();
        return true;
      });
    }

    async function handleMatched(req: IncomingMessage, res: ServerResponse, slot: { ex?: Exchange }, name: string, url: string): Promise<boolean> {
      const op = Object.hasOwn(definition.operations, name) ? definition.operations[name] : undefined;
      const method = (req.method ?? 'GET').toUpperCase();
      const q = url.indexOf('?');
      const rawPath = normalisePath(q < 0 ? url : url.slice(0, q));
      const methods = op === undefined ? undefined : byPath.get(op.path)!;
      const served = methods !== undefined && (methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined)) === op;
      const inPrefix = prefix === '' || rawPath === prefix || rawPath.startsWith(`${prefix}/`);
      const match = served && inPrefix ? matchPath(ownPath.get(op!)!, rawPath.slice(prefix.length) || '/') : undefined;
      // Not what this router would have chosen: routing decides, as for any other request.
      if (match === undefined || 'malformed' in match) return handle(req, res, slot, url);
      const ex = arrivingExchange(req, res, method, echoing.has(op!));
      slot.ex = ex;
      if (ex.echoInteractionId) res.setHeader('x-fapi-interaction-id', ex.interactionId);
      ex.op = op;
      return handleOperation(ex, op!, match, url, q);
    }

    async function answerNotFound(req: IncomingMessage, res: ServerResponse, slot: { ex?: Exchange }): Promise<boolean> {
      const ex = arrivingExchange(req, res, (req.method ?? 'GET').toUpperCase(), echoUnmatched);
      slot.ex = ex;
      if (ex.echoInteractionId) res.setHeader('x-fapi-interaction-id', ex.interactionId);
      await sendFailure(ex, 'notFound', 'No resource at this path');
      return true;
    }

    return {
      prefix,
      passUnmatched: settings.passUnmatched,
      operations: () => entries,
      handle: (req, res, url = req.url ?? '/') => guarded(req, res, (slot) => handle(req, res, slot, url)),
      handleOperation: (req, res, name, url = req.url ?? '/') => guarded(req, res, (slot) => handleMatched(req, res, slot, name, url)),
      notFound: (req, res) => guarded(req, res, (slot) => answerNotFound(req, res, slot)).then(() => undefined),
    };
  }
}

/** Without a `checkConsent` hook: a grant that lists permissions must hold one the operation accepts. */
function defaultConsentCheck(permissions: readonly string[], grant: AuthGrant | undefined): void {
  if (permissions.length === 0 || !grant?.permissions) return;
  if (permissions.some((p) => grant.permissions!.includes(p))) return;
  throw new ApiError(FAILURES.consentDenied.status, FAILURES.consentDenied.code, `The consent grants none of ${permissions.join(', ')}`);
}
