/**
 * Authorization server metadata (RFC 8414): where the token and device authorization
 * endpoints are, read from the document a Security Scheme's `oauth2MetadataUrl` names.
 */
import { OAuthError, requestJson, type EndpointOptions } from './oauth-endpoint.js';
import { withoutTrailing } from '@bank-data-sharing/wire';

export interface AuthorizationServerMetadata {
  readonly issuer: string;
  readonly tokenEndpoint: string;
  /** RFC 8628's endpoint; undefined when the server does not offer the device authorization grant. */
  readonly deviceAuthorizationEndpoint: string | undefined;
  /** The whole document, for members not read here. */
  readonly document: Readonly<Record<string, unknown>>;
}

const WELL_KNOWN = '/.well-known/oauth-authorization-server';
const OPENID_WELL_KNOWN = '/.well-known/openid-configuration';

/**
 * The issuer a metadata URL of the well-known forms belongs to (RFC 8414 §3.1, and OpenID
 * Discovery's suffix form); undefined for another URL, whose issuer cannot be worked out.
 */
export function expectedIssuer(metadataUrl: string): string | undefined {
  const url = new URL(metadataUrl);
  const path = url.pathname;
  if (path === WELL_KNOWN || path.startsWith(`${WELL_KNOWN}/`)) return `${url.origin}${path.slice(WELL_KNOWN.length)}`;
  if (path.endsWith(OPENID_WELL_KNOWN)) return `${url.origin}${path.slice(0, -OPENID_WELL_KNOWN.length)}`;
  return undefined;
}

/** Trailing slashes aside, as issuers are written both ways in practice. */
export function sameIssuer(a: string, b: string): boolean {
  return withoutTrailing(a, '/') === withoutTrailing(b, '/');
}

function endpointMember(document: Record<string, unknown>, member: string, url: string, required: boolean): string | undefined {
  const value = document[member];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new OAuthError({ endpoint: url, message: `authorization server metadata at ${url}: ${member} must be an http(s) URL (a string)${value === undefined ? ', and it is missing' : ''}` });
  }
  return value;
}

/**
 * Fetches and checks an authorization server's metadata: a JSON object with a string
 * `issuer` (matching the URL, for the well-known forms: a mix-up defence), `token_endpoint`,
 * and `device_authorization_endpoint` when present. Fails with an `OAuthError` naming the URL.
 *
 * @example
 * const meta = await authorizationServerMetadata('https://auth.example.com/.well-known/oauth-authorization-server');
 * meta.deviceAuthorizationEndpoint; // 'https://auth.example.com/device'
 */
export async function authorizationServerMetadata(url: string, options: EndpointOptions = {}): Promise<AuthorizationServerMetadata> {
  if (!URL.canParse(url)) throw new OAuthError({ endpoint: url, message: `authorization server metadata: "${url}" is not an absolute URL` });
  const what = 'authorization server metadata';
  const answer = await requestJson(url, { method: 'GET' }, what, options);
  if (answer.status !== 200) throw new OAuthError({ endpoint: url, status: answer.status, message: `${what}: ${url} answered HTTP ${answer.status}` });
  const document = answer.body;
  const issuer = document['issuer'];
  if (typeof issuer !== 'string' || issuer === '') throw new OAuthError({ endpoint: url, message: `${what} at ${url}: issuer must be a non-empty string` });
  const expected = expectedIssuer(url);
  if (expected !== undefined && !sameIssuer(issuer, expected)) {
    throw new OAuthError({ endpoint: url, message: `${what} at ${url}: issuer "${issuer}" is not the one the URL belongs to ("${expected}", RFC 8414 §3.3)` });
  }
  return {
    issuer,
    tokenEndpoint: endpointMember(document, 'token_endpoint', url, true)!,
    deviceAuthorizationEndpoint: endpointMember(document, 'device_authorization_endpoint', url, false),
    document,
  };
}
