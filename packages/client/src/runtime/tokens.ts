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
  /** Order of the provider request that gave it: a late answer never replaces a newer token. */
  seq: number;
}

interface ScopeFacts {
  scheme: string | undefined;
  scopes: readonly string[];
  key: string;
}

/** Per security requirement list (the generated client passes the same one on every call). */
const scopeFacts = new WeakMap<SecurityRequirements, ScopeFacts>();

/** A provider request in flight, and how many calls are waiting for it. */
interface PendingToken {
  promise: Promise<HeldToken>;
  waiters: number;
}

/** The error a wait ends with when its signal aborts. */
function abortReasonOf(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
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
  private readonly pending = new Map<string, PendingToken>();
  private readonly margin: number;
  private readonly lifetime: number;
  private requests = 0;

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

  /** The scheme, scopes and holding key of a security requirement list (worked out once per list). */
  private static scopeOf(security: SecurityRequirements): ScopeFacts {
    let facts = scopeFacts.get(security);
    if (!facts) {
      const scope = tokenScope(security);
      const scopes = scope?.scopes ?? [];
      facts = { scheme: scope?.scheme, scopes, key: TokenManager.key(scope?.scheme, scopes) };
      scopeFacts.set(security, facts);
    }
    return facts;
  }

  /**
   * The held token for `security` when it needs no refresh (and is not `rejected`), without
   * waiting: what `token` would resolve to at once. Undefined when `token` has to ask.
   */
  current(security: SecurityRequirements, rejected?: string): string | undefined {
    const held = this.held.get(TokenManager.scopeOf(security).key);
    return held && held.value !== rejected && held.refreshAt > this.options.now() ? held.value : undefined;
  }

  /**
   * A token for an operation's security, refreshed first if it expires within the margin.
   * `rejected` (after a 401) always fetches a new one. Concurrent callers share one request.
   *
   * The wait ends when `signal` aborts (rejecting with its reason), whether or not the
   * provider honours `request.signal`: the client passes a signal that carries the caller's
   * abort and the attempt's time limit. A provider request nobody waits for any more is
   * forgotten, so the next call asks again instead of joining a request that may never end;
   * if it answers after all, its token is kept.
   */
  async token(security: SecurityRequirements, signal?: AbortSignal, rejected?: string): Promise<string> {
    const { scheme, scopes, key } = TokenManager.scopeOf(security);
    const held = this.held.get(key);
    const now = this.options.now();
    // Another call may already have replaced the rejected token: use the new one.
    if (held && held.value !== rejected && held.refreshAt > now) return held.value;
    if (signal?.aborted) throw abortReasonOf(signal);
    const reason: TokenReason = rejected !== undefined && held?.value === rejected ? 'rejected' : held ? 'expiring' : 'initial';
    let pending = this.pending.get(key);
    if (!pending) {
      const seq = ++this.requests;
      const entry: PendingToken = { promise: this.fetch({ scheme, scopes, reason, ...(signal ? { signal } : {}) }, seq), waiters: 0 };
      pending = entry;
      this.pending.set(key, entry);
      entry.promise.then(
        (t) => {
          const current = this.held.get(key);
          if (!current || current.seq < t.seq) this.held.set(key, t);
          if (this.pending.get(key) === entry) this.pending.delete(key);
        },
        () => {
          if (this.pending.get(key) === entry) this.pending.delete(key);
        },
      );
    }
    return (await this.wait(key, pending, signal)).value;
  }

  /** The pending request's answer, or the signal's reason as soon as it aborts. */
  private wait(key: string, pending: PendingToken, signal: AbortSignal | undefined): Promise<HeldToken> {
    if (!signal) {
      // A wait that cannot end early keeps the request worth joining.
      pending.waiters = Number.POSITIVE_INFINITY;
      return pending.promise;
    }
    pending.waiters++;
    return new Promise<HeldToken>((resolve, reject) => {
      let done = false;
      const finish = (): boolean => {
        if (done) return false;
        done = true;
        pending.waiters--;
        signal.removeEventListener('abort', onAbort);
        return true;
      };
      const onAbort = (): void => {
        if (!finish()) return;
        if (pending.waiters <= 0 && this.pending.get(key) === pending) this.pending.delete(key);
        reject(abortReasonOf(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      pending.promise.then(
        (t) => {
          if (finish()) resolve(t);
        },
        (error: unknown) => {
          if (finish()) reject(error);
        },
      );
    });
  }

  private async fetch(request: TokenRequest, seq: number): Promise<HeldToken> {
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
    return { value: token.accessToken, refreshAt: expiresAt - lead, seq };
  }
}
