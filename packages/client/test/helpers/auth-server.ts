/**
 * A tiny OAuth 2 authorization server on 127.0.0.1 for the device authorization grant
 * (RFC 8628), its metadata (RFC 8414) and refresh tokens: each poll of the token endpoint
 * takes the next scripted answer, and every request is recorded with the fake clock's time.
 */
import { startServer, type Handler, type RecordedRequest, type Reply, type TestServer } from './server.js';

/** What one poll of the token endpoint answers: an RFC 8628 error code, or a token. */
export type PollAnswer = 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'approve' | 'unavailable';

export interface AuthScript {
  /** Answers to the polls in order; the last one repeats. */
  polls: PollAnswer[];
  /** `interval` of the device authorization answer (seconds); omitted when undefined. */
  interval?: number | undefined;
  /** `expires_in` of the device code (seconds, default 600). */
  codeLifetime?: number;
  /** `expires_in` of access tokens (seconds, default 3600). */
  tokenLifetime?: number;
  /** Issue refresh tokens with access tokens (default true). */
  refreshTokens?: boolean;
  /** Replaces the metadata document. */
  metadata?: (origin: string) => Reply;
  /** Answers other requests (the API the tokens are for). */
  api?: Handler;
}

export interface AuthServer extends TestServer {
  /** The form of each request to `path`, in order. */
  forms(path: string): Record<string, string>[];
  /** Fake-clock times of the device-code polls. */
  pollTimes: number[];
  /** Access tokens issued, in order. */
  issued: string[];
  /** Makes refresh tokens unusable (as if revoked). */
  revokeRefreshTokens(): void;
  metadataUrl: string;
}

export const CLIENT_ID = 'quotes-cli';
export const DEVICE_CODE = 'dc-GmRhmhcxhwAzkoEqiMEg';
export const USER_CODE = 'WDJB-MJHT';

function formOf(request: RecordedRequest): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(request.body));
}

function oauthError(code: string, status = 400): Reply {
  return { status, headers: { 'cache-control': 'no-store' }, body: { error: code, error_description: `scripted ${code}` } };
}

export async function startAuthServer(script: AuthScript, clock: { now: number }): Promise<AuthServer> {
  let origin = '';
  let polls = 0;
  let refreshValid = true;
  const pollTimes: number[] = [];
  const issued: string[] = [];
  const refreshTokens = new Set<string>();

  function token(): Reply {
    const accessToken = `at-${issued.length + 1}`;
    issued.push(accessToken);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer', expires_in: script.tokenLifetime ?? 3600 };
    if (script.refreshTokens ?? true) {
      body['refresh_token'] = `rt-${issued.length}`;
      refreshTokens.add(`rt-${issued.length}`);
    }
    return { headers: { 'cache-control': 'no-store' }, body };
  }

  const handler: Handler = (request, index) => {
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && path === '/.well-known/oauth-authorization-server') {
      if (script.metadata) return script.metadata(origin);
      return { body: { issuer: origin, token_endpoint: `${origin}/token`, device_authorization_endpoint: `${origin}/device`, grant_types_supported: ['urn:ietf:params:oauth:grant-type:device_code', 'refresh_token'] } };
    }
    if (request.method === 'POST' && path === '/device') {
      const form = formOf(request);
      if (form['client_id'] !== CLIENT_ID) return oauthError('invalid_client', 401);
      const body: Record<string, unknown> = {
        device_code: DEVICE_CODE,
        user_code: USER_CODE,
        verification_uri: `${origin}/verify`,
        verification_uri_complete: `${origin}/verify?user_code=${USER_CODE}`,
        expires_in: script.codeLifetime ?? 600,
      };
      if (script.interval !== undefined) body['interval'] = script.interval;
      return { body };
    }
    if (request.method === 'POST' && path === '/token') {
      const form = formOf(request);
      if (form['client_id'] !== CLIENT_ID) return oauthError('invalid_client', 401);
      if (form['grant_type'] === 'refresh_token') {
        return refreshValid && refreshTokens.has(form['refresh_token'] ?? '') ? token() : oauthError('invalid_grant');
      }
      if (form['grant_type'] !== 'urn:ietf:params:oauth:grant-type:device_code') return oauthError('unsupported_grant_type');
      if (form['device_code'] !== DEVICE_CODE) return oauthError('invalid_grant');
      pollTimes.push(clock.now);
      const answer = script.polls[Math.min(polls++, script.polls.length - 1)]!;
      if (answer === 'approve') return token();
      if (answer === 'unavailable') return { status: 503, body: 'try later' };
      return oauthError(answer);
    }
    return script.api ? script.api(request, index) : { status: 404, body: 'not found' };
  };

  const server = await startServer(handler);
  origin = server.origin;
  return {
    ...server,
    forms: (path) => server.requests.filter((r) => r.url.split('?')[0] === path).map(formOf),
    pollTimes,
    issued,
    revokeRefreshTokens: () => {
      refreshValid = false;
    },
    metadataUrl: `${origin}/.well-known/oauth-authorization-server`,
  };
}

/** A clock that moves only when the code under test sleeps: no real waiting. */
export function fakeClock(start = Date.UTC(2026, 0, 1)) {
  const clock = { now: start };
  const sleeps: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal): Promise<void> => {
    if (signal?.aborted) throw signal.reason;
    sleeps.push(ms);
    clock.now += ms;
  };
  return { clock, sleeps, sleep, now: () => clock.now };
}
