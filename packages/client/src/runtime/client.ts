/**
 * The engine behind every generated `createClient`: it holds the configuration and turns
 * each operation of the validators into a typed method.
 */
import { declaresHeader, isJwtType } from '@bank-data-sharing/wire';
import { withinCallLimits } from './call-limits.js';
import { securityPlanner, withCookieCredentials, withQueryCredentials, type Credentials, type CredentialsFor, type SecurityPlan, type SecuritySchemeInfo } from './credentials.js';
import type { DecodedResponse } from './decode.js';
import { execute, type ClientEvent, type ExecuteEnvironment, type PreparedRequest } from './execute.js';
import { customerHeaders, mergeHeaders, resolveHeaderSource, withoutTransportHeaders, type CustomerContext, type HeaderSource, type HeaderValues } from './headers.js';
import type { SignatureOptions } from './jws.js';
import { acceptHeader } from './media-types.js';
import { buildUrl, cookieHeader, headerParameters, resolveBaseUrl, type RequestParams } from './request.js';
import { encodeBody, type RequestSigner } from './request-body.js';
import type { StreamedRequestBody } from './request-stream.js';
import { resolveResume, type ResolvedResume, type ResumeOptions } from './resume.js';
import { resolveRetryPolicy, sleep as realSleep, type RetryPolicy } from './retry.js';
import { TokenManager, type TokenProvider, type TokenRequest } from './tokens.js';
import { fetchTransport, undiciTransport, type DispatcherLike, type FetchLike, type HttpBody } from './transport.js';
import type { ApiInfo, OperationMeta, OperationSpec, ParamsOf, ResultOf, SecurityRequirements } from './types.js';

/** The security schemes of an API, by name (a generated client passes its spec's). */
export type SecuritySchemes = Readonly<Record<string, SecuritySchemeInfo>>;

/**
 * Options of a generated `createClient`. `Schemes` types `credentials` by the spec's scheme names.
 *
 * @example
 * const client = createClient({
 *   baseUrl: 'https://rs.lfi.example/open-finance/account-information/v2.2',
 *   tokens: myTokenProvider,
 *   customer: { ipAddress: '198.51.100.7' },
 * });
 */
