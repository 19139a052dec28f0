/**
 * Credentials for the requests of a run, from `--auth` (by security scheme name), placed
 * where each scheme says they travel; and where credentials can travel, so that a negative
 * case can send a request without them.
 */
import type { SecurityRequirementIR, SecuritySchemeIR } from '../ir/types.js';
import { credentialPlace, placeCredentials, securityOptional, type CredentialPlace, type RequestCredentials } from '../mock/credentials.js';

export { credentialPlace, securityOptional, type CredentialPlace } from '../mock/credentials.js';

/**
 * Credentials for the first alternative of `requirements` that `auth` covers entirely; the
 * names of the schemes left without a credential when none is covered.
 */
export function credentialsFromAuth(
  requirements: readonly SecurityRequirementIR[],
  schemes: readonly SecuritySchemeIR[],
  auth: Readonly<Record<string, string>>,
): { credentials: RequestCredentials; missing: readonly string[] } {
  const none: RequestCredentials = { headers: {}, query: {}, cookies: {} };
  if (securityOptional(requirements)) return { credentials: none, missing: [] };
  const byName = new Map(schemes.map((s) => [s.name, s]));
  const credentialFor = (name: string) => auth[name] ?? auth['*'];
  const covered = requirements.find((r) => Object.keys(r).every((name) => credentialFor(name) !== undefined || byName.get(name)?.type === 'mutualTLS'));
  if (!covered) return { credentials: none, missing: Object.keys(requirements[0]!).filter((name) => credentialFor(name) === undefined && byName.get(name)?.type !== 'mutualTLS') };
  return { credentials: placeCredentials(covered, schemes, (scheme) => credentialFor(scheme.name)), missing: [] };
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
