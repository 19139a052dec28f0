/**
 * Access tokens: the caller supplies a `TokenProvider` (how tokens are obtained and refreshed
 * is the caller's: section 5 leaves the LFI token endpoint open); the `TokenManager` decides
 * when to ask. It refreshes ahead of expiry, so a long paged read never runs into an expired
 * token, and once more after a 401.
 */
import { TokenError } from './errors.js';
import type { SecurityRequirements } from './types.js';

/** A token and when it stops being valid. */
export interface AccessToken {
  accessToken: string;
  /** Expiry as epoch milliseconds. */
  expiresAt?: number;
  /** Lifetime in seconds from now (as token endpoints say it), used when `expiresAt` is absent. */
  expiresIn?: number;
}

/** Why the client asks for a token. */
export type TokenReason = 'initial' | 'expiring' | 'rejected';

export interface TokenRequest {
  /** Security scheme the operation names (e.g. `UserOAuth2Security`), when it names one. */
  scheme: string | undefined;
  /** Scopes the operation needs under that scheme. */
  scopes: readonly string[];
  /** `initial`: none held; `expiring`: the held one is about to expire; `rejected`: the server answered 401. */
  reason: TokenReason;
  signal?: AbortSignal;
}

/**
 * Where tokens come from. Return a fresh token when `reason` is not `initial`.
 *
 * @example
 * const tokens: TokenProvider = {
 *   async getToken({ reason }) {
 *     const t = reason === 'initial' ? await login() : await refresh(refreshToken);
 *     return { accessToken: t.access_token, expiresIn: t.expires_in };
 *   },
 * };
 */
export interface TokenProvider {
  getToken(request: TokenRequest): Promise<AccessToken | string>;
}

/**
 * A provider that always returns the same token (scripts and tests).
 *
 * @example
 * createClient({ baseUrl, tokens: staticToken(process.env.ACCESS_TOKEN!) });
 */
export function staticToken(accessToken: string): TokenProvider {
  return { getToken: async () => ({ accessToken }) };
}

export interface TokenManagerOptions {
  now: () => number;
  /** Refresh when the token has less than this left (default 60 s). */
  refreshMarginMs?: number;
  /** Lifetime assumed when the provider does not say (default 10 minutes, section 5). */
  defaultLifetimeMs?: number;
  onRefresh?: (request: TokenRequest) => void;
}

interface HeldToken {
  value: string;
  /** When to stop using it and ask for a new one (ahead of expiry). */
  refreshAt: number;
}

/** The scheme and scopes to ask for: the first alternative that names a scheme. */
export function tokenScope(security: SecurityRequirements): { scheme: string; scopes: readonly string[] } | undefined {
  for (const requirement of security) {
    const scheme = Object.keys(requirement)[0];
    if (scheme !== undefined) return { scheme, scopes: requirement[scheme] ?? [] };
  }
  return undefined;
}

/**
 * Holds tokens per security scheme and scopes and decides when to ask the provider again.
 * Every generated client has one; use it directly only outside a client.
 *
 * @example
 * const manager = new TokenManager(provider, { now: Date.now });
 * const bearer = await manager.token([{ UserOAuth2Security: ['openid', 'accounts'] }]);
 */
export class TokenManager {
  private readonly held = new Map<string, HeldToken>();
  private readonly pending = new Map<string, Promise<HeldToken>>();
  private readonly margin: number;
  private readonly lifetime: number;

  constructor(
    private readonly provider: TokenProvider,
    private readonly options: TokenManagerOptions,
  ) {
    this.margin = options.refreshMarginMs ?? 60_000;
    this.lifetime = options.defaultLifetimeMs ?? 600_000;
  }

  private static key(scheme: string | undefined, scopes: readonly string[]): string {
    return `${scheme ?? ''} ${[...scopes].sort().join(' ')}`;
  }

  /**
   * A token for an operation's security, refreshed first if it expires within the margin.
   * `rejected` (after a 401) always fetches a new one. Concurrent callers share one request.
   */
  async token(security: SecurityRequirements, signal?: AbortSignal, rejected?: string): Promise<string> {
    const scope = tokenScope(security);
    const scheme = scope?.scheme;
    const scopes = scope?.scopes ?? [];
    const key = TokenManager.key(scheme, scopes);
    const held = this.held.get(key);
    const now = this.options.now();
    // Another call may already have replaced the rejected token: use the new one.
    if (held && held.value !== rejected && held.refreshAt > now) return held.value;
    const reason: TokenReason = rejected !== undefined && held?.value === rejected ? 'rejected' : held ? 'expiring' : 'initial';
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.fetch({ scheme, scopes, reason, ...(signal ? { signal } : {}) });
      this.pending.set(key, pending);
      pending.then(
        (t) => {
          this.held.set(key, t);
          this.pending.delete(key);
        },
        () => this.pending.delete(key),
      );
    }
    return (await pending).value;
  }

  private async fetch(request: TokenRequest): Promise<HeldToken> {
    this.options.onRefresh?.(request);
    let answer: AccessToken | string;
    try {
      answer = await this.provider.getToken(request);
    } catch (error) {
      throw new TokenError(`could not get an access token: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const token = typeof answer === 'string' ? { accessToken: answer } : answer;
    if (!token || typeof token.accessToken !== 'string' || token.accessToken === '') throw new TokenError('the token provider returned no access token');
    const now = this.options.now();
    const expiresAt = token.expiresAt ?? (token.expiresIn !== undefined ? now + token.expiresIn * 1000 : now + this.lifetime);
    if (expiresAt <= now) throw new TokenError('the token provider returned a token that has already expired');
    // A token shorter-lived than twice the margin is used for half its life, not asked for on every call.
    const lead = Math.min(this.margin, (expiresAt - now) / 2);
    return { value: token.accessToken, refreshAt: expiresAt - lead };
  }
}
