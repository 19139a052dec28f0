/**
 * Credentials of every OpenAPI security scheme type: which alternative of an operation's
 * `security` the client can satisfy with what it holds, and where each credential goes
 * (a header, a query parameter, a cookie, or `Authorization`). Bearer tokens of the `tokens`
 * provider are not placed here: the executor asks for them per attempt (and again after a
 * 401), so this module only says which schemes they serve.
 */
import { isHeaderText } from '@bank-data-sharing/wire';
import { RequestError } from './errors.js';
import type { SecurityRequirements } from './types.js';

/** How a scheme carries its credential: the generated client's `securitySchemes`. */
export interface SecuritySchemeInfo {
  /** `apiKey`, `http`, `oauth2`, `openIdConnect` or `mutualTLS`. */
  readonly type: string;
  /** For `http`: `basic`, `bearer` or another HTTP authentication scheme, in lower case. */
  readonly scheme?: string;
  /** For `apiKey`: `header`, `query` or `cookie`. */
  readonly in?: string;
  /** For `apiKey`: the header, query parameter or cookie name. */
  readonly name?: string;
  /** OpenAPI 3.2: the spec marks the scheme as deprecated (the generated entry says so in its doc comment too). */
  readonly deprecated?: boolean;
  /** OpenAPI 3.2, for `oauth2`: where the authorization server's metadata (RFC 8414) is. */
  readonly oauth2MetadataUrl?: string;
  /** For `oauth2`: the flows a token provider runs (generated clients carry `deviceAuthorization`). */
  readonly flows?: OAuthFlowsInfo;
}

/** One OAuth 2 flow's endpoints and scopes, as the spec's OAuth Flow Object gives them. */
export interface OAuthFlowInfo {
  readonly authorizationUrl?: string;
  /** OpenAPI 3.2's `deviceAuthorization` flow: the device authorization endpoint (RFC 8628). */
  readonly deviceAuthorizationUrl?: string;
  readonly tokenUrl?: string;
  readonly refreshUrl?: string;
  /** The scope names the flow offers. */
  readonly scopes?: readonly string[];
}

/** The OAuth Flows Object by flow name. */
export interface OAuthFlowsInfo {
  readonly implicit?: OAuthFlowInfo;
  readonly password?: OAuthFlowInfo;
  readonly clientCredentials?: OAuthFlowInfo;
  readonly authorizationCode?: OAuthFlowInfo;
  readonly deviceAuthorization?: OAuthFlowInfo;
}

/** The credential of an `http` `basic` scheme, sent as `Authorization: Basic base64(user:password)`. */
export interface BasicCredentials {
  readonly username: string;
  readonly password: string;
}

/** A credential, or a function giving it per call (rotating keys); `undefined` means "not held now". */
export type CredentialSource<T> = T | (() => T | undefined | Promise<T | undefined>);

/**
 * The credential a scheme takes: a string for API keys, bearer tokens (`http` bearer,
 * `oauth2`, `openIdConnect`) and other HTTP schemes; `{ username, password }` for `http` basic.
 * `mutualTLS` takes none here: its certificate is the transport's (`dispatcher`).
 */
export type CredentialOf<S> = S extends { readonly type: infer T }
  ? string extends T
    ? string | BasicCredentials
    : T extends 'mutualTLS'
      ? never
      : S extends { readonly type: 'http'; readonly scheme: 'basic' }
        ? BasicCredentials
        : string
  : string | BasicCredentials;

/** The `credentials` client option, typed from the spec's scheme names. */
export type CredentialsFor<Schemes> = {
  [K in keyof Schemes]?: [CredentialOf<Schemes[K]>] extends [never] ? never : CredentialSource<CredentialOf<Schemes[K]>>;
};

/** Untyped credentials, scheme name to credential. */
export type Credentials = Readonly<Record<string, CredentialSource<string | BasicCredentials> | undefined>>;

/** Where one alternative's credentials go. Header names are lower case. */
export interface Placement {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: ReadonlyArray<readonly [name: string, value: string]>;
  readonly cookies: ReadonlyArray<readonly [name: string, value: string]>;
}

/** The alternative chosen for one call. */
export interface SecurityPlan {
  readonly placement: Placement;
  /**
   * The requirement the `tokens` provider serves (its bearer schemes and their scopes), or
   * an empty list when this call sends no provider token.
   */
  readonly tokenSecurity: SecurityRequirements;
}

const NO_REQUIREMENTS: SecurityRequirements = Object.freeze([]);
const NO_PLACEMENT: Placement = Object.freeze({ headers: Object.freeze({}), query: Object.freeze([]), cookies: Object.freeze([]) });
const ANONYMOUS: SecurityPlan = Object.freeze({ placement: NO_PLACEMENT, tokenSecurity: NO_REQUIREMENTS });

