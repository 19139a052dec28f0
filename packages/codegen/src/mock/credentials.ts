/**
 * Security for a mock: any well-formed credential is accepted (a mock knows no users, and
 * grants whatever scopes the operation asks), a missing or malformed one is refused, so that
 * clients see the publisher's 401 where they forgot one. And the credentials a request to
 * the mock can carry, for the start-up `curl` line and for tests.
 */
import type { SecuritySchemeIR } from '../ir/types.js';

/** What the router asks `authorize` (the server runtime's `AuthorizeInput`, as far as read here). */
export interface MockAuthorizeInput {
  readonly scheme: string;
  readonly schemeType: string;
  readonly credential: string | undefined;
  readonly requiredScopes: readonly string[];
}

/** RFC 9110 §11.2 token68: what a Bearer token (RFC 6750 §2.1) is made of. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Whether `credential` is well-formed for a scheme of this type (and HTTP auth scheme). */
function wellFormed(schemeType: string, httpScheme: string | undefined, credential: string | undefined): boolean {
  // Certificates are a TLS matter: a mock served over plain HTTP cannot see one.
  if (schemeType === 'mutualTLS') return true;
  if (credential === undefined || credential.trim() === '') return false;
  if (schemeType === 'oauth2' || schemeType === 'openIdConnect') return TOKEN68.test(credential);
  if (schemeType === 'http' && (httpScheme ?? 'bearer').toLowerCase() === 'bearer') return TOKEN68.test(credential);
  if (schemeType === 'http' && httpScheme?.toLowerCase() === 'basic') {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credential)) return false;
    return Buffer.from(credential, 'base64').toString('utf8').includes(':');
  }
  return true;
}

/**
 * The mock's `authorize` hook: a well-formed credential is granted the scopes the operation
 * requires (and no `permissions`, so no consent check refuses it); anything else is refused
 * (the router's 401).
 *
 * @example
 * createRouter(handlers, { authorize: mockAuthorize(api.securitySchemes) })
 */
export function mockAuthorize(schemes: readonly SecuritySchemeIR[]): (input: MockAuthorizeInput) => { scopes: readonly string[] } | undefined {
  const byName = new Map(schemes.map((s) => [s.name, s]));
  return ({ scheme, schemeType, credential, requiredScopes }) => {
    const declared = byName.get(scheme);
    return wellFormed(schemeType, declared?.scheme, credential) ? { scopes: [...requiredScopes] } : undefined;
  };
}

/** Credentials placed in a request. */
export interface RequestCredentials {
  headers: Record<string, string>;
  query: Record<string, string>;
  cookies: Record<string, string>;
}

/** A value the mock accepts for each kind of credential. */
export const MOCK_CREDENTIAL = { token: 'mock-token', apiKey: 'mock-key', user: 'mock-user', password: 'mock-password' } as const;

/**
 * Credentials that satisfy one of `requirements` (the first that asks for something): each
 * scheme's credential where the scheme says it travels. Nothing for an operation without
 * security.
 *
 * @example
 * credentialsFor([{ OAuth2: ['accounts'] }], schemes).headers // { authorization: 'Bearer mock-token' }
 */
export function credentialsFor(requirements: ReadonlyArray<Readonly<Record<string, readonly string[]>>>, schemes: readonly SecuritySchemeIR[]): RequestCredentials {
  const out: RequestCredentials = { headers: {}, query: {}, cookies: {} };
  // `{}` among the alternatives makes security optional: send nothing.
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return out;
  const byName = new Map(schemes.map((s) => [s.name, s]));
  for (const name of Object.keys(requirements[0]!)) {
    const scheme = byName.get(name) ?? { name, type: 'http', scheme: 'bearer' };
    if (scheme.type === 'apiKey') {
      const where = scheme.in === 'query' ? out.query : scheme.in === 'cookie' ? out.cookies : out.headers;
      where[scheme.in === 'header' || scheme.in === undefined ? (scheme.parameterName ?? name).toLowerCase() : (scheme.parameterName ?? name)] = MOCK_CREDENTIAL.apiKey;
    } else if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') {
      out.headers.authorization = `Basic ${Buffer.from(`${MOCK_CREDENTIAL.user}:${MOCK_CREDENTIAL.password}`).toString('base64')}`;
    } else if (scheme.type === 'http' && scheme.scheme !== undefined && scheme.scheme.toLowerCase() !== 'bearer') {
      out.headers.authorization = `${scheme.scheme} ${MOCK_CREDENTIAL.token}`;
    } else if (scheme.type !== 'mutualTLS') {
      out.headers.authorization = `Bearer ${MOCK_CREDENTIAL.token}`;
    }
  }
  return out;
}
