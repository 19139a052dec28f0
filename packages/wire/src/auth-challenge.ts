/**
 * What a 401 says: the `WWW-Authenticate` challenges of the schemes an operation accepts
 * (RFC 9110 §11.6.1) and a message worded for the credential that is missing or refused.
 * Shared by the server stubs' router, the mock server (which runs on it) and the MSW handlers.
 *
 * One challenge per kind of credential, in the order the operation's requirements name them:
 * - `http` `basic`: `Basic realm="<realm>"` (RFC 7617; the realm is required);
 * - `http` `bearer`, `oauth2`, `openIdConnect`: `Bearer` (RFC 6750 §3), with
 *   `error="invalid_token"` when a token was sent and refused (§3.1);
 * - any other `http` scheme: `<Scheme> realm="<realm>"`;
 * - `apiKey`: no challenge is standardised, yet a 401 must carry one (RFC 9110 §15.5.2). It
 *   gets `ApiKey realm="<realm>", in="<header|query|cookie>", name="<name>"`: an auth scheme
 *   of our own (not registered), which a client can read to learn where the key goes;
 * - `mutualTLS`: none (a certificate travels in the TLS handshake). An operation accepting
 *   nothing else is answered with `Bearer`, the only challenge answered before, so that the
 *   header is never missing.
 */

/** How a security scheme carries its credential (the parts read here). */
export interface ChallengeScheme {
  /** `http`, `apiKey`, `oauth2`, `openIdConnect` or `mutualTLS`. */
  readonly type: string;
  /** For `http`: `bearer`, `basic`, ... */
  readonly scheme?: string;
  /** For `apiKey`: `header`, `query` or `cookie`. */
  readonly in?: string;
  /** For `apiKey`: the header, query or cookie name. */
  readonly name?: string;
}

/** One security requirement: scheme name to the scopes it needs. */
type Requirement = { readonly [scheme: string]: readonly string[] };

/** The kind of credential a scheme asks for, which decides its challenge and its wording. */
export type CredentialKind = 'token' | 'basic' | 'apiKey' | 'certificate' | 'otherHttp';

/** A scheme name the file does not declare is taken as HTTP bearer, as everywhere else. */
const UNDECLARED: ChallengeScheme = { type: 'http', scheme: 'bearer' };

/** The kind of credential `scheme` asks for. */
export function credentialKind(scheme: ChallengeScheme | undefined): CredentialKind {
  const s = scheme ?? UNDECLARED;
  if (s.type === 'apiKey') return 'apiKey';
  if (s.type === 'mutualTLS') return 'certificate';
  if (s.type === 'http') {
    const http = (s.scheme ?? 'bearer').toLowerCase();
    if (http === 'basic') return 'basic';
    return http === 'bearer' ? 'token' : 'otherHttp';
  }
  return 'token';
}

/**
 * An RFC 9110 §5.6.4 quoted-string of visible ASCII. A header cannot carry characters past
 * Latin-1 (Node and browsers throw on them), and obs-text is read differently by each client,
 * so accents are dropped from their letters (`Musée` -> `Musee`), any other character outside
 * visible ASCII becomes `?`, control characters go (a line break is a space), and `"` and `\`
 * are escaped.
 */