/** A scheme the client knows nothing of is read as a bearer token, as the server runtime reads it. */
const UNKNOWN_SCHEME: SecuritySchemeInfo = { type: 'http', scheme: 'bearer' };

/** The `tokens` provider serves these: they all travel as `Authorization: Bearer <token>`. */
function takesBearerToken(scheme: SecuritySchemeInfo): boolean {
  return scheme.type === 'oauth2' || scheme.type === 'openIdConnect' || (scheme.type === 'http' && (scheme.scheme ?? 'bearer').toLowerCase() === 'bearer');
}

/** Where a scheme's credential comes from in one alternative. */
type Source = { kind: 'value'; value: unknown } | { kind: 'token' } | { kind: 'transport' };

interface Entry {
  readonly name: string;
  readonly scheme: SecuritySchemeInfo;
  readonly source: Source;
}

/** An alternative the client holds every credential of (before their values are known). */
interface Candidate {
  readonly entries: readonly Entry[];
  /** The bearer schemes the `tokens` provider serves, with their scopes. */
  readonly tokenSecurity: SecurityRequirements;
}

function nonEmptyString(value: unknown, scheme: string, what: string, operationId: string): string {
  if (typeof value !== 'string' || value === '') throw new RequestError(`${operationId}: the credential of security scheme "${scheme}" must be ${what} (a non-empty string)`);
  return value;
}

function headerText(value: string, scheme: string, operationId: string): string {
  if (!isHeaderText(value)) {
    throw new RequestError(`${operationId}: the credential of security scheme "${scheme}" cannot travel in a header: it holds a line break, a control or non-Latin-1 character, or whitespace at an end`);
  }
  return value;
}

