/**
 * Security requirements: finding the credential each scheme names, asking the application's
 * `authorize` hook what it grants, and checking the operation's scopes (section 5).
 */
import type { IncomingMessage } from 'node:http';
import type { AuthGrant, SecurityRequirement, SecuritySchemeMeta } from './types.js';

/** What `authorize` is asked about. */
export interface AuthorizeInput {
  /** Scheme name in the spec, e.g. `UserOAuth2Security`. */
  readonly scheme: string;
  readonly schemeType: string;
  /** The bearer token (or API key, or `Basic` credentials) as sent; undefined for `mutualTLS`. */
  readonly credential: string | undefined;
  /** Scopes this operation needs from this scheme. */
  readonly requiredScopes: readonly string[];
  readonly operationId: string;
  readonly req: IncomingMessage;
}

/**
 * Decides what a credential grants: a grant, or undefined when the credential is not
 * valid (answered 401). The router then checks the operation's scopes against
 * `grant.scopes` (403 `AccessToken.InvalidScope` when one is missing).
 *
 * @example
 * const authorize: Authorize = async ({ credential }) => {
 *   const token = await introspect(credential);
 *   return token.active ? { scopes: token.scope.split(' '), consentId: token.consent_id } : undefined;
 * };
 */
export type Authorize = (input: AuthorizeInput) => AuthGrant | undefined | Promise<AuthGrant | undefined>;

export type SecurityOutcome =
  | { readonly ok: true; readonly grant: AuthGrant | undefined }
  | {
      readonly ok: false;
      readonly failure: 'missingToken' | 'invalidToken' | 'invalidScope';
      readonly missingScopes?: readonly string[];
      /** For `invalidToken`: the scheme whose credential was sent and refused. */
      readonly refused?: string;
    };

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (headerValue(req, 'cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** `Authorization: <scheme> <value>` with the scheme compared case-insensitively (RFC 9110 §11.1). */
function authorizationValue(req: IncomingMessage, scheme: string): string | undefined {
  const header = headerValue(req, 'authorization');
  if (!header) return undefined;
  const match = /^([A-Za-z0-9!#$%&'*+.^_`|~-]+) +(\S+) *$/.exec(header);
  if (!match || match[1]!.toLowerCase() !== scheme.toLowerCase()) return undefined;
  return match[2];
}

/**
 * The credential a scheme names in a request, or undefined when it is absent.
 *
 * @example
 * credentialFor({ type: 'oauth2' }, req) // 'abc' for `Authorization: Bearer abc`
 */
export function credentialFor(scheme: SecuritySchemeMeta, req: IncomingMessage, query: URLSearchParams | string): string | undefined {
  switch (scheme.type) {
    case 'oauth2':
    case 'openIdConnect':
      return authorizationValue(req, 'bearer');
    case 'http':
      return authorizationValue(req, scheme.scheme ?? 'bearer');
    case 'apiKey': {
      const name = scheme.name ?? '';
      // The query's text is parsed only for a scheme that reads it.
      if (scheme.in === 'query') return (typeof query === 'string' ? new URLSearchParams(query) : query).get(name) ?? undefined;
      if (scheme.in === 'cookie') return cookieValue(req, name);
      return headerValue(req, name);
    }
    default:
      return undefined;
  }
}

/**
 * Checks an operation's security requirements (alternatives; every scheme of one
 * requirement must hold). Scopes missing from a valid grant give `invalidScope`.
 *
 * @example
 * await checkSecurity([{ UserOAuth2Security: ['openid', 'accounts'] }], schemes, authorize, ctx)
 */
export async function checkSecurity(
  requirements: readonly SecurityRequirement[],
  schemes: { readonly [name: string]: SecuritySchemeMeta },
  authorize: Authorize | undefined,
  /** `query`: the request's query, parsed or as its text without `?`. */
  context: { operationId: string; req: IncomingMessage; query: URLSearchParams | string },
): Promise<SecurityOutcome> {
  if (requirements.length === 0) return { ok: true, grant: undefined };
  let worst: SecurityOutcome | undefined;
  const rank = { missingToken: 0, invalidToken: 1, invalidScope: 2 } as const;
  // `{}` among the alternatives makes security optional; the others are still tried first,
  // so that a handler sees the grant of a credential that was sent.
  const anonymous = requirements.some((r) => Object.keys(r).length === 0);
  for (const requirement of requirements) {
    const names = Object.keys(requirement);
    if (names.length === 0) continue;
    let grant: AuthGrant | undefined;
    let outcome: SecurityOutcome | undefined;
    for (const name of names) {
      const scheme = schemes[name] ?? { type: 'http', scheme: 'bearer' };
      const credential = credentialFor(scheme, context.req, context.query);
      const requiredScopes = requirement[name] ?? [];
      if (credential === undefined && scheme.type !== 'mutualTLS') {
        outcome = { ok: false, failure: 'missingToken' };
        break;
      }
      const granted = authorize
        ? await authorize({ scheme: name, schemeType: scheme.type, credential, requiredScopes, operationId: context.operationId, req: context.req })
        : undefined;
      if (!granted) {
        outcome = { ok: false, failure: 'invalidToken', refused: name };
        break;
      }
      const have = new Set(granted.scopes ?? []);
      const missing = requiredScopes.filter((s) => !have.has(s));
      if (missing.length > 0) {
        outcome = { ok: false, failure: 'invalidScope', missingScopes: missing };
        break;
      }
      grant = grant ? { ...grant, ...granted, scopes: [...new Set([...grant.scopes, ...granted.scopes])] } : granted;
    }
    if (!outcome) return { ok: true, grant };
    if (!outcome.ok && (!worst || worst.ok || rank[outcome.failure] > rank[worst.failure])) worst = outcome;
  }
  if (anonymous) return { ok: true, grant: undefined };
  return worst ?? { ok: false, failure: 'missingToken' };
}