function quoted(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\t\r\n]+/g, ' ')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[^\x20-\x7e]/gu, '?');
  return `"${ascii.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function apiKeyPlace(scheme: ChallengeScheme): 'header' | 'query' | 'cookie' {
  return scheme.in === 'query' ? 'query' : scheme.in === 'cookie' ? 'cookie' : 'header';
}

function challengeOf(scheme: ChallengeScheme, realm: string, refused: boolean): string | undefined {
  switch (credentialKind(scheme)) {
    case 'basic':
      return `Basic realm=${quoted(realm)}`;
    case 'token':
      return refused ? 'Bearer error="invalid_token"' : 'Bearer';
    case 'apiKey':
      return `ApiKey realm=${quoted(realm)}, in=${quoted(apiKeyPlace(scheme))}, name=${quoted(scheme.name ?? '')}`;
    case 'otherHttp':
      return `${scheme.scheme} realm=${quoted(realm)}`;
    default:
      return undefined;
  }
}

/** The schemes `requirements` name, each once, in order of appearance. */
function acceptedSchemes(requirements: readonly Requirement[], schemes: { readonly [name: string]: ChallengeScheme }): Array<[string, ChallengeScheme]> {
  const seen = new Set<string>();
  const out: Array<[string, ChallengeScheme]> = [];
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      if (seen.has(name)) continue;
      seen.add(name);
      out.push([name, schemes[name] ?? UNDECLARED]);
    }
  }
  return out;
}

/**
 * The `WWW-Authenticate` value for a 401 of an operation with `requirements`: each distinct
 * challenge once, comma-separated in one field (RFC 9110 §11.6.1). `refused` names the scheme
 * whose credential was sent and refused (its bearer challenge then says `invalid_token`).
 *
 * @example
 * authChallenges([{ basicAuth: [] }, { oauth: ['read'] }], schemes, { realm: 'Museum API' })
 * // 'Basic realm="Museum API", Bearer'
 */
export function authChallenges(
  requirements: readonly Requirement[],
  schemes: { readonly [name: string]: ChallengeScheme },
  options: { readonly realm: string; readonly refused?: string },
): string {
  const challenges: string[] = [];
  for (const [name, scheme] of acceptedSchemes(requirements, schemes)) {
    const challenge = challengeOf(scheme, options.realm, name === options.refused);
    if (challenge !== undefined && !challenges.includes(challenge)) challenges.push(challenge);
  }
  // Two bearer schemes, one refused: one Bearer challenge, the one that says why.
  if (challenges.includes('Bearer') && challenges.includes('Bearer error="invalid_token"')) challenges.splice(challenges.indexOf('Bearer'), 1);
  return challenges.length > 0 ? challenges.join(', ') : 'Bearer';
}

function wanted(scheme: ChallengeScheme): string | undefined {
  switch (credentialKind(scheme)) {
    case 'basic':
      return 'HTTP Basic credentials';
    case 'token':
      return 'an access token';
    case 'apiKey':
      return `an API key in ${apiKeyPlace(scheme)} ${scheme.name ?? ''}`.trimEnd();
    case 'otherHttp':
      return `${scheme.scheme} credentials`;
    default:
      return undefined;
  }
}

/**
 * The failure for a request that sent no credential: `missingToken` (`AccessToken.Missing`)
 * where the operation accepts only access tokens (as every operation of this API family does),
 * `missingCredentials` (`Credentials.Missing`) where it accepts another kind (HTTP Basic, an
 * API key, a certificate), so that a body carrying the code does not ask for a token the
 * operation does not take.
 */
export function missingCredentialFailure(requirements: readonly Requirement[], schemes: { readonly [name: string]: ChallengeScheme }): 'missingToken' | 'missingCredentials' {
  const kinds = requirements.flatMap((requirement) => Object.keys(requirement)).map((name) => credentialKind(schemes[name]));
  return kinds.every((kind) => kind === 'token') ? 'missingToken' : 'missingCredentials';
}

/**
 * The message of a 401 for a request that sent no credential the operation accepts:
 * `No access token`, `No credentials` (HTTP Basic), `No API key in header X-Api-Key`, or,
 * where several kinds are accepted, `No credentials (send an access token or ...)`.
 */
export function missingCredentialsMessage(requirements: readonly Requirement[], schemes: { readonly [name: string]: ChallengeScheme }): string {
  const accepted = acceptedSchemes(requirements, schemes).map(([, scheme]) => scheme);
  const wants = [...new Set(accepted.map(wanted).filter((w): w is string => w !== undefined))];
  if (wants.length === 1) {
    const kind = credentialKind(accepted.find((s) => wanted(s) === wants[0]));
    if (kind === 'token') return 'No access token';
    if (kind === 'basic') return 'No credentials';
    if (kind === 'apiKey') return `No API key${wants[0]!.slice('an API key'.length)}`;
    return `No ${wants[0]}`;
  }
  if (wants.length === 0) return 'No access token';
  return `No credentials (send ${wants.slice(0, -1).join(', ')} or ${wants.at(-1)})`;
}

/** The message of a 401 for a credential of `scheme` that was sent and refused. */
export function refusedCredentialMessage(scheme: ChallengeScheme | undefined): string {
  switch (credentialKind(scheme)) {
    case 'basic':
    case 'otherHttp':
      return 'The credentials are not valid';
    case 'apiKey':
      return 'The API key is not valid';
    case 'certificate':
      return 'The client certificate is not accepted';
    default:
      return 'The access token is not valid';
  }
}
