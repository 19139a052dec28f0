/**
 * Bearer access tokens: opaque random strings with scopes and a 10-minute life
 * (section 5.3, limit 8.5), plus refresh tokens to get a new one without the customer.
 */
import { randomBytes } from 'node:crypto';
import { AuthError } from './errors.js';
import { isoInstant, nowMs, type Clock } from './clock.js';

/** Life of an access token: 10 minutes. */
export const ACCESS_TOKEN_TTL_SECONDS = 600;

/** What a token stands for. */
export interface TokenGrant {
  readonly scopes: readonly string[];
  /** The consent the token was issued under; data operations need one. */
  readonly consentId?: string | undefined;
  /** The TPP client the token belongs to. */
  readonly clientId?: string | undefined;
}

/** An issued access token, shaped like a token endpoint answer plus what the store knows. */
export interface IssuedToken extends TokenGrant {
  readonly accessToken: string;
  readonly tokenType: 'Bearer';
  /** Seconds until expiry at issue time (600). */
  readonly expiresIn: number;
  /** Space-separated scopes, as OAuth 2.0 writes them. */
  readonly scope: string;
  readonly issuedAt: string;
  readonly expiresAt: string;
  readonly refreshToken: string;
}

/** Outcome of checking a token for an operation. */
export type TokenCheck =
  | { readonly ok: true; readonly token: IssuedToken }
  | { readonly ok: false; readonly reason: 'missing' | 'unknown' | 'expired'; readonly status: 401 }
  | { readonly ok: false; readonly reason: 'insufficient_scope'; readonly status: 403; readonly code: 'AccessToken.InvalidScope'; readonly missingScopes: readonly string[] };

interface StoredToken {
  readonly token: IssuedToken;
  readonly expiresAtMs: number;
}

/** Opaque, unguessable token text. */
function opaque(): string {
  return randomBytes(32).toString('base64url');
}

/** Takes the token out of an `Authorization: Bearer …` header; undefined when there is none. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}

/** The token part of the auth store. */
export class TokenStore {
  readonly #clock: Clock;
  readonly #ttlMs: number;
  readonly #tokens = new Map<string, StoredToken>();
  readonly #refresh = new Map<string, TokenGrant>();

  constructor(clock: Clock, ttlSeconds = ACCESS_TOKEN_TTL_SECONDS) {
    this.#clock = clock;
    this.#ttlMs = ttlSeconds * 1000;
  }

  /** Issues an access token (and its refresh token) for a grant. */
  issue(grant: TokenGrant): IssuedToken {
    this.#prune();
    const issuedMs = nowMs(this.#clock);
    const scopes = [...new Set(grant.scopes)];
    const token: IssuedToken = {
      accessToken: opaque(),
      tokenType: 'Bearer',
      expiresIn: this.#ttlMs / 1000,
      scope: scopes.join(' '),
      scopes,
      ...(grant.consentId === undefined ? {} : { consentId: grant.consentId }),
      ...(grant.clientId === undefined ? {} : { clientId: grant.clientId }),
      issuedAt: isoInstant(issuedMs),
      expiresAt: isoInstant(issuedMs + this.#ttlMs),
      refreshToken: opaque(),
    };
    this.#tokens.set(token.accessToken, { token, expiresAtMs: issuedMs + this.#ttlMs });
    this.#refresh.set(token.refreshToken, { scopes, consentId: grant.consentId, clientId: grant.clientId });
    return token;
  }

  /**
   * Checks a token (raw, or an `Authorization` header value) and, optionally, that it holds
   * every scope in `requiredScopes`. A token is valid strictly before its expiry instant.
   */
  check(tokenOrHeader: string | undefined, requiredScopes: readonly string[] = []): TokenCheck {
    const text = bearerToken(tokenOrHeader) ?? tokenOrHeader?.trim();
    if (text === undefined || text === '') return { ok: false, reason: 'missing', status: 401 };
    const stored = this.#tokens.get(text);
    if (stored === undefined) return { ok: false, reason: 'unknown', status: 401 };
    if (nowMs(this.#clock) >= stored.expiresAtMs) {
      this.#tokens.delete(text);
      return { ok: false, reason: 'expired', status: 401 };
    }
    const missingScopes = requiredScopes.filter((scope) => !stored.token.scopes.includes(scope));
    if (missingScopes.length > 0) {
      return { ok: false, reason: 'insufficient_scope', status: 403, code: 'AccessToken.InvalidScope', missingScopes };
    }
    return { ok: true, token: stored.token };
  }

  /**
   * Exchanges a refresh token for a new access token with the same grant. Refresh tokens
   * are single use: the old one stops working. `allow` lets the caller refuse (e.g. when
   * the consent has ended).
   */
  refresh(refreshToken: string, allow: (grant: TokenGrant) => boolean = () => true): IssuedToken {
    const grant = this.#refresh.get(refreshToken);
    if (grant === undefined) throw new AuthError('InvalidRefreshToken', 'unknown or already used refresh token');
    if (!allow(grant)) throw new AuthError('InvalidRefreshToken', 'the grant behind this refresh token has ended');
    this.#refresh.delete(refreshToken);
    return this.issue(grant);
  }

  /** Revokes an access token at once. */
  revoke(accessToken: string): boolean {
    return this.#tokens.delete(accessToken);
  }

  /** Drops expired tokens so a long-running sandbox does not grow without bound. */
  #prune(): void {
    const now = nowMs(this.#clock);
    for (const [text, stored] of this.#tokens) if (now >= stored.expiresAtMs) this.#tokens.delete(text);
  }
}
