/**
 * The engine behind every generated `createClient`: it holds the configuration and turns
 * each operation of the validators into a typed method.
 */
import type { DecodedResponse } from './decode.js';
import { execute, type ClientEvent, type ExecuteEnvironment, type FetchLike } from './execute.js';
import { customerHeaders, mergeHeaders, resolveHeaderSource, type CustomerContext, type HeaderSource, type HeaderValues } from './headers.js';
import type { SignatureOptions } from './jws.js';
import { acceptHeader } from './media-types.js';
import { buildUrl, cookieHeader, encodeBody, resolveBaseUrl, type RequestParams, type RequestSigner } from './request.js';
import { resolveRetryPolicy, sleep as realSleep, type RetryPolicy } from './retry.js';
import { TokenManager, type TokenProvider, type TokenRequest } from './tokens.js';
import type { ApiInfo, OperationMeta, OperationSpec, ParamsOf, ResultOf } from './types.js';

/**
 * Options of a generated `createClient`.
 *
 * @example
 * const client = createClient({
 *   baseUrl: 'https://rs.lfi.example/open-finance/account-information/v2.2',
 *   tokens: myTokenProvider,
 *   customer: { ipAddress: '198.51.100.7' },
 * });
 */
export interface ClientOptions {
  /** Full base URL (origin and path prefix). Default: `origin` + the spec's server path. */
  baseUrl?: string;
  /** Origin (`https://host[:port]`) to put in front of the spec's server path prefix. */
  origin?: string;
  /** The fetch to use (default: the platform's). Pass one bound to an mTLS agent, a proxy, a test double. */
  fetch?: FetchLike;
  /** Where bearer tokens come from; without it no `Authorization` header is sent. */
  tokens?: TokenProvider;
  /** Refresh a token when it has less than this left (default 60 000 ms). */
  tokenRefreshMarginMs?: number;
  /** Lifetime assumed for tokens whose provider does not say (default 600 000 ms: section 5). */
  tokenLifetimeMs?: number;
  /** Keys and rules for signed (`application/jwt`) responses. */
  signatures?: SignatureOptions;
  /** Ask for the JSON form (default) or the signed form of responses. */
  prefer?: 'json' | 'signed';
  /** Validate responses with the generated validators (default true). */
  validate?: boolean;
  /** Retry bounds, or `false` for none. */
  retry?: RetryPolicy | false;
  /** Headers sent with every request, or a function returning them (called per request). */
  headers?: HeaderSource;
  /** The customer facts of section 4.1 sent with every request. */
  customer?: CustomerContext;
  /** Signs the claims of signed request bodies (attestations, signed patches). */
  signRequest?: RequestSigner;
  /** Time limit of one attempt in ms (default 30 000); a timed-out GET is retried like a network error. */
  timeoutMs?: number;
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
  validate?: boolean;
  prefer?: 'json' | 'signed';
}

type MethodArgs<Op extends OperationSpec> = {} extends ParamsOf<Op>
  ? [params?: ParamsOf<Op>, options?: CallOptions]
  : [params: ParamsOf<Op>, options?: CallOptions];

/**
 * A typed method of a generated client.
 *
 * @example
 * const { status, body } = await client.getAccountsAccountId({ path: { AccountId: 'acc-1' } });
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

/**
 * Builds the engine a generated client uses. Not usually called directly.
 *
 * @example
 * const core = createClientCore(api, { baseUrl });
 * const getAccounts = core.operation(operations.GetAccounts, { security: [{ UserOAuth2Security: ['accounts'] }] });
 */
export function createClientCore(api: ApiInfo, options: ClientOptions = {}): ClientCore {
  const baseUrl = resolveBaseUrl(api, options);
  const now = options.now ?? Date.now;
  const env: ExecuteEnvironment = {
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
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

  async function call(operation: OperationSpec, meta: OperationMeta, params: RequestParams, callOptions: CallOptions, url: string): Promise<DecodedResponse> {
    const headers = mergeHeaders(
      await resolveHeaderSource(options.headers),
      customerHeaders(options.customer),
      customerHeaders(callOptions.customer),
      params.headers as HeaderValues | undefined,
      callOptions.headers,
    );
    const cookies = cookieHeader(params.cookies);
    if (cookies !== undefined) headers['cookie'] = cookies;
    const accept = acceptHeader(successContentTypes(operation), callOptions.prefer ?? options.prefer ?? 'json');
    if (headers['accept'] === undefined && accept !== undefined) headers['accept'] = accept;
    let body: RequestInit['body'] | undefined;
    if (operation.request.body) {
      const encoded = await encodeBody(Object.keys(operation.request.body.content), params, operation.operationId, options.signRequest);
      if (encoded) {
        body = encoded.body as RequestInit['body'];
        // FormData writes its own multipart boundary into the header.
        if (!(encoded.body instanceof FormData)) headers['content-type'] = encoded.contentType;
      }
    }
    const interactionId = callOptions.interactionId ?? headers['x-fapi-interaction-id'];
    delete headers['x-fapi-interaction-id'];
    return execute(env, {
      operation,
      security: meta.security,
      url,
      headers,
      body,
      validate: callOptions.validate ?? options.validate ?? true,
      signal: callOptions.signal,
      interactionId,
    });
  }

  return {
    baseUrl,
    operation<Op extends OperationSpec>(operation: Op, meta: OperationMeta): OperationMethod<Op> {
      const method = (async (params: RequestParams = {}, callOptions: CallOptions = {}) =>
        call(operation, meta, params, callOptions, buildUrl(baseUrl, operation.path, params, operation.operationId))) as unknown as OperationMethod<Op>;
      const follow = async (url: string, callOptions: CallOptions & { params?: RequestParams } = {}) => {
        const { params, ...rest } = callOptions;
        // Only headers and cookies carry over to a link: its URL already holds path and query.
        const carried: RequestParams = {};
        if (params?.headers) carried.headers = params.headers;
        if (params?.cookies) carried.cookies = params.cookies;
        return call(operation, meta, carried, rest, new URL(url, `${baseUrl}/`).href);
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