export interface ClientOptions<Schemes = SecuritySchemes> {
  /** Full base URL (origin and path prefix). Default: `origin` + the spec's server path. */
  baseUrl?: string;
  /** Origin (`https://host[:port]`) to put in front of the spec's server path prefix. */
  origin?: string;
  /**
   * Send through this `fetch` instead of the built-in transport (undici's `request` API, which
   * costs about half the CPU per request of the platform's `fetch`): a test double, a proxy,
   * a runtime without undici. For mTLS, prefer `dispatcher`.
   */
  fetch?: FetchLike;
  /**
   * The undici dispatcher the built-in transport sends through (default: one connection pool
   * shared by the process). An `Agent` with the transport certificate for mTLS, a `ProxyAgent`,
   * a `MockAgent` in tests. Not used when `fetch` is given.
   *
   * @example
   * const mtls = new Agent({ connect: { cert, key } }); // import { Agent } from 'undici'
   * const client = createClient({ baseUrl, dispatcher: mtls, tokens });
   */
  dispatcher?: DispatcherLike;
  /** Where bearer tokens come from (`oauth2`, `openIdConnect` and `http` bearer schemes without a `credentials` entry). */
  tokens?: TokenProvider;
  /**
   * Credentials by security scheme name: API keys and tokens as strings, `http` basic as
   * `{ username, password }`, each a value or a function called per call. Each call sends the
   * first alternative of the operation's `security` whose every credential is held (or
   * none, where `{}` allows it). With `credentials` or `tokens` given, a call no alternative
   * can be satisfied for fails with `RequestError` before sending; with neither, calls go
   * out without credentials and the server answers.
   *
   * @example
   * createClient({ credentials: { apiKey_header: process.env.API_KEY!, basic: { username: 'u', password: 'p' } } });
   */
  credentials?: CredentialsFor<Schemes>;
  /** Refresh a token when it has less than this left (default 60 000 ms). */
  tokenRefreshMarginMs?: number;
  /** Lifetime assumed for tokens whose provider does not say (default 600 000 ms: section 5). */
  tokenLifetimeMs?: number;
  /** Keys and rules for signed (`application/jwt`) responses. */
  signatures?: SignatureOptions;
  /**
   * Ask for the JSON form (default) or the signed form of responses. With `'signed'` and
   * `signatures`, an unsigned 2xx answer is refused unless `signatures.required` is false.
   */
  prefer?: 'json' | 'signed';
  /**
   * Validate with the generated validators (default true): JSON request bodies and streamed
   * items before they are sent, responses as they arrive.
   */
  validate?: boolean;
  /** Retry bounds, or `false` for none. */
  retry?: RetryPolicy | false;
  /** Headers sent with every request, or a function returning them (called per request). */
  headers?: HeaderSource;
  /** The customer facts of section 4.1 sent with every request. */
  customer?: CustomerContext;
  /** Signs the claims of signed request bodies (attestations, signed patches). */
  signRequest?: RequestSigner;
  /**
   * Time limit of one attempt in ms (default 30 000): getting the token, the answer and its
   * body. A GET whose answer or body times out is retried like a network error; a token
   * provider that gives nothing in time fails the call with `TokenError`, a `credentials`
   * function with `RequestError`. For a streamed body (a declared sequence: Server-Sent
   * Events, JSON Lines, JSON text sequences) the limit ends when the headers have arrived: the
   * items may take as long as they take (bound them with the call's `signal`). A request body
   * streamed from items is sent within it.
   */
  timeoutMs?: number;
  /**
   * The largest answer body the client reads whole, in bytes, as sent and once decompressed
   * (default 32 MiB). A larger one fails the call with `ResponseTooLargeError`, without a
   * retry; a declared `Content-Length` over it fails before the body is read. Streamed bodies
   * (declared sequences) are read item by item, each item bounded by its format's reader.
   */
  maxResponseBytes?: number;
  /**
   * Resume an event stream (`text/event-stream`) that breaks off: send the request again with
   * `Last-Event-ID` and go on yielding from the new answer (default: off, the break fails the
   * iteration with `NetworkError`). `true` for the default bounds. A clean end is never resumed.
   */
  resume?: ResumeOptions | boolean;
  /**
   * `x-fapi-interaction-id` on requests (and its echo required on answers): by default only
   * for operations whose spec declares it (a request header parameter or a response header),
   * or a call that gives one; `true` for every call, `false` for none but those that give one.
   */
  fapiInteractionId?: boolean;
  /** Observes requests, responses and retries. */
  onEvent?: (event: ClientEvent) => void;
  /** Observes token requests (initial, expiring, rejected). */
  onTokenRequest?: (request: TokenRequest) => void;
  /** Clock, in epoch ms (tests inject one). */
  now?: () => number;
  /** How to wait (tests inject one that does not). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Source of jitter in [0, 1). */
  random?: () => number;
}

/** Per-call options: the second argument of every method. */
export interface CallOptions {
  signal?: AbortSignal;
  /** `x-fapi-interaction-id` to send (default: a new RFC 4122 UUID per request). */
  interactionId?: string;
  /** Extra headers for this call. */
  headers?: HeaderValues;
  /** Customer facts for this call (override the client's). */
  customer?: CustomerContext;
  /** `validate` for this call (overrides the client's). */
  validate?: boolean;
  prefer?: 'json' | 'signed';
  /** Resume an event stream that breaks off, for this call (overrides the client's `resume`). */
  resume?: ResumeOptions | boolean;
}