/** Base64 of the UTF-8 bytes of `text` (RFC 7617 §2.1 with charset UTF-8), without Node's Buffer. */
function base64Utf8(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `Basic base64(user:password)`; a colon in the user name would shift the split (RFC 7617 §2). */
export function basicAuthorization(value: unknown, scheme: string, operationId: string): string {
  const credentials = value as Partial<BasicCredentials> | null;
  if (credentials === null || typeof credentials !== 'object' || typeof credentials.username !== 'string' || typeof credentials.password !== 'string') {
    throw new RequestError(`${operationId}: the credential of security scheme "${scheme}" (http basic) must be { username, password } with string values`);
  }
  if (credentials.username.includes(':')) throw new RequestError(`${operationId}: the user name of security scheme "${scheme}" (http basic) must not contain ":"`);
  return `Basic ${base64Utf8(`${credentials.username}:${credentials.password}`)}`;
}

/** `Authorization` text of an `http` scheme other than basic: `Bearer <token>`, or `<scheme> <credential>`. */
function schemeAuthorization(authScheme: string, value: unknown, scheme: string, operationId: string): string {
  const credential = headerText(nonEmptyString(value, scheme, 'a token or credential text', operationId), scheme, operationId);
  return `${authScheme.toLowerCase() === 'bearer' ? 'Bearer' : authScheme} ${credential}`;
}

/** Marks the `Authorization` header the executor fills with the provider's token. */
const PROVIDER_TOKEN = '\u0000provider-token';

type Spot = { kind: 'header' | 'query' | 'cookie'; name: string; value: string } | undefined;

/** Where one scheme's credential goes; undefined for `mutualTLS` (the transport carries it). */
function spotOf(entry: Entry, value: unknown, operationId: string): Spot {
  const { scheme, name } = entry;
  if (entry.source.kind === 'transport') return undefined;
  if (entry.source.kind === 'token') return { kind: 'header', name: 'authorization', value: PROVIDER_TOKEN };
  switch (scheme.type) {
    case 'apiKey': {
      const key = nonEmptyString(value, name, 'an API key', operationId);
      const where = scheme.in ?? 'header';
      if (where === 'query' || where === 'cookie') return { kind: where, name: scheme.name ?? name, value: key };
      return { kind: 'header', name: (scheme.name ?? name).toLowerCase(), value: headerText(key, name, operationId) };
    }
    case 'http': {
      const authScheme = scheme.scheme ?? 'bearer';
      const text = authScheme.toLowerCase() === 'basic' ? basicAuthorization(value, name, operationId) : schemeAuthorization(authScheme, value, name, operationId);
      return { kind: 'header', name: 'authorization', value: text };
    }
    default:
      // oauth2, openIdConnect, and types this runtime does not know: a bearer token.
      return { kind: 'header', name: 'authorization', value: schemeAuthorization('bearer', value, name, operationId) };
  }
}

/**
 * Where an alternative's credentials go, or undefined when two of them need the same spot
 * with different values (`basic` and `bearer` both in `Authorization`): such an alternative
 * cannot be sent, and the next one is tried.
 */
function placementOf(candidate: Candidate, values: ReadonlyMap<string, unknown>, operationId: string): Placement | undefined {
  const headers: Record<string, string> = {};
  const query = new Map<string, string>();
  const cookies = new Map<string, string>();
  for (const entry of candidate.entries) {
    const spot = spotOf(entry, values.get(entry.name), operationId);
    if (!spot) continue;
    const taken = spot.kind === 'header' ? headers[spot.name] : (spot.kind === 'query' ? query : cookies).get(spot.name);
    if (taken !== undefined && taken !== spot.value) return undefined;
    if (spot.kind === 'header') {
      // The provider's token is set by the executor, per attempt.
      if (spot.value !== PROVIDER_TOKEN) headers[spot.name] = spot.value;
      else headers[spot.name] ??= PROVIDER_TOKEN;
    } else (spot.kind === 'query' ? query : cookies).set(spot.name, spot.value);
  }
  if (headers['authorization'] === PROVIDER_TOKEN) delete headers['authorization'];
  return { headers, query: [...query], cookies: [...cookies] };
}

/** "apiKey_header; basic + oauth2": the alternatives, for error messages. */
function describeAlternatives(security: SecurityRequirements): string {
  return security.map((requirement) => Object.keys(requirement).join(' + ')).join('; ');
}

function unsatisfiable(security: SecurityRequirements, clashing: readonly Candidate[], operationId: string): RequestError {
  const clash =
    clashing.length > 0
      ? `; held but not sendable in one request (two credentials for the same header, query parameter or cookie): ${clashing.map((c) => c.entries.map((e) => e.name).join(' + ')).join('; ')}`
      : '';
  return new RequestError(
    `${operationId}: no security alternative of the operation can be sent with the credentials the client holds; it needs one of: ${describeAlternatives(security)}${clash} (give them in the client's \`credentials\` option, or bearer tokens through \`tokens\`)`,
  );
}

export interface SecurityPlanner {
  /**
   * The first alternative of `security` the client holds every credential of, and where they
   * go; a promise when a credential comes from a function. Throws (or rejects with) a
   * `RequestError` naming the schemes needed when no alternative can be sent.
   */
  plan(security: SecurityRequirements, operationId: string): SecurityPlan | Promise<SecurityPlan>;
}

/**
 * Chooses and places credentials for a client. `credentials` maps scheme names to values;
 * `hasTokens` says the `tokens` provider serves bearer schemes without a value of their own.
 *
 * @example
 * const planner = securityPlanner({ key: { type: 'apiKey', in: 'header', name: 'X-API-KEY' } }, { key: 'k-1' }, false);
 * planner.plan([{ key: [] }], 'getThing'); // { placement: { headers: { 'x-api-key': 'k-1' }, ... }, ... }
 */
export function securityPlanner(schemes: Readonly<Record<string, SecuritySchemeInfo>>, credentials: Credentials | undefined, hasTokens: boolean): SecurityPlanner {
  // Without `credentials` the choice depends on the requirement list alone: work it out once per list.
  const remembered = new WeakMap<SecurityRequirements, SecurityPlan>();
  const tokenLists = new WeakMap<object, SecurityRequirements>();

  function schemeOf(name: string): SecuritySchemeInfo {
    return Object.prototype.hasOwnProperty.call(schemes, name) ? schemes[name]! : UNKNOWN_SCHEME;
  }

  function sourceOf(name: string, scheme: SecuritySchemeInfo): Source | undefined {
    const value = credentials && Object.prototype.hasOwnProperty.call(credentials, name) ? credentials[name] : undefined;
    if (value !== undefined) return { kind: 'value', value };
    if (scheme.type === 'mutualTLS') return { kind: 'transport' };
    if (hasTokens && takesBearerToken(scheme)) return { kind: 'token' };
    return undefined;
  }

  /** The requirement the provider is asked for: its token schemes and their scopes, one list per requirement. */
  function tokenSecurityOf(requirement: Readonly<Record<string, readonly string[]>>, entries: readonly Entry[]): SecurityRequirements {
    const tokenEntries = entries.filter((e) => e.source.kind === 'token');
    if (tokenEntries.length === 0) return NO_REQUIREMENTS;
    let list = tokenLists.get(requirement);
    if (!list) {
      list = [Object.fromEntries(tokenEntries.map((e) => [e.name, requirement[e.name] ?? []]))];
      tokenLists.set(requirement, list);
    }
    return list;
  }

  /** The alternatives the client holds every credential of, in order, up to the first anonymous one. */
  function candidates(security: SecurityRequirements): Candidate[] {
    const out: Candidate[] = [];
    for (const requirement of security) {
      const names = Object.keys(requirement);
      if (names.length === 0) {
        out.push({ entries: [], tokenSecurity: NO_REQUIREMENTS });
        break;
      }
      const entries: Entry[] = [];
      for (const name of names) {
        const scheme = schemeOf(name);
        const source = sourceOf(name, scheme);
        if (!source) break;
        entries.push({ name, scheme, source });
      }
      if (entries.length === names.length) out.push({ entries, tokenSecurity: tokenSecurityOf(requirement, entries) });
    }
    return out;
  }

  function planOf(candidate: Candidate, values: ReadonlyMap<string, unknown>, operationId: string): SecurityPlan | undefined {
    if (candidate.entries.length === 0) return ANONYMOUS;
    const placement = placementOf(candidate, values, operationId);
    return placement ? { placement, tokenSecurity: candidate.tokenSecurity } : undefined;
  }

  async function planWaiting(list: readonly Candidate[], security: SecurityRequirements, operationId: string): Promise<SecurityPlan> {
    const values = new Map<string, unknown>();
    const clashing: Candidate[] = [];
    next: for (const candidate of list) {
      for (const entry of candidate.entries) {
        if (entry.source.kind !== 'value' || values.has(entry.name)) continue;
        let value = entry.source.value;
        if (typeof value === 'function') {
          try {
            value = await (value as () => unknown)();
          } catch (error) {
            const reason = error instanceof Error ? error.message : String(error);
            throw Object.assign(new RequestError(`${operationId}: could not get the credential of security scheme "${entry.name}": ${reason}`), { cause: error });
          }
        }
        values.set(entry.name, value);
        // A function that gives nothing means the credential is not held now.
        if (value === undefined) continue next;
      }
      if (candidate.entries.some((e) => e.source.kind === 'value' && values.get(e.name) === undefined)) continue;
      const plan = planOf(candidate, values, operationId);
      if (plan) return plan;
      clashing.push(candidate);
    }
    throw unsatisfiable(security, clashing, operationId);
  }

  return {
    plan(security, operationId) {
      if (security.length === 0) return ANONYMOUS;
      const known = remembered.get(security);
      if (known) return known;
      const list = candidates(security);
      if (list.some((c) => c.entries.some((e) => e.source.kind === 'value' && typeof e.source.value === 'function'))) {
        return planWaiting(list, security, operationId);
      }
      const values = new Map<string, unknown>();
      for (const candidate of list) for (const e of candidate.entries) if (e.source.kind === 'value') values.set(e.name, e.source.value);
      const clashing: Candidate[] = [];
      for (const candidate of list) {
        const plan = planOf(candidate, values, operationId);
        if (plan) {
          if (!credentials) remembered.set(security, plan);
          return plan;
        }
        clashing.push(candidate);
      }
      throw unsatisfiable(security, clashing, operationId);
    },
  };
}

/** `url` with each pair as a query parameter, replacing any of the same name already there. */
export function withQueryCredentials(url: string, pairs: Placement['query']): string {
  if (pairs.length === 0) return url;
  const hashAt = url.indexOf('#');
  const hash = hashAt >= 0 ? url.slice(hashAt) : '';
  const beforeHash = hashAt >= 0 ? url.slice(0, hashAt) : url;
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt >= 0 ? beforeHash.slice(0, queryAt) : beforeHash;
  const names = new Set(pairs.map(([name]) => name));
  const kept = (queryAt >= 0 ? beforeHash.slice(queryAt + 1) : '').split('&').filter((part) => {
    if (part === '') return false;
    const eq = part.indexOf('=');
    const rawName = eq >= 0 ? part.slice(0, eq) : part;
    let name: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
    } catch {
      return true;
    }
    return !names.has(name);
  });
  const added = pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return `${base}?${[...kept, ...added].join('&')}${hash}`;
}

/**
 * What a cookie value cannot carry as it is: anything but RFC 6265's cookie-octets, and `%`
 * (kept for percent-encoding, so a server that decodes reads the key back too).
 */
const NOT_COOKIE_OCTET = /[^\x21\x23\x24\x26-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]/gu;

/**
 * A credential as cookie text: as it is where it can be, since servers compare API keys
 * without decoding them (a base64 key's `+`, `/` and `=` encoded would be another key).
 */
function cookieText(value: string): string {
  return value.replace(NOT_COOKIE_OCTET, (char) => encodeURIComponent(char));
}

/** A `Cookie` header with each pair added (characters a cookie cannot carry percent-encoded), replacing any cookie of the same name. */
export function withCookieCredentials(cookie: string | undefined, pairs: Placement['cookies']): string | undefined {
  if (pairs.length === 0) return cookie;
  const names = new Set(pairs.map(([name]) => name));
  const kept = (cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '' && !names.has(part.slice(0, Math.max(0, part.indexOf('='))).trim()));
  return [...kept, ...pairs.map(([name, value]) => `${name}=${cookieText(value)}`)].join('; ');
}
