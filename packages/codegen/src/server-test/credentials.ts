/**
 * Credentials for the requests of a run, from `--auth` (by security scheme name), placed
 * where each scheme says they travel; and where credentials can travel, so that a negative
 * case can send a request without them.
 */
import type { SecurityRequirementIR, SecuritySchemeIR } from '../ir/types.js';
import type { RequestCredentials } from '../mock/credentials.js';

/** Where a scheme's credential goes: a header, query or cookie name. */
export interface CredentialPlace {
  readonly in: 'header' | 'query' | 'cookie';
  readonly name: string;
}

export function credentialPlace(scheme: SecuritySchemeIR): CredentialPlace | undefined {
  if (scheme.type === 'apiKey') {
    const where = scheme.in === 'query' ? 'query' : scheme.in === 'cookie' ? 'cookie' : 'header';
    const name = scheme.parameterName ?? scheme.name;
    return { in: where, name: where === 'header' ? name.toLowerCase() : name };
  }
  if (scheme.type === 'mutualTLS') return undefined;
  return { in: 'header', name: 'authorization' };
}

/** The text a credential goes as: `Bearer <token>`, `Basic <base64>`, or the key itself. */
function credentialText(scheme: SecuritySchemeIR, credential: string): string {
  if (scheme.type === 'apiKey') return credential;
  const http = scheme.type === 'http' ? (scheme.scheme ?? 'bearer').toLowerCase() : 'bearer';
  if (http === 'basic') return `Basic ${Buffer.from(credential).toString('base64')}`;
  if (http === 'bearer') return `Bearer ${credential}`;
  return `${scheme.scheme} ${credential}`;
}

/** Whether the operation can be called without credentials (no requirement, or `{}` among them). */
export function securityOptional(requirements: readonly SecurityRequirementIR[]): boolean {
  return requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0);
}

/**
 * Credentials for the first alternative of `requirements` that `auth` covers entirely; the
 * names of the schemes left without a credential when none is covered.
 */
export function credentialsFromAuth(
  requirements: readonly SecurityRequirementIR[],
  schemes: readonly SecuritySchemeIR[],
  auth: Readonly<Record<string, string>>,
): { credentials: RequestCredentials; missing: readonly string[] } {
  const out: RequestCredentials = { headers: {}, query: {}, cookies: {} };
  if (securityOptional(requirements)) return { credentials: out, missing: [] };
  const byName = new Map(schemes.map((s) => [s.name, s]));
  const credentialFor = (name: string) => auth[name] ?? auth['*'];
  const covered = requirements.find((r) => Object.keys(r).every((name) => credentialFor(name) !== undefined || byName.get(name)?.type === 'mutualTLS'));
  if (!covered) return { credentials: out, missing: Object.keys(requirements[0]!).filter((name) => credentialFor(name) === undefined && byName.get(name)?.type !== 'mutualTLS') };
  for (const name of Object.keys(covered)) {
    const scheme = byName.get(name) ?? { name, type: 'http', scheme: 'bearer' };
    const place = credentialPlace(scheme);
    const credential = credentialFor(name);
    if (!place || credential === undefined) continue;
    const target = place.in === 'header' ? out.headers : place.in === 'query' ? out.query : out.cookies;
    target[place.name] = credentialText(scheme, credential);
  }
  return { credentials: out, missing: [] };
}

/** Every place a credential of the operation's schemes can travel (to leave them all out). */
export function credentialPlaces(requirements: readonly SecurityRequirementIR[], schemes: readonly SecuritySchemeIR[]): CredentialPlace[] {
  const byName = new Map(schemes.map((s) => [s.name, s]));
  const places = new Map<string, CredentialPlace>();
  for (const requirement of requirements) {
    for (const name of Object.keys(requirement)) {
      const place = credentialPlace(byName.get(name) ?? { name, type: 'http', scheme: 'bearer' });
      if (place) places.set(`${place.in}:${place.name}`, place);
    }
  }
  return [...places.values()];
}
