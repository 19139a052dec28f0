/**
 * Talking to an OAuth 2 authorization server: one request (a form POST, RFC 6749 §3.2, or a
 * GET of metadata) and its JSON answer, with every failure an `OAuthError` that names the
 * endpoint and, when the server gave one, its OAuth error code (§5.2).
 */
import { attemptLimit } from './call-limits.js';
import { describeFailure, TokenError } from './errors.js';
import { answerOfResponse, type FetchLike } from './transport.js';

/**
 * An authorization server refused a request or gave an unusable answer. A `TokenError`, so
 * code that branches on the client's errors keeps working; `oauthError` says why.
 */
export class OAuthError extends TokenError {
  /** The endpoint asked. */
  readonly endpoint: string;
  /** The OAuth `error` code (`access_denied`, `expired_token`, `invalid_grant`...), when there is one. */
  readonly oauthError: string | undefined;
  /** HTTP status of the answer; undefined when none came. */
  readonly status: number | undefined;

  constructor(init: { endpoint: string; message: string; oauthError?: string | undefined; status?: number | undefined; cause?: unknown }) {
    super(init.message, init.cause !== undefined ? { cause: init.cause } : undefined);
    this.endpoint = init.endpoint;
    this.oauthError = init.oauthError;
    this.status = init.status;
  }
}

export interface EndpointOptions {
  fetch?: FetchLike | undefined;
  /** Ends the request (rejecting with the signal's reason). */
  signal?: AbortSignal | undefined;
  /** Time limit of one request, answer and body (default 30 000 ms; 0 or not finite: none). */
  timeoutMs?: number | undefined;
}

/** A JSON object the server answered with, and the status it came with. */
export interface EndpointAnswer {
  status: number;
  body: Record<string, unknown>;
}

const DEFAULT_ENDPOINT_TIMEOUT_MS = 30_000;

/**
 * Sends one request and reads its answer as a JSON object, whatever the status (error
 * answers are JSON too). The caller's abort rejects with its reason, unwrapped.
 */
export async function requestJson(url: string, init: { method: 'GET' | 'POST'; form?: Record<string, string> }, what: string, options: EndpointOptions): Promise<EndpointAnswer> {
  const outer = options.signal;
  if (outer?.aborted) throw outer.reason;
  const timeoutMs = options.timeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
  const limit = attemptLimit(outer, timeoutMs);
  try {
    const fetchFn = options.fetch ?? ((input, requestInit) => fetch(input, requestInit));
    let status: number;
    let text: string;
    try {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
      const response = await fetchFn(url, {
        method: init.method,
        headers,
        ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
        signal: limit.signal,
      });
      status = response.status;
      // Read as the client reads any answer: at most DEFAULT_MAX_RESPONSE_BYTES.
      text = await answerOfResponse(response).text();
    } catch (error) {
      if (outer?.aborted) throw outer.reason;
      if (limit.timedOut()) throw new OAuthError({ endpoint: url, message: `${what}: no answer from ${url} within ${timeoutMs} ms` });
      throw new OAuthError({ endpoint: url, message: `${what}: request to ${url} failed: ${describeFailure(error)}`, cause: error });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new OAuthError({ endpoint: url, status, message: `${what}: ${url} answered HTTP ${status} without a JSON object` });
    }
    return { status, body: body as Record<string, unknown> };
  } finally {
    limit.release();
  }
}

/** The OAuth error of an answer (RFC 6749 §5.2: `error`, `error_description`), if it carries one. */
export function oauthErrorOf(answer: EndpointAnswer): { code: string; description: string | undefined } | undefined {
  const code = answer.body['error'];
  if (typeof code !== 'string' || code === '') return undefined;
  const description = answer.body['error_description'];
  return { code, description: typeof description === 'string' && description !== '' ? description : undefined };
}

/** `OAuthError` for an answer that is not the success `what` expected: its OAuth error code, or its status. */
export function refusal(answer: EndpointAnswer, url: string, what: string): OAuthError {
  const error = oauthErrorOf(answer);
  if (!error) return new OAuthError({ endpoint: url, status: answer.status, message: `${what}: ${url} answered HTTP ${answer.status} without an OAuth error code` });
  const description = error.description ? `: ${error.description.slice(0, 300)}` : '';
  return new OAuthError({ endpoint: url, status: answer.status, oauthError: error.code, message: `${what}: ${url} answered ${error.code}${description} (HTTP ${answer.status})` });
}

/** The members of a successful token answer (RFC 6749 §5.1) the client uses. */
export interface TokenAnswer {
  accessToken: string;
  /** Seconds from the answer, when the server said. */
  expiresIn: number | undefined;
  refreshToken: string | undefined;
}

/** A lifetime in seconds: a number, or digits as some servers send it. */
export function secondsOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d{1,9}$/.test(value)) return Number(value);
  return undefined;
}

/** Reads a token endpoint's answer: a token on 2xx, an `OAuthError` otherwise. */
export function tokenAnswerOf(answer: EndpointAnswer, url: string, what: string): TokenAnswer {
  if (answer.status < 200 || answer.status > 299 || oauthErrorOf(answer)) throw refusal(answer, url, what);
  const { access_token: accessToken, token_type: tokenType, expires_in: expiresIn, refresh_token: refreshToken } = answer.body;
  if (typeof accessToken !== 'string' || accessToken === '') throw new OAuthError({ endpoint: url, status: answer.status, message: `${what}: ${url} answered without an access_token` });
  // The client sends every token as `Bearer`: another type (DPoP, MAC) would go out wrong.
  if (typeof tokenType === 'string' && tokenType.toLowerCase() !== 'bearer') {
    throw new OAuthError({ endpoint: url, status: answer.status, message: `${what}: ${url} issued a token of type "${tokenType}"; only Bearer tokens can be sent` });
  }
  return {
    accessToken,
    expiresIn: secondsOf(expiresIn),
    refreshToken: typeof refreshToken === 'string' && refreshToken !== '' ? refreshToken : undefined,
  };
}
