import { generateKeyPair } from 'jose';
import type { SigningOptions, VerificationOptions } from '../../src/runtime/index.js';

export interface TestKeys {
  /** The server signs responses with this (the LFI's key). */
  signing: SigningOptions;
  /** Verifies what the server signed. */
  serverPublic: CryptoKey;
  /** The TPP signs request bodies with this. */
  tppPrivate: CryptoKey;
  /** The server verifies request bodies with this. */
  verification: VerificationOptions;
}

/** Fresh ES256 key pairs for the server and the TPP. */
export async function testKeys(): Promise<TestKeys> {
  const server = await generateKeyPair('ES256');
  const tpp = await generateKeyPair('ES256');
  return {
    signing: { key: server.privateKey, alg: 'ES256', kid: 'server-1', issuer: 'lfi-test', audience: ['tpp-test'] },
    serverPublic: server.publicKey,
    tppPrivate: tpp.privateKey,
    verification: { key: tpp.publicKey, algorithms: ['ES256'] },
  };
}