type MethodArgs<Op extends OperationSpec> = {} extends ParamsOf<Op>
  ? [params?: ParamsOf<Op>, options?: CallOptions]
  : [params: ParamsOf<Op>, options?: CallOptions];

/**
 * A typed method of a generated client.
 *
 * @example
 * const { status, body } = await client.GetAccountsAccountId({ path: { AccountId: 'acc-1' } });
 */
export interface OperationMethod<Op extends OperationSpec> {
  (...args: MethodArgs<Op>): Promise<ResultOf<Op>>;
  /** The operation's validators. */
  readonly operation: Op;
  /** The client's base URL (links are checked against its origin). */
  readonly baseUrl: string;
  /**
   * Fetches an opaque link (e.g. `Links.Next`) as a call of this operation: same headers,
   * token and validation, no parameters of its own.
   */
  follow(url: string, options?: CallOptions & { params?: RequestParams }): Promise<ResultOf<Op>>;
}

export interface ClientCore {
  readonly baseUrl: string;
  operation<Op extends OperationSpec>(operation: Op, meta: OperationMeta): OperationMethod<Op>;
}

function successContentTypes(operation: OperationSpec): string[] {
  return Object.entries(operation.responses)
    .filter(([status]) => status.startsWith('2'))
    .flatMap(([, response]) => Object.keys(response.content));
}

/** What a call needs to know about its operation's answers, worked out once per operation. */
interface OperationFacts {
  operationId: string;
  /** Parameters written in their own style (`@bank-data-sharing/wire`'s parameter-serialize.ts). */
  wire: OperationSpec['request']['parameters'];
  /** `Accept` by preference. */
  accept: { json: string | undefined; signed: string | undefined };
  /** A success answer may come signed (some 2xx documents `application/jwt`). */
  hasSignedForm: boolean;
  /** The spec declares `x-fapi-interaction-id` for this operation (or the client option says so). */
  interactionId: boolean;
}

function operationFacts(operation: OperationSpec, interactionIdOption: boolean | undefined): OperationFacts {
  const types = successContentTypes(operation);
  return {
    operationId: operation.operationId,
    wire: operation.request.parameters,
    accept: { json: acceptHeader(types, 'json'), signed: acceptHeader(types, 'signed') },
    hasSignedForm: types.some(isJwtType),
    interactionId: interactionIdOption ?? declaresHeader(operation, 'x-fapi-interaction-id'),
  };
}

/**
 * Builds the engine a generated client uses. Not usually called directly.
 *
 * @example
 * const core = createClientCore(api, { baseUrl });
 * const getAccounts = core.operation(operations.GetAccounts, { security: [{ UserOAuth2Security: ['accounts'] }] });
 */
