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

/** Where a scheme's credential goes: a header (lower-case name), query or cookie name. */
export interface CredentialPlace {
  readonly in: 'header' | 'query' | 'cookie';
  readonly name: string;
}

/** Undefined for mutual TLS: a certificate travels in the TLS handshake, not the request. */
export function credentialPlace(scheme: SecuritySchemeIR): CredentialPlace | undefined {
  if (scheme.type === 'apiKey') {
    const where = scheme.in === 'query' ? 'query' : scheme.in === 'cookie' ? 'cookie' : 'header';
    const name = scheme.parameterName ?? scheme.name;
    return { in: where, name: where === 'header' ? name.toLowerCase() : name };
  }
  if (scheme.type === 'mutualTLS') return undefined;
  return { in: 'header', name: 'authorization' };
}

/** The text a credential goes as: `Bearer <token>`, `Basic <base64 of user:password>`, `<Scheme> <token>`, or the key itself. */
export function credentialText(scheme: SecuritySchemeIR, credential: string): string {
  if (scheme.type === 'apiKey') return credential;
  const http = scheme.type === 'http' ? (scheme.scheme ?? 'bearer').toLowerCase() : 'bearer';
  if (http === 'basic') return `Basic ${Buffer.from(credential).toString('base64')}`;
  if (http === 'bearer') return `Bearer ${credential}`;
  return `${scheme.scheme} ${credential}`;
}

/** Whether an operation can be called without credentials (no requirement, or `{}` among them). */
export function securityOptional(requirements: ReadonlyArray<Readonly<Record<string, readonly string[]>>>): boolean {
  return requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0);
}

/**
 * The credentials of one security requirement, each scheme's where it travels; a scheme
 * `credentialFor` has nothing for is left out. A name the file does not declare is taken as
 * an HTTP bearer scheme.
 */
export function placeCredentials(
  requirement: Readonly<Record<string, readonly string[]>>,
  schemes: readonly SecuritySchemeIR[],
  credentialFor: (scheme: SecuritySchemeIR) => string | undefined,
): RequestCredentials {
  const out: RequestCredentials = { headers: {}, query: {}, cookies: {} };
  const byName = new Map(schemes.map((s) => [s.name, s]));
  for (const name of Object.keys(requirement)) {
    const scheme = byName.get(name) ?? { name, type: 'http', scheme: 'bearer' };
    const place = credentialPlace(scheme);
    const credential = credentialFor(scheme);
    if (!place || credential === undefined) continue;
    const target = place.in === 'header' ? out.headers : place.in === 'query' ? out.query : out.cookies;
    target[place.name] = credentialText(scheme, credential);
  }
  return out;
}

/** The mock's value for a scheme: a key, `user:password` for HTTP basic, else a token. */
function placeholder(scheme: SecuritySchemeIR): string {
  if (scheme.type === 'apiKey') return MOCK_CREDENTIAL.apiKey;
  if (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic') return `${MOCK_CREDENTIAL.user}:${MOCK_CREDENTIAL.password}`;
  return MOCK_CREDENTIAL.token;
}

/**
 * Credentials that satisfy one of `requirements` (the first that asks for something): each
 * scheme's credential where the scheme says it travels. Nothing for an operation without
 * security.
 *
 * @example
 * credentialsFor([{ OAuth2: ['accounts'] }], schemes).headers // { authorization: 'Bearer mock-token' }
 */
export function credentialsFor(requirements: ReadonlyArray<Readonly<Record<string, readonly string[]>>>, schemes: readonly SecuritySchemeIR[]): RequestCredentials {
  // `{}` among the alternatives makes security optional: send nothing.
  if (securityOptional(requirements)) return { headers: {}, query: {}, cookies: {} };
  return placeCredentials(requirements[0]!, schemes, placeholder);
}
