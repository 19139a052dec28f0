/**
 * MSW request handlers of an API's operations: each validates the request as the server
 * stubs do (path, query, headers, cookies and body, by `@bank-data-sharing/wire`), answers a
 * bad one with the error body the spec declares for its status, and a good one with the mock
 * of the operation (status, declared headers, media type and body). Runs wherever MSW runs:
 * `setupServer` in Node, `setupWorker` in a browser (no Node APIs here).
 */
import { http, HttpResponse, type HttpHandler } from 'msw';
import {
  acceptedContentType,
  authChallenges,
  BodyFormatError,
  bodyKind,
  claimedNames,
  commonResponses,
  cookieParts,
  credentialNames,
  decodeBody,
  decodeForm,
  DEFAULT_MAX_DEPTH,
  errorAnswer,
  errorPlan,
  FAILURES,
  FormFieldError,
  declaredFor,
  jsonPath,
  missingCredentialFailure,
  missingCredentialsMessage,
  objectMembers,
  UnsafeInputError,
  validateRequestParts,
  type DeclaredNames,
  type ErrorItem,
  type FormEncodings,
  type FormEntry,
  type OperationResponses,
  type ParameterWire,
  type ResponseSchemas,
} from '@bank-data-sharing/wire';
import type { z } from 'zod';
import { pathPattern } from './msw-path.js';
import { MockError, type ContentTypeOf, type MockOptions, type Mocks, type OperationSchemasLike, type StatusKey } from './mock.js';

/** How a security scheme carries its credential. */
export interface MswSecurityScheme {
  /** `http`, `apiKey`, `oauth2`, `openIdConnect` or `mutualTLS`. */
  readonly type: string;
  /** For `http`: `bearer`, `basic`, ... */
  readonly scheme?: string;
  /** For `apiKey`: `header`, `query` or `cookie`. */
  readonly in?: string;
  /** For `apiKey`: the header, query or cookie name. */
  readonly name?: string;
}

/** One security requirement: scheme name to the scopes it needs. */
export type MswSecurityRequirement = { readonly [scheme: string]: readonly string[] };

/** The validators' description of an operation, as far as the handlers read it. */
export interface MswOperation extends OperationSchemasLike {
  readonly method: string;
  readonly path: string;
  readonly request: {
    readonly path?: z.ZodType;
    readonly query?: z.ZodType;
    readonly headers?: z.ZodType;
    readonly cookies?: z.ZodType;
    readonly body?: undefined | { readonly required: boolean; readonly content: { readonly [contentType: string]: z.ZodType }; readonly encoding?: FormEncodings };
    readonly parameters?: readonly ParameterWire[];
  };
}

/** What the generated `msw.ts` hands over: the validators, the mocks and what the spec says of security. */
export interface MswApi<Ops extends { readonly [name: string]: MswOperation }> {
  readonly operations: Ops;
  readonly mocks: Mocks<Ops>;
  /** The path prefix of the API's first server (`/open-finance/account-information/v2.2`). */
  readonly pathPrefix: string;
  /** Per operation: its security requirements (alternatives; `{}` makes it optional). */
  readonly security: { readonly [K in keyof Ops]?: readonly MswSecurityRequirement[] };
  readonly securitySchemes: { readonly [name: string]: MswSecurityScheme };
  /** The `realm` of a 401's `Basic` (and API key) challenge: the spec's `info.title`. */
  readonly realm?: string;
}

/** The mock options of an operation: status, media type, seed, example, overrides, ... */
export type MswMockOptions<Op extends OperationSchemasLike, S extends StatusKey<Op> = StatusKey<Op>, C extends ContentTypeOf<Op, S> = never> = MockOptions<Op, S, C>;

/** A handler of one operation, answering with its mock made with `options`. */
export type MswHandlerFactory<Op extends OperationSchemasLike> = <S extends StatusKey<Op> = StatusKey<Op>, C extends ContentTypeOf<Op, S> = never>(
  options?: MswMockOptions<Op, S, C>,
) => HttpHandler;

export interface CreateHandlersOptions {
  /**
   * Where the API is served, prefix included (`https://bank.example/open-finance/account-information/v2.2`).
   * Default: the spec's path prefix on any origin.
   */
  baseUrl?: string;
  /** Validate requests (default true); false answers every request with its mock. */
  validateRequests?: boolean;
  /** Told when a mock cannot be made or a declared error body cannot be built (default: `console.error`). */
  onError?: (error: unknown, context: { operationId: string }) => void;
}

