/**
 * Signed (`application/jwt`) request bodies with the caller's own key, so that a server which
 * verifies signatures (a hub, an LFI) accepts the valid requests of a run. Compact JWS made
 * with node:crypto alone, synchronously: the claims get fresh `iat`, `nbf` and `exp` (and the
 * caller's `iss`) each time a request is written, so a request sent again while shrinking is
 * still in date.
 */
import { createHmac, createPrivateKey, createSecretKey, sign, constants, type KeyObject } from 'node:crypto';

export interface RequestSignerOptions {
  /** A private key (PEM, JWK, or a KeyObject such as `KeyObject.from(cryptoKey)`), or an HMAC secret for HS*. */
  readonly key: KeyObject;
  /** JWS algorithm (default: from the key: ES256/ES384/ES512 by curve, PS256 for RSA, EdDSA for Ed25519). */
  readonly alg?: string;
  readonly kid?: string;
  /** The `iss` claim (default: the one the generated claims carry). */
  readonly issuer?: string;
  /** Seconds from `nbf` to `exp` (default 300). */
  readonly lifetimeSeconds?: number;
}

/** Signs the claims of a request body; throws for a key and algorithm that do not go together. */
export type RequestSigner = (claims: Record<string, unknown>) => string;

/** Reads a key file's text: a PEM private key, or a JWK (JSON) private key. */
export function readSigningKey(text: string): KeyObject {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    const jwk = JSON.parse(trimmed) as { kty?: string; k?: string };
    if (jwk.kty === 'oct' && typeof jwk.k === 'string') return createSecretKey(Buffer.from(jwk.k, 'base64url'));
    return createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  }
  return createPrivateKey(trimmed);
}

/** The algorithm a key signs with when none is named. */
export function defaultAlgorithm(key: KeyObject): string {
  if (key.type === 'secret') return 'HS256';
  const type = key.asymmetricKeyType;
  if (type === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    return curve === 'secp384r1' ? 'ES384' : curve === 'secp521r1' ? 'ES512' : 'ES256';
  }
  if (type === 'ed25519' || type === 'ed448') return 'EdDSA';
  if (type === 'rsa' || type === 'rsa-pss') return 'PS256';
  throw new Error(`cannot sign with a ${type ?? key.type} key`);
}

/** The key types each algorithm family signs with. */
const KEY_TYPES: Readonly<Record<string, readonly string[]>> = { HS: ['secret'], RS: ['rsa'], PS: ['rsa', 'rsa-pss'], ES: ['ec'] };
const EC_CURVES: Readonly<Record<string, string>> = { ES256: 'prime256v1', ES384: 'secp384r1', ES512: 'secp521r1' };

function signature(alg: string, key: KeyObject, input: string): Buffer {
  const bits = alg.slice(2);
  const hash = `sha${bits}`;
  if (alg.startsWith('HS')) return createHmac(hash, key).update(input).digest();
  if (alg.startsWith('ES')) return sign(hash, Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' });
  if (alg.startsWith('PS')) return sign(hash, Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(bits) / 8 });
  if (alg.startsWith('RS')) return sign(hash, Buffer.from(input), key);
  if (alg === 'EdDSA') return sign(null, Buffer.from(input), key);
  throw new Error(`JWS algorithm ${alg} is not supported (HS*, RS*, PS*, ES*, EdDSA)`);
}

/**
 * @example
 * const signer = requestSigner({ key: readSigningKey(await readFile('tpp-key.pem', 'utf8')), kid: 'tpp-1', issuer: 'my-client' });
 * await testServer({ spec, baseUrl, signRequest: signer });
 */
export function requestSigner(options: RequestSignerOptions): RequestSigner {
  const alg = options.alg ?? defaultAlgorithm(options.key);
  // Fails now, not at the first request, when key and algorithm do not go together.
  const wanted = KEY_TYPES[alg.slice(0, 2)] ?? (alg === 'EdDSA' ? ['ed25519', 'ed448'] : undefined);
  const type = options.key.type === 'secret' ? 'secret' : options.key.asymmetricKeyType;
  if (wanted && !wanted.includes(type ?? '')) throw new Error(`a ${type} key cannot sign ${alg}`);
  const curve = options.key.asymmetricKeyDetails?.namedCurve;
  if (alg.startsWith('ES') && curve !== undefined && EC_CURVES[alg] !== curve) throw new Error(`${alg} needs the ${EC_CURVES[alg] ?? 'matching'} curve, the key is ${curve}`);
  signature(alg, options.key, 'probe');
  const header = Buffer.from(JSON.stringify({ alg, typ: 'JWT', ...(options.kid !== undefined ? { kid: options.kid } : {}) })).toString('base64url');
  return (claims) => {
    const now = Math.floor(Date.now() / 1000);
    const payload = { ...claims, ...(options.issuer !== undefined ? { iss: options.issuer } : {}), iat: now, nbf: now, exp: now + (options.lifetimeSeconds ?? 300) };
    const input = `${header}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
    return `${input}.${signature(alg, options.key, input).toString('base64url')}`;
  };
}
