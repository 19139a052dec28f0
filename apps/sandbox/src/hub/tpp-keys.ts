/**
 * Public keys of TPPs, used to verify their signed request bodies (the consent patch and
 * attestations). In production they come from the directory; the sandbox takes them at
 * start and through `POST /sandbox/tpp-keys`.
 */
import { createLocalJWKSet, type JWK, type JWTVerifyGetKey } from 'jose';

/** Algorithms accepted on signed TPP bodies (FAPI's PS256 and ES256). */
export const TPP_SIGNING_ALGORITHMS = ['PS256', 'ES256'] as const;

/** The registered TPP keys and a jose key resolver over them. */
export interface TppKeyRegistry {
  /** Adds a public key; returns its `kid`. Throws on a private key or a key without `kid`. */
  add(jwk: JWK): string;
  /** Every registered public key. */
  list(): JWK[];
  /** For `verification.key`: picks the registered key the JWS header names. */
  readonly resolve: JWTVerifyGetKey;
}

/** Members only a private JWK has. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k'] as const;

/** Creates an empty registry. */
export function createTppKeyRegistry(): TppKeyRegistry {
  const keys = new Map<string, JWK>();
  let resolver: JWTVerifyGetKey | undefined;
  return {
    add(jwk) {
      if (typeof jwk.kid !== 'string' || jwk.kid === '') throw new TypeError('a TPP key needs a kid');
      if (PRIVATE_MEMBERS.some((member) => member in jwk)) throw new TypeError('send the public key only');
      keys.set(jwk.kid, structuredClone(jwk));
      resolver = undefined; // rebuilt on next use with the new key
      return jwk.kid;
    },
    list: () => [...keys.values()].map((jwk) => structuredClone(jwk)),
    resolve: (header, token) => {
      resolver ??= createLocalJWKSet({ keys: [...keys.values()] });
      return resolver(header, token);
    },
  };
}