export interface MswHandlers<Ops extends { readonly [name: string]: MswOperation }> {
  /** One handler per operation, the more literal paths first. */
  readonly handlers: HttpHandler[];
  /** Per operation: a handler answering with the mock made with the given options (for `server.use`). */
  readonly mswHandlers: { readonly [K in keyof Ops]: MswHandlerFactory<Ops[K]> };
}

interface Prepared {
  readonly name: string;
  readonly op: MswOperation;
  readonly url: string;
  /** The parameters of a path (still percent-encoded), in template order; undefined when it does not match. */
  readonly match: (pathname: string) => string[] | undefined;
  readonly params: readonly string[];
  readonly claimed: DeclaredNames;
  readonly security: readonly MswSecurityRequirement[];
  /** `WWW-Authenticate` of this operation's 401s: the challenges of the schemes it accepts. */
  readonly challenge: string | undefined;
}

class Refusal {
  constructor(
    readonly status: number,
    readonly items: readonly ErrorItem[],
  ) {}
}

/** The path a handler matches, in MSW's syntax: `{x}` becomes `:x`. */
function mswPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => `:${name.replace(/[^A-Za-z0-9_]/g, '_')}`);
}

function trimSlash(text: string): string {
  return text.endsWith('/') ? text.slice(0, -1) : text;
}

