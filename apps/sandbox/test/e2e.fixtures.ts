/**
 * The end-to-end set-up: a sandbox on ephemeral loopback ports, the generated clients of
 * both versions going through the wire recorder, and a signer for the sandbox TPP's key.
 */
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { ApiError, staticToken, type ClientOptions, type RequestSigner } from '@bank-data-sharing/client/runtime';
import { createClient as createClient21 } from '@bank-data-sharing/client/v2.1';
import { createClient as createClient22 } from '@bank-data-sharing/client/v2.2';
import { startSandbox, type Sandbox, type SandboxOptions } from '../src/sandbox/start-sandbox.js';
import { loadWireOracle, type WireOracle } from './wire-oracle.js';
import { createWireRecorder, type WireRecorder } from './wire-recorder.js';

/** Small data: enough of every record kind, little generation time. */
export const SMALL_DATA = { seed: 7, customers: 2, years: 0.25, perDay: 2 } as const;

let oracles: Promise<{ 'v2.1': WireOracle; 'v2.2': WireOracle }> | undefined;

/** The wire oracles of both versions, bundled once per test file. */
function wireOracles() {
  oracles ??= Promise.all([
    loadWireOracle(new URL('../../../spec/v2.1/account-information.yaml', import.meta.url)),
    loadWireOracle(new URL('../../../spec/v2.2/account-information.yaml', import.meta.url)),
  ]).then(([v21, v22]) => ({ 'v2.1': v21, 'v2.2': v22 }));
  return oracles;
}

/** A running end-to-end environment. */
export interface E2E {
  readonly sandbox: Sandbox;
  readonly wire: WireRecorder;
  /** Signs request-body claims with the sandbox TPP's registered key. */
  readonly signer: RequestSigner;
  /** Clients of each version for a token (default: the seeded one), through the wire recorder. */
  clients(token?: string, options?: Partial<ClientOptions>): { 'v2.1': ReturnType<typeof createClient21>; 'v2.2': ReturnType<typeof createClient22> };
  /** Fails the test when any recorded response broke the spec; call after each test. */
  expectWireClean(): void;
  close(): Promise<void>;
}

/** Starts the sandbox on ephemeral ports (small data unless `options.data` says otherwise). */
export async function startE2E(options: SandboxOptions = {}): Promise<E2E> {
  const errors: unknown[] = [];
  const sandbox = await startSandbox({
    hubPort: 0,
    lfiPort: 0,
    data: SMALL_DATA,
    // Handler bugs and contract breaches must fail the tests, not just print.
    onError: (error, context) => errors.push({ error: error instanceof Error ? error.message : error, ...context }),
    ...options,
  });
  const oracle = await wireOracles();
  const wire = createWireRecorder([
    { baseUrl: sandbox.baseUrls['v2.1'], oracle: oracle['v2.1'] },
    { baseUrl: sandbox.baseUrls['v2.2'], oracle: oracle['v2.2'] },
  ]);
  const { privateKey, kid, alg } = sandbox.tppKey;
  const signer: RequestSigner = (claims) => new SignJWT({ ...claims }).setProtectedHeader({ alg, kid, typ: 'JWT' }).sign(privateKey);

  return {
    sandbox,
    wire,
    signer,
    clients(token = sandbox.seeded.token.accessToken, extra = {}) {
      const common: ClientOptions = { tokens: staticToken(token), fetch: wire.fetch, retry: false, signRequest: signer, ...extra };
      return {
        'v2.1': createClient21({ ...common, baseUrl: sandbox.baseUrls['v2.1'] }),
        'v2.2': createClient22({ ...common, baseUrl: sandbox.baseUrls['v2.2'] }),
      };
    },
    expectWireClean() {
      expect(wire.takeProblems()).toEqual([]);
      expect(errors.splice(0)).toEqual([]);
    },
    close: () => sandbox.close(),
  };
}

/** Claims of a signed TPP request body carrying `message` (section 2.1). */
export function signedBody<M>(message: M, issuer = 'sandbox-tpp'): { iss: string; exp: number; nbf: number; iat: number; message: M } {
  const now = Math.floor(Date.now() / 1000);
  return { iss: issuer, exp: now + 300, nbf: now, iat: now, message };
}

/**
 * Asserts that `call` fails with the client's `ApiError` of `status` (and, when given, the
 * error `Code`), and returns the error.
 */
export async function expectApiError(call: Promise<unknown>, status: number, code?: string): Promise<ApiError> {
  let caught: unknown;
  try {
    await call;
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect(error.status).toBe(status);
  if (code !== undefined) expect(error.errors.map((e) => e.Code)).toEqual([code]);
  return error;
}