export function createClientCore<Schemes extends SecuritySchemes = SecuritySchemes>(
  api: ApiInfo,
  options: ClientOptions<Schemes> = {},
  securitySchemes: Schemes = {} as Schemes,
): ClientCore {
  const baseUrl = resolveBaseUrl(api, options);
  // Without credentials or tokens, calls go out as built (the server decides), as before either existed.
  const planner =
    options.credentials !== undefined || options.tokens !== undefined
      ? securityPlanner(securitySchemes, options.credentials as Credentials | undefined, options.tokens !== undefined)
      : undefined;
  const now = options.now ?? Date.now;
  const env: ExecuteEnvironment = {
    transport: options.fetch
      ? fetchTransport(options.fetch, { maxResponseBytes: options.maxResponseBytes })
      : undiciTransport({ dispatcher: options.dispatcher, fallback: (input, init) => fetch(input, init), maxResponseBytes: options.maxResponseBytes }),
    tokens: options.tokens
      ? new TokenManager(options.tokens, {
          now,
          ...(options.tokenRefreshMarginMs !== undefined ? { refreshMarginMs: options.tokenRefreshMarginMs } : {}),
          ...(options.tokenLifetimeMs !== undefined ? { defaultLifetimeMs: options.tokenLifetimeMs } : {}),
          ...(options.onTokenRequest ? { onRefresh: options.onTokenRequest } : {}),
        })
      : undefined,
    signatures: options.signatures,
    retry: resolveRetryPolicy(options.retry),
    now,
    sleep: options.sleep ?? realSleep,
    random: options.random ?? Math.random,
    timeoutMs: options.timeoutMs ?? 30_000,
    onEvent: options.onEvent,
  };

  const resume = resolveResume(options.resume);

  // Unsigned answers are refused where signed ones were asked for, unless the caller opts out.
  const signaturesRequired = options.signatures !== undefined && options.signatures.required !== false;

  function validates(callOptions: CallOptions): boolean {
    return callOptions.validate ?? options.validate ?? true;
  }

  function resumeOf(callOptions: CallOptions): ResolvedResume | undefined {
    return callOptions.resume === undefined ? resume : resolveResume(callOptions.resume);
  }

  /** Headers of one call (without the body's), and whether the signed form is asked for. */
  function callHeaders(facts: OperationFacts, defaults: HeaderValues | undefined, params: RequestParams, callOptions: CallOptions): { headers: Record<string, string>; signed: boolean } {
    const headers = mergeHeaders(
      defaults,
      options.customer ? customerHeaders(options.customer) : undefined,
      callOptions.customer ? customerHeaders(callOptions.customer) : undefined,
      headerParameters(params.headers, facts.wire, facts.operationId) as HeaderValues | undefined,
      callOptions.headers,
    );
    withoutTransportHeaders(headers);
    const cookies = cookieHeader(params.cookies, facts.wire, facts.operationId);
    if (cookies !== undefined) headers['cookie'] = cookies;
    const callerAccept = headers['accept'];
    // Asked for the signed form: by preference, unless an Accept of the caller's says otherwise.
    const signed = (callOptions.prefer ?? options.prefer) === 'signed' && (callerAccept === undefined || isJwtType(callerAccept));
    const accept = signed ? facts.accept.signed : facts.accept.json;
    if (callerAccept === undefined && accept !== undefined) headers['accept'] = accept;
    return { headers, signed };
  }

  function prepared(
    operation: OperationSpec,
    security: SecurityRequirements,
    facts: OperationFacts,
    callOptions: CallOptions,
    url: string,
    headers: Record<string, string>,
    signed: boolean,
    body: PreparedRequest['body'],
  ): PreparedRequest {
    const interactionId = callOptions.interactionId ?? headers['x-fapi-interaction-id'];
    if (headers['x-fapi-interaction-id'] !== undefined) delete headers['x-fapi-interaction-id'];
    return {
      operation,
      security,
      url,
      headers,
      body,
      validate: validates(callOptions),
      resume: resumeOf(callOptions),
      signal: callOptions.signal,
      interactionId,
      sendInteractionId: facts.interactionId || interactionId !== undefined,
      requireSignature: signed && signaturesRequired && facts.hasSignedForm,
    };
  }

  /**
   * Puts the chosen alternative's credentials on the request; returns the URL (query keys
   * added) and the requirement the executor asks the `tokens` provider for.
   */
  function withCredentials(plan: SecurityPlan | undefined, meta: OperationMeta, url: string, headers: Record<string, string>): { url: string; security: SecurityRequirements } {
    if (!plan) return { url, security: meta.security };
    const { placement } = plan;
    Object.assign(headers, placement.headers);
    const cookie = withCookieCredentials(headers['cookie'], placement.cookies);
    if (cookie !== undefined) headers['cookie'] = cookie;
    return { url: withQueryCredentials(url, placement.query), security: plan.tokenSecurity };
  }

  /** A call with something to wait for before sending: credentials from functions, a header function, or a body to encode (and maybe sign). */
  async function callAfterWaiting(
    operation: OperationSpec,
    meta: OperationMeta,
    facts: OperationFacts,
    params: RequestParams,
    callOptions: CallOptions,
    url: string,
    planOf: () => SecurityPlan | Promise<SecurityPlan> | undefined,
  ): Promise<DecodedResponse> {
    // The body first: one it refuses (or cannot encode) costs no credential or header function.
    const request = operation.request.body;
    const encoded = request ? await encodeBody(Object.keys(request.content), params, operation.operationId, options.signRequest, request.encoding, request.content, validates(callOptions)) : undefined;
    const plan = planOf();
    const chosen =
      plan instanceof Promise
        ? await withinCallLimits(plan, callOptions.signal, env.timeoutMs, `${operation.operationId}: a credential function gave no value within ${env.timeoutMs} ms (timeoutMs)`)
        : plan;
    const { headers, signed } = callHeaders(facts, await resolveHeaderSource(options.headers), params, callOptions);
    let body: PreparedRequest['body'];
    if (encoded) {
      body = encoded.body as HttpBody | StreamedRequestBody;
      // FormData writes its own multipart boundary into the header.
      if (!(encoded.body instanceof FormData)) headers['content-type'] = encoded.contentType;
    }
    const sent = withCredentials(chosen, meta, url, headers);
    return await execute(env, prepared(operation, sent.security, facts, callOptions, sent.url, headers, signed, body));
  }

  /** One call. Never throws: every failure is a rejection, as from an async function. */
  function call(operation: OperationSpec, meta: OperationMeta, facts: OperationFacts, params: RequestParams, callOptions: CallOptions, url: string): Promise<DecodedResponse> {
    // Credentials are planned once the body is encoded (and checked), never for a body refused.
    if (operation.request.body) return callAfterWaiting(operation, meta, facts, params, callOptions, url, () => planner?.plan(meta.security, operation.operationId));
    let plan: SecurityPlan | Promise<SecurityPlan> | undefined;
    try {
      plan = planner?.plan(meta.security, operation.operationId);
    } catch (error) {
      return Promise.reject(error);
    }
    if (plan instanceof Promise || typeof options.headers === 'function') {
      return callAfterWaiting(operation, meta, facts, params, callOptions, url, () => plan);
    }
    // Nothing to wait for: straight to the executor, without an extra asynchronous step.
    try {
      const { headers, signed } = callHeaders(facts, options.headers, params, callOptions);
      const sent = withCredentials(plan, meta, url, headers);
      return execute(env, prepared(operation, sent.security, facts, callOptions, sent.url, headers, signed, undefined));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  return {
    baseUrl,
    operation<Op extends OperationSpec>(operation: Op, meta: OperationMeta): OperationMethod<Op> {
      const facts = operationFacts(operation, options.fapiInteractionId);
      const method = ((params: RequestParams = {}, callOptions: CallOptions = {}) => {
        let url: string;
        try {
          url = buildUrl(baseUrl, operation.path, params, operation.operationId, operation.request.parameters);
        } catch (error) {
          return Promise.reject(error);
        }
        return call(operation, meta, facts, params, callOptions, url);
      }) as unknown as OperationMethod<Op>;
      const follow = (url: string, callOptions: CallOptions & { params?: RequestParams } = {}) => {
        const { params, ...rest } = callOptions;
        // Only headers and cookies carry over to a link: its URL already holds path and query.
        const carried: RequestParams = {};
        if (params?.headers) carried.headers = params.headers;
        if (params?.cookies) carried.cookies = params.cookies;
        let resolved: string;
        try {
          resolved = new URL(url, `${baseUrl}/`).href;
        } catch (error) {
          return Promise.reject(error);
        }
        return call(operation, meta, facts, carried, rest, resolved);
      };
      Object.defineProperties(method, {
        operation: { value: operation, enumerable: true },
        baseUrl: { value: baseUrl, enumerable: true },
        follow: { value: follow, enumerable: true },
      });
      return method;
    },
  };
}