/** Literal paths before templated ones, so that `/pets/mine` is not taken by `/pets/{id}`. */
function specificity(template: string): number {
  return (template.match(/\{/g) ?? []).length;
}

function headerMap(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

/** Whether the request carries a credential for every scheme of one of the requirements (any value will do). */
function hasCredentials(requirements: readonly MswSecurityRequirement[], schemes: MswApi<never>['securitySchemes'], headers: Record<string, string>, url: URL): boolean {
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return true;
  return requirements.some((requirement) =>
    Object.keys(requirement).every((name) => {
      const scheme = schemes[name] ?? { type: 'http', scheme: 'bearer' };
      if (scheme.type === 'mutualTLS') return true;
      if (scheme.type === 'apiKey') {
        const key = scheme.name ?? '';
        if (scheme.in === 'query') return url.searchParams.has(key);
        if (scheme.in === 'cookie') return cookieParts(headers.cookie ?? '').some(([name]) => name === key);
        return headers[key.toLowerCase()] !== undefined;
      }
      const expected = scheme.type === 'http' ? (scheme.scheme ?? 'bearer') : 'bearer';
      const match = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+) +(\S+) *$/.exec(headers.authorization ?? '');
      return match !== null && match[1]!.toLowerCase() === expected.toLowerCase();
    }),
  );
}

/** The decoded body of a request whose media type the operation accepts. */
async function readBody(request: Request, contentType: string, encoding: FormEncodings | undefined, specType: string): Promise<unknown> {
  const layout = encoding?.[specType];
  if (bodyKind(contentType) === 'multipart') {
    const form = await request.formData();
    const entries: FormEntry[] = [];
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') entries.push([name, value]);
      else {
        const bytes = new Uint8Array(await value.arrayBuffer());
        entries.push([name, { bytes, contentType: value.type || 'application/octet-stream', size: bytes.length, ...(value.name ? { filename: value.name } : {}) }]);
      }
    }
    return decodeForm(entries, layout, { multipart: true, maxDepth: DEFAULT_MAX_DEPTH });
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  return bytes.length === 0 ? undefined : decodeBody(bytes, contentType, DEFAULT_MAX_DEPTH, layout);
}

function refuse(kind: keyof typeof FAILURES, message: string, path?: string): Refusal {
  return new Refusal(FAILURES[kind].status, [{ code: FAILURES[kind].code, message, ...(path !== undefined ? { path } : {}) }]);
}

/** Checks the request: undefined when it is good, else the refusal to answer with. */
async function checkRequest(prepared: Prepared, request: Request, schemes: MswApi<never>['securitySchemes'], validate: boolean): Promise<Refusal | undefined> {
  const { op } = prepared;
  const url = new URL(request.url);
  const headers = headerMap(request.headers);
  if (!hasCredentials(prepared.security, schemes, headers, url)) return refuse(missingCredentialFailure(prepared.security, schemes), missingCredentialsMessage(prepared.security, schemes));

  const bodySpec = op.request.body;
  const contentType = headers['content-type'];
  const sent = request.body !== null && (contentType !== undefined || headers['content-length'] !== '0');
  let specType: string | undefined;
  let body: unknown;
  if (bodySpec && sent) {
    const types = Object.keys(bodySpec.content);
    specType = contentType ? acceptedContentType(contentType, types) : undefined;
    if (specType === undefined) {
      const bytes = await request.clone().arrayBuffer();
      if (bytes.byteLength > 0) {
        const kind = op.responses['415'] ? 'unsupportedMediaType' : 'unsupportedMediaTypeAs400';
        return refuse(kind, `Content-Type ${contentType ?? '(none)'} is not accepted; use ${types.join(', ')}`, 'Content-Type');
      }
    } else {
      try {
        body = await readBody(request, contentType!, bodySpec.encoding, specType);
      } catch (error) {
        if (error instanceof BodyFormatError) return refuse('invalidBody', `body: ${error.message}`, error.path ?? '$');
        if (error instanceof FormFieldError) return refuse('invalidBody', `body: ${error.message}`, error.field === undefined ? '$' : jsonPath([error.field]));
        if (error instanceof UnsafeInputError) return refuse('invalidBody', `body: ${error.message}`, '$');
        if (error instanceof TypeError) return refuse('invalidBody', `body: ${error.message}`, '$');
        throw error;
      }
    }
  }
  if (bodySpec?.required && body === undefined) return refuse('invalidBody', 'A request body is required', '$');

  const values = prepared.match(url.pathname);
  const rawPathParams: Record<string, string> = {};
  const pathParams: Record<string, string> = {};
  for (const [i, name] of prepared.params.entries()) {
    const raw = values?.[i] ?? '';
    rawPathParams[name] = raw;
    try {
      pathParams[name] = decodeURIComponent(raw);
    } catch {
      return refuse('invalidParameter', 'path parameter is not valid percent-encoding', name);
    }
  }
  // Signed (JWT) and binary bodies are taken as they come: a mock verifies no signature.
  const kind = specType === undefined ? undefined : bodyKind(specType);
  const bodySchema = specType === undefined || kind === 'jwt' || kind === 'binary' ? undefined : bodySpec?.content[specType];
  const result = validateRequestParts(
    op,
    { pathParams, rawPathParams, query: url.searchParams, rawQuery: url.search.slice(1), headers, body, bodySchema, claimedNames: prepared.claimed },
    validate,
  );
  return result.ok ? undefined : new Refusal(400, result.items);
}

const INTERACTION_ID = 'x-fapi-interaction-id';

/** The request's interaction id, echoed where the answer's status declares the header (as the server does). */
function echoInteractionId(headers: Headers, declared: ResponseSchemas | undefined, request: Request): void {
  const sent = request.headers.get(INTERACTION_ID);
  if (sent === null || declared === undefined) return;
  const names = Object.keys(objectMembers(declared.headers) ?? {}).map((n) => n.toLowerCase());
  if (names.includes(INTERACTION_ID)) headers.set(INTERACTION_ID, sent);
}

/** A 401 says which credentials the operation accepts, as the server's does (RFC 9110 §11.6.1). */
function challenge(headers: Headers, status: number, prepared: Prepared): void {
  if (status === 401 && !headers.has('www-authenticate')) headers.set('www-authenticate', prepared.challenge ?? 'Bearer');
}

function errorResponse(prepared: Prepared, apiResponses: ReadonlyMap<string, ResponseSchemas>, refusal: Refusal, request: Request, report: (error: unknown) => void, reported: Set<z.ZodType>): Response {
  const { op } = prepared;
  const responses = op as unknown as OperationResponses;
  const plan = errorPlan(responses, apiResponses, refusal.status);
  const headers = new Headers();
  echoInteractionId(headers, declaredFor(responses, refusal.status), request);
  challenge(headers, refusal.status, prepared);
  if (plan.kind === 'empty') return new HttpResponse(null, { status: refusal.status, headers });
  const answer = errorAnswer(plan, refusal.status, refusal.items, { operationId: op.operationId, validate: true, report, reported });
  headers.set('content-type', answer.contentType);
  return new HttpResponse(JSON.stringify(answer.body), { status: refusal.status, headers });
}

interface MockAnswer {
  status: number;
  statusKey: string;
  contentType: string | undefined;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** A mock's answer as a Response: its status, declared headers, media type and body. */
function mockResponse(prepared: Prepared, result: MockAnswer, request: Request): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(result.headers)) if (value !== undefined) headers.set(name, value);
  echoInteractionId(headers, (prepared.op as unknown as OperationResponses).responses[result.statusKey], request);
  challenge(headers, result.status, prepared);
  // 204, 205 and 304 carry no body; nor does a HEAD answer (MSW drops it).
  if (result.contentType === undefined || result.body === undefined || [204, 205, 304].includes(result.status)) return new HttpResponse(null, { status: result.status, headers });
  headers.set('content-type', result.contentType);
  const kind = bodyKind(result.contentType);
  const text = kind === 'json' ? JSON.stringify(result.body) : result.body instanceof Uint8Array ? result.body : String(result.body);
  return new HttpResponse(text as BodyInit, { status: result.status, headers });
}

