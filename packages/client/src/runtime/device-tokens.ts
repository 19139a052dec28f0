/**
 * A `TokenProvider` for the OAuth 2 device authorization grant (RFC 8628), for command-line
 * tools and devices without a browser: the user approves once on another device, and the
 * provider keeps the token fresh with the refresh token the server issued. Endpoints come
 * from the options, the scheme's `deviceAuthorization` flow, or its `oauth2MetadataUrl`.
 */
import type { SecuritySchemeInfo } from './credentials.js';
import { runDeviceGrant, type DeviceUserCode, type PollIntervalBounds } from './device-grant.js';
import { TokenError } from './errors.js';
import { OAuthError, requestJson, tokenAnswerOf, type EndpointOptions, type TokenAnswer } from './oauth-endpoint.js';
import { authorizationServerMetadata } from './oauth-metadata.js';
import { sleep as realSleep } from './retry.js';
import type { AccessToken, TokenProvider, TokenRequest } from './tokens.js';
import type { FetchLike } from './transport.js';

export interface DeviceAuthorizationOptions {
  clientId: string;
  /**
   * The scheme as the generated client carries it (`securitySchemes.<name>`): its
   * `deviceAuthorization` flow's URLs and scopes, or its `oauth2MetadataUrl`.
   */
  scheme?: SecuritySchemeInfo;
  /** The device authorization endpoint (overrides the scheme's). */
  deviceAuthorizationUrl?: string;
  /** The token endpoint (overrides the scheme's). */
  tokenUrl?: string;
  /** Authorization server metadata (RFC 8414) to read the endpoints from, in place of the scheme's flow. */
  metadataUrl?: string;
  /**
   * Scopes to ask for, once for every operation (default: all of the flow's, else the first
   * request's): one approval by the user serves the whole client.
   */
  scopes?: readonly string[];
  /** Shows the user where to go and what to type. Polling starts when it returns (or its promise settles). */
  onUserCode: (code: DeviceUserCode) => void | Promise<void>;
  fetch?: FetchLike;
  /** Ends the provider: a grant or refresh in progress, and any later one, reject with its reason. */
  signal?: AbortSignal;
  /** Time limit of each request to the authorization server (default 30 000 ms; 0 or not finite: none). */
  requestTimeoutMs?: number;
  pollInterval?: PollIntervalBounds;
  /** Clock in epoch ms (tests inject one). */
  now?: () => number;
  /** How to wait between polls (tests inject one that does not). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The endpoints a grant uses, once known. */
export interface DeviceEndpoints {
  deviceAuthorizationUrl: string;
  tokenUrl: string;
  /** Where refresh tokens go: the flow's `refreshUrl`, else the token endpoint. */
  refreshUrl: string;
}

export interface DeviceAuthorizationTokens extends TokenProvider {
  /** The held token, renewed by the refresh token or a new grant when `request.reason` asks for one. */
  getToken(request: TokenRequest): Promise<AccessToken>;
  /**
   * Runs the grant now, or gives the token held: call it before the first request, so the
   * user's approval (minutes) does not count against a call's `timeoutMs`.
   */
  authorize(): Promise<AccessToken>;
  /** The endpoints in use (read from the metadata on first use when they come from there). */
  endpoints(): Promise<DeviceEndpoints>;
}

interface Session {
  accessToken: string;
  /** Epoch ms; undefined when the server did not say. */
  expiresAt: number | undefined;
  lifetimeMs: number | undefined;
  refreshToken: string | undefined;
}

/**
 * Whether the held token answers a request: an `initial` one takes any unexpired token; an
 * `expiring` one only a token newer than the manager's (the manager asks with less than half
 * a lifetime left, so more than half left means another request renewed it); `rejected` never.
 */
function answers(session: Session, request: TokenRequest, now: number): boolean {
  if (session.expiresAt === undefined) return request.reason === 'initial';
  const left = session.expiresAt - now;
  if (request.reason === 'initial') return left > 0;
  if (request.reason === 'expiring') return session.lifetimeMs !== undefined && left > session.lifetimeMs / 2;
  return false;
}

/**
 * @example
 * import { createClient, securitySchemes } from './generated/market-feed/client/index.js';
 * const tokens = deviceAuthorizationTokens({
 *   clientId: 'quotes-cli',
 *   scheme: securitySchemes.device,
 *   onUserCode: ({ userCode, verificationUri }) => console.log(`Open ${verificationUri} and enter ${userCode}`),
 * });
 * await tokens.authorize();
 * const client = createClient({ tokens });
 */
export function deviceAuthorizationTokens(options: DeviceAuthorizationOptions): DeviceAuthorizationTokens {
  const now = options.now ?? Date.now;
  const endpoint: EndpointOptions = { fetch: options.fetch, signal: options.signal, timeoutMs: options.requestTimeoutMs };
  const flow = options.scheme?.flows?.deviceAuthorization;
  let session: Session | undefined;
  // One grant or refresh at a time, shared by every request that comes while it runs.
  let running: Promise<Session> | undefined;
  let resolved: Promise<DeviceEndpoints> | undefined;

  async function discover(): Promise<DeviceEndpoints> {
    // Explicit URLs win; an explicit metadata URL wins over the scheme's flow.
    const fromFlow = options.metadataUrl === undefined ? flow : undefined;
    let device = options.deviceAuthorizationUrl ?? fromFlow?.deviceAuthorizationUrl;
    let token = options.tokenUrl ?? fromFlow?.tokenUrl;
    if (device === undefined || token === undefined) {
      const metadataUrl = options.metadataUrl ?? options.scheme?.oauth2MetadataUrl;
      if (metadataUrl === undefined) {
        throw new TokenError(
          'device authorization: no device authorization endpoint and token endpoint known: give `deviceAuthorizationUrl` and `tokenUrl`, `metadataUrl`, or a `scheme` with a `deviceAuthorization` flow or an `oauth2MetadataUrl`',
        );
      }
      const metadata = await authorizationServerMetadata(metadataUrl, endpoint);
      if (device === undefined && metadata.deviceAuthorizationEndpoint === undefined) {
        throw new OAuthError({
          endpoint: metadataUrl,
          message: `authorization server metadata at ${metadataUrl} names no device_authorization_endpoint: the server does not offer the device authorization grant`,
        });
      }
      device ??= metadata.deviceAuthorizationEndpoint!;
      token ??= metadata.tokenEndpoint;
    }
    return { deviceAuthorizationUrl: device, tokenUrl: token, refreshUrl: (options.tokenUrl === undefined ? fromFlow?.refreshUrl : undefined) ?? token };
  }

  function endpoints(): Promise<DeviceEndpoints> {
    if (!resolved) {
      const discovery = discover();
      resolved = discovery;
      // A failed discovery is tried again on the next request, not remembered.
      discovery.catch(() => {
        if (resolved === discovery) resolved = undefined;
      });
    }
    return resolved;
  }

  function sessionOf(answer: TokenAnswer, previous: Session | undefined): Session {
    const lifetimeMs = answer.expiresIn !== undefined ? answer.expiresIn * 1000 : undefined;
    return {
      accessToken: answer.accessToken,
      expiresAt: lifetimeMs !== undefined ? now() + lifetimeMs : undefined,
      lifetimeMs,
      // A refresh answer without a refresh token leaves the old one in force (RFC 6749 §6).
      refreshToken: answer.refreshToken ?? previous?.refreshToken,
    };
  }

  async function grant(scopes: readonly string[]): Promise<Session> {
    const { deviceAuthorizationUrl, tokenUrl } = await endpoints();
    const answer = await runDeviceGrant({
      clientId: options.clientId,
      deviceAuthorizationUrl,
      tokenUrl,
      scopes,
      onUserCode: options.onUserCode,
      endpoint,
      now,
      sleep: options.sleep ?? realSleep,
      pollInterval: options.pollInterval,
    });
    return sessionOf(answer, undefined);
  }

  async function refresh(held: Session, scopes: readonly string[]): Promise<Session> {
    const { refreshUrl } = await endpoints();
    const what = 'refresh token request';
    const form = { grant_type: 'refresh_token', refresh_token: held.refreshToken!, client_id: options.clientId };
    try {
      return sessionOf(tokenAnswerOf(await requestJson(refreshUrl, { method: 'POST', form }, what, endpoint), refreshUrl, what), held);
    } catch (error) {
      // A refresh token expired or revoked: the user approves again.
      if (error instanceof OAuthError && error.oauthError === 'invalid_grant') return await grant(scopes);
      throw error;
    }
  }

  function tokenOf(held: Session): AccessToken {
    return held.expiresAt === undefined ? { accessToken: held.accessToken } : { accessToken: held.accessToken, expiresIn: (held.expiresAt - now()) / 1000 };
  }

  async function getToken(request: TokenRequest): Promise<AccessToken> {
    // The caller's `request.signal` carries one call's time limit: a grant waits for a person,
    // so it runs on under the provider's own `signal`, and later calls join it.
    if (running) return tokenOf(await running);
    if (session && answers(session, request, now())) return tokenOf(session);
    const scopes = options.scopes ?? flow?.scopes ?? request.scopes;
    const held = session;
    const work = held?.refreshToken !== undefined ? refresh(held, scopes) : grant(scopes);
    running = work;
    try {
      session = await work;
      return tokenOf(session);
    } finally {
      if (running === work) running = undefined;
    }
  }

  return {
    getToken,
    authorize: () => getToken({ scheme: undefined, scopes: [], reason: 'initial' }),
    endpoints,
  };
}
