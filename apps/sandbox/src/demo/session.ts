/**
 * A TPP session with a running sandbox, over HTTP only: a consent of its own (so the
 * demo never disturbs the printed one), tokens from the sandbox token endpoint, refreshed
 * when the client asks, and the hub's JWKS.
 */
import type { JSONWebKeySet } from 'jose';
import type { TokenProvider } from '@bank-data-sharing/client/runtime';

/** What the demo needs from a sandbox. */
export interface SandboxSession {
  readonly hubUrl: string;
  /** Base URL of the v2.2 API. */
  readonly baseUrl: string;
  readonly consentId: string;
  readonly customerId: string;
  readonly accountIds: readonly string[];
  readonly tokens: TokenProvider;
  /** The hub's JWKS (for signed answers). */
  readonly jwks: JSONWebKeySet;
}

interface TokenAnswer {
  access_token: string;
  expires_in: number;
  refresh_token: string;
}

async function postJson<T>(url: string, body: Record<string, unknown>, form = false): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status}`);
  return (await response.json()) as T;
}

/** True when a sandbox hub answers at `hubUrl`. */
export async function sandboxIsUp(hubUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${hubUrl}/sandbox`, { signal: AbortSignal.timeout(2_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Opens a session: creates a consent for the first customer and a token provider for it.
 *
 * @example
 * const session = await openSession('http://127.0.0.1:4010');
 * const client = createClient({ baseUrl: session.baseUrl, tokens: session.tokens });
 */
export async function openSession(hubUrl: string): Promise<SandboxSession> {
  const info = await getJson<{ baseUrls: Record<string, string> }>(`${hubUrl}/sandbox`);
  const baseUrl = info.baseUrls['v2.2'];
  if (baseUrl === undefined) throw new Error('the sandbox does not serve v2.2');
  const consent = await postJson<{ consentId: string; customerId: string; accountIds: string[] }>(`${hubUrl}/sandbox/consents`, {});
  const jwks = await getJson<JSONWebKeySet>(`${hubUrl}/.well-known/jwks.json`);

  let refreshToken: string | undefined;
  const tokens: TokenProvider = {
    async getToken({ reason }) {
      // A refresh token is single use; the first token and any failed refresh start afresh.
      const answer =
        reason !== 'initial' && refreshToken !== undefined
          ? await postJson<TokenAnswer>(`${hubUrl}/sandbox/token`, { grant_type: 'refresh_token', refresh_token: refreshToken }, true)
          : await postJson<TokenAnswer>(`${hubUrl}/sandbox/token`, { grant_type: 'client_credentials', consent_id: consent.consentId }, true);
      refreshToken = answer.refresh_token;
      return { accessToken: answer.access_token, expiresIn: answer.expires_in };
    },
  };
  return { hubUrl, baseUrl, consentId: consent.consentId, customerId: consent.customerId, accountIds: consent.accountIds, tokens, jwks };
}