/**
 * The MSW handlers of every operation of an API and, per operation, a factory of a handler
 * answering with the mock made with given options.
 *
 * @example
 * const { handlers, mswHandlers } = createMswHandlers(api, { baseUrl: 'https://bank.example/v1' });
 * server.use(mswHandlers.GetAccounts({ status: '403' }));
 */
export function createMswHandlers<Ops extends { readonly [name: string]: MswOperation }>(api: MswApi<Ops>, options: CreateHandlersOptions = {}): MswHandlers<Ops> {
  const base = options.baseUrl !== undefined ? trimSlash(options.baseUrl) : `*${trimSlash(api.pathPrefix)}`;
  const validate = options.validateRequests !== false;
  const onError = options.onError ?? ((error: unknown, context: { operationId: string }) => console.error(`[msw] ${context.operationId}:`, error));
  const operations = api.operations as { readonly [name: string]: MswOperation };
  const apiResponses = commonResponses(Object.values(operations) as unknown as OperationResponses[]);
  const credentials = credentialNames(api.securitySchemes);
  const reported = new Set<z.ZodType>();
  const mocks = api.mocks as unknown as { readonly [name: string]: (options?: unknown) => MockAnswer };
  const security = api.security as { readonly [name: string]: readonly MswSecurityRequirement[] | undefined };

  const prepared = new Map<string, Prepared>();
  for (const [name, op] of Object.entries(operations)) {
    const { match, params } = pathPattern(op.path);
    const requirements = security[name] ?? [];
    const challenge = requirements.length === 0 ? undefined : authChallenges(requirements, api.securitySchemes, { realm: api.realm ?? trimSlash(api.pathPrefix) });
    prepared.set(name, { name, op, url: `${base}${mswPath(op.path)}`, match, params, claimed: claimedNames(op, credentials), security: requirements, challenge });
  }

  const handlerOf = (name: string, mockOptions: unknown): HttpHandler => {
    const entry = prepared.get(name)!;
    const method = entry.op.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
    const route = (http as unknown as Record<string, typeof http.get>)[method] ?? http.all;
    return route(entry.url, async ({ request }) => {
      const report = (error: unknown) => onError(error, { operationId: entry.op.operationId });
      try {
        const refusal = await checkRequest(entry, request, api.securitySchemes, validate);
        if (refusal) return errorResponse(entry, apiResponses, refusal, request, report, reported);
        return mockResponse(entry, mocks[name]!(mockOptions), request);
      } catch (error) {
        report(error);
        const message = error instanceof MockError ? error.message : 'The mock could not answer';
        return errorResponse(entry, apiResponses, refuse('internal', message), request, report, reported);
      }
    });
  };

  const names = [...prepared.keys()].sort((a, b) => specificity(prepared.get(a)!.op.path) - specificity(prepared.get(b)!.op.path));
  const mswHandlers = Object.fromEntries([...prepared.keys()].map((name) => [name, (mockOptions?: unknown) => handlerOf(name, mockOptions)]));
  return { handlers: names.map((name) => handlerOf(name, undefined)), mswHandlers: mswHandlers as MswHandlers<Ops>['mswHandlers'] };
}
