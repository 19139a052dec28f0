/**
 * The hub's response-signing key (section 2.1 signed bodies), made fresh at every start,
 * and the JWKS that publishes its public half.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose';
import type { SigningOptions } from '@bank-data-sharing/server-stubs/runtime';

/** A JSON Web Key Set, as served at `/.well-known/jwks.json`. */
export type Jwks = JSONWebKeySet;

/** The hub's signing configuration and the JWKS clients verify with. */
export interface HubKeys {
  readonly signing: SigningOptions;
  readonly jwks: Jwks;
}

/** Signing algorithms the sandbox can use; both are accepted by the generated client by default. */
export type SigningAlgorithm = 'ES256' | 'PS256';

/**
 * Generates a key pair and the signing options for the generated routers.
 *
 * @example
 * const keys = await createHubKeys({ issuer: 'http://127.0.0.1:4010' });
 * createRouter(handlers, { signing: keys.signing });
 */
export async function createHubKeys(options: { issuer: string; alg?: SigningAlgorithm; lifetimeSeconds?: number }): Promise<HubKeys> {
  const alg = options.alg ?? 'ES256';
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  // The thumbprint is a stable, collision-free key id (RFC 7638).
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    signing: { key: privateKey, alg, kid, issuer: options.issuer, ...(options.lifetimeSeconds === undefined ? {} : { lifetimeSeconds: options.lifetimeSeconds }) },
    jwks: { keys: [{ ...publicJwk, kid, alg, use: 'sig' }] },
  };
}
