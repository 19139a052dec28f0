/**
 * One run of the OAuth 2 device authorization grant (RFC 8628): ask for a device code, show
 * the user their code, and poll the token endpoint until the user approves, denies, or the
 * code expires. Time and waiting are the caller's (tests run it on a fake clock).
 */
import { OAuthError, oauthErrorOf, refusal, requestJson, secondsOf, tokenAnswerOf, type EndpointOptions, type TokenAnswer } from './oauth-endpoint.js';

/** What the user needs to approve the device: show `userCode` and `verificationUri` (or a QR code of `verificationUriComplete`). */
export interface DeviceUserCode {
  userCode: string;
  verificationUri: string;
  /** The verification URI with the code in it, when the server gives one. */
  verificationUriComplete: string | undefined;
  /** Seconds the code stays valid. */
  expiresIn: number;
}

export interface PollIntervalBounds {
  /** Never poll more often than this, whatever the server says (default 1000 ms). */
  minMs?: number;
  /**
   * Never wait longer than this between polls (default: no bound). RFC 8628 says to keep the
   * interval the server asks for: a bound below it earns more `slow_down` answers.
   */
  maxMs?: number;
}

export interface DeviceGrantOptions {
  clientId: string;
  deviceAuthorizationUrl: string;
  tokenUrl: string;
  scopes: readonly string[];
  onUserCode: (code: DeviceUserCode) => void | Promise<void>;
  endpoint: EndpointOptions;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  pollInterval?: PollIntervalBounds | undefined;
}

/** RFC 8628 §3.2: the interval when the server names none, and §3.5: what `slow_down` adds. */
const DEFAULT_INTERVAL_S = 5;
const SLOW_DOWN_MS = 5_000;
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Polls in a row that got no answer (or a 5xx one) before the grant gives up. */
const MAX_TRANSIENT_FAILURES = 3;

interface DeviceCodes extends DeviceUserCode {
  deviceCode: string;
  intervalS: number | undefined;
}

function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

async function requestCodes(options: DeviceGrantOptions): Promise<DeviceCodes> {
  const url = options.deviceAuthorizationUrl;
  const what = 'device authorization request';
  const form: Record<string, string> = { client_id: options.clientId };
  if (options.scopes.length > 0) form['scope'] = options.scopes.join(' ');
  const answer = await requestJson(url, { method: 'POST', form }, what, options.endpoint);
  if (answer.status < 200 || answer.status > 299 || oauthErrorOf(answer)) throw refusal(answer, url, what);
  const b = answer.body;
  const expiresIn = secondsOf(b['expires_in']);
  if (!nonEmpty(b['device_code']) || !nonEmpty(b['user_code']) || !nonEmpty(b['verification_uri']) || expiresIn === undefined) {
    throw new OAuthError({ endpoint: url, status: answer.status, message: `${what}: ${url} answered without device_code, user_code, verification_uri and expires_in` });
  }
  return {
    deviceCode: b['device_code'],
    userCode: b['user_code'],
    verificationUri: b['verification_uri'],
    verificationUriComplete: nonEmpty(b['verification_uri_complete']) ? b['verification_uri_complete'] : undefined,
    expiresIn,
    intervalS: secondsOf(b['interval']),
  };
}

function bounded(ms: number, bounds: PollIntervalBounds | undefined): number {
  return Math.min(Math.max(ms, bounds?.minMs ?? 1_000), bounds?.maxMs ?? Number.POSITIVE_INFINITY);
}

/** No answer, or a server error without an OAuth code: worth another poll after a longer wait (§3.5). */
function isTransient(error: unknown): boolean {
  return error instanceof OAuthError && error.oauthError === undefined && (error.status === undefined || error.status >= 500);
}

/**
 * Runs the grant to its end: the token, or an `OAuthError` (`access_denied`, `expired_token`,
 * another code of the token endpoint's, or a failure to reach it). Rejects with the signal's
 * reason when `endpoint.signal` aborts.
 */
export async function runDeviceGrant(options: DeviceGrantOptions): Promise<TokenAnswer> {
  const started = options.now();
  const codes = await requestCodes(options);
  const deadline = started + codes.expiresIn * 1000;
  const { deviceCode, intervalS, ...shown } = codes;
  await options.onUserCode(shown);
  const url = options.tokenUrl;
  const what = 'device access token request';
  const form = { grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: options.clientId };
  const signal = options.endpoint.signal;
  let interval = bounded((intervalS ?? DEFAULT_INTERVAL_S) * 1000, options.pollInterval);
  let failures = 0;
  for (;;) {
    // A poll after the code's expiry can only fail: say so now.
    if (options.now() + interval >= deadline) {
      throw new OAuthError({ endpoint: url, oauthError: 'expired_token', message: `${what}: the device code expired after ${codes.expiresIn} s before the user approved it (polling ${url})` });
    }
    await options.sleep(interval, signal);
    let answer;
    try {
      answer = await requestJson(url, { method: 'POST', form }, what, options.endpoint);
      if (answer.status >= 500 && !oauthErrorOf(answer)) throw new OAuthError({ endpoint: url, status: answer.status, message: `${what}: ${url} answered HTTP ${answer.status}` });
    } catch (error) {
      if (!isTransient(error) || ++failures >= MAX_TRANSIENT_FAILURES) throw error;
      interval = bounded(interval * 2, options.pollInterval);
      continue;
    }
    failures = 0;
    switch (oauthErrorOf(answer)?.code) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        interval = bounded(interval + SLOW_DOWN_MS, options.pollInterval);
        continue;
      case 'access_denied':
        throw new OAuthError({ endpoint: url, status: answer.status, oauthError: 'access_denied', message: `${what}: the user denied the authorization (access_denied from ${url})` });
      case 'expired_token':
        throw new OAuthError({ endpoint: url, status: answer.status, oauthError: 'expired_token', message: `${what}: the device code expired before the user approved it (expired_token from ${url})` });
      default:
        return tokenAnswerOf(answer, url, what);
    }
  }
}
