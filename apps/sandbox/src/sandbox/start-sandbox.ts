/**
 * The whole chain on one machine: the LFI and the hub, each on its own loopback port, the
 * hub paging through the LFI over HTTP, with one consent and token ready to use.
 */
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, calculateJwkThumbprint, type CryptoKey } from 'jose';
import { fetchLfiJson, type RouterOptions } from '@bank-data-sharing/server-stubs/runtime';
import { api as api21 } from '@bank-data-sharing/validators/v2.1';
import { api as api22 } from '@bank-data-sharing/validators/v2.2';
import { api as lfi22 } from '@bank-data-sharing/validators/v2.2/lfi';
import { createAuthStore, type AuthStore } from '../auth/store.js';
import type { Clock } from '../auth/clock.js';
import type { ConsentRecord } from '../auth/consents.js';
import type { IssuedToken } from '../auth/tokens.js';
import { createSandboxData } from '../data/generate.js';
import type { SandboxDataOptions, SpecVersion } from '../data/types.js';
import { createHubApp, JWKS_PATH } from '../hub/app.js';
import { createHubKeys, type Jwks, type SigningAlgorithm } from '../hub/keys.js';
import { createLfiAccess, type LfiAccessOptions, type LfiFailureContext } from '../hub/lfi-access.js';
import { createTppKeyRegistry } from '../hub/tpp-keys.js';
import { createLfiApp } from '../lfi-server/app.js';
import { createLfiStore, type LfiStore } from '../lfi/store.js';
import { ALL_DATA_PERMISSIONS, DEFAULT_SCOPES } from './grants.js';
import { listenOnLoopback, type Listener } from './listen.js';
import { createSandboxRoutes } from './routes.js';
import { createDocsRouter } from '../docs/docs-router.js';
import { docsToken } from './docs-token.js';

/** Default ports: the hub (what TPPs call) and the LFI (what the hub calls). */
export const DEFAULT_HUB_PORT = 4010;
export const DEFAULT_LFI_PORT = 4011;

/** Options of `startSandbox`; everything has a default. */
export interface SandboxOptions {
  /** Hub port on 127.0.0.1 (default 4010; 0 picks a free one). */
  readonly hubPort?: number;
  /** LFI port on 127.0.0.1 (default 4011; 0 picks a free one). */
  readonly lfiPort?: number;
  /** The synthetic data (default: seed 1, 3 customers, 2 years, 3 entries a day); `version` is set per store. */
  readonly data?: Omit<SandboxDataOptions, 'version'>;
  /** Records per hub-to-LFI page (default 100). */
  readonly pageSize?: number;
  /** Algorithm of the hub's response-signing key (default ES256). */
  readonly signingAlg?: SigningAlgorithm;
  /** Access token life in seconds (default 600). */
  readonly tokenTtlSeconds?: number;
  /** Clock of the token and consent store (tests move time with it). */
  readonly now?: Clock;
  /** Where both servers report handler bugs and contract breaches (default: console.error). */
  readonly onError?: RouterOptions['onError'];
  /** The bearer credential the hub presents to the LFI (default: random for each start). */
  readonly hubCredential?: string;
  /**
   * An LFI elsewhere to put the hub in front of, instead of the sandbox's own: its origin (the
   * version prefixes come from the specs) and the bearer credential it takes from the hub. The
   * seeded consent covers the accounts that LFI lists (or `accountIds`, when given).
   */
  readonly lfi?: { readonly origin: string; readonly credential: string; readonly accountIds?: readonly string[] };
  /** The hub's LFI guard and per-request deadline (see `createLfiAccess`). */
  readonly lfiAccess?: Pick<LfiAccessOptions, 'timeoutMs' | 'requestDeadlineMs' | 'guard'>;
  /** Where the hub reports LFI calls that failed (default: `onError` with phase `upstream`, else a line on standard error). */
  readonly onLfiFailure?: LfiAccessOptions['onFailure'];
}

/** A key pair a TPP signs request bodies with; the public half is registered with the hub. */
export interface TppSigningKey {
  readonly privateKey: CryptoKey;
  readonly kid: string;
  readonly alg: 'ES256';
}

/** A running sandbox. */
export interface Sandbox {
  /** `http://127.0.0.1:<hub port>`. */
  readonly hubUrl: string;
  /** `http://127.0.0.1:<lfi port>`. */
  readonly lfiUrl: string;
  /** Base URL of each TPP-facing API version (hub URL + the spec's path prefix). */
  readonly baseUrls: Readonly<Record<SpecVersion, string>>;
  /** Where the hub publishes its signing key. */
  readonly jwksUrl: string;
  /** The JWKS served there (for in-process clients). */
  readonly jwks: Jwks;
  /** Issuer (`iss`) of the hub's signed answers. */
  readonly issuer: string;
  readonly auth: AuthStore;
  readonly stores: { readonly 'v2.1': LfiStore<'v2.1'>; readonly 'v2.2': LfiStore<'v2.2'> };
  /** The sandbox TPP's signing key (already registered with the hub). */
  readonly tppKey: TppSigningKey;
  /** A consent with every data permission over all accounts of the first customer, and a token for it. */
  readonly seeded: { readonly consent: ConsentRecord; readonly token: IssuedToken };
  /** Creates an Authorized consent for a customer (default: the first), with every data permission by default. */
  createConsent(input?: { customerId?: string; permissions?: ConsentRecord['consent']['Data']['Permissions'] }): ConsentRecord;
  /** Issues an access token (scopes openid and accounts) bound to a consent. */
  issueToken(consentId: string): IssuedToken;
  /** The bearer credential the LFI takes from the hub (HubToLfiSecurity), to call the LFI directly. */
  readonly hubCredential: string;
  /** Stops both servers. */
  close(): Promise<void>;
}

async function tppSigningKey(): Promise<{ key: TppSigningKey; jwk: Awaited<ReturnType<typeof exportJWK>> }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  const kid = `sandbox-tpp-${(await calculateJwkThumbprint(jwk)).slice(0, 16)}`;
  return { key: { privateKey, kid, alg: 'ES256' }, jwk: { ...jwk, kid, alg: 'ES256', use: 'sig' } };
}

/** LFI failures reported through the routers' `onError`, as phase `upstream` with the URL. */
function upstreamTo(onError: NonNullable<RouterOptions['onError']>): NonNullable<LfiAccessOptions['onFailure']> {
  return (error, context) => onError(error, { interactionId: context.interactionId, operationId: undefined, phase: 'upstream', upstream: { url: `${context.lfi}${context.path}` } });
}

/** The hub's log line for an LFI call that failed: where, for which TPP request, and why. */
export function lfiFailureLine(error: unknown, context: LfiFailureContext): string {
  const kind = (error as { kind?: unknown }).kind;
  const status = (error as { lfiStatus?: unknown }).lfiStatus;
  const why = typeof kind === 'string' ? kind : typeof status === 'number' ? `HTTP ${status}` : 'contract';
  const detail = context.reason ?? (error instanceof Error ? error.message : String(error));
  return `[hub] LFI call failed (${why}): ${context.lfi}${context.path} for ${context.interactionId}: ${detail}`;
}

function logLfiFailure(error: unknown, context: LfiFailureContext): void {
  console.error(lfiFailureLine(error, context));
}

/** The account ids an LFI elsewhere lists (v2.2, first page of up to 100), for the seeded consent. */
async function externalAccounts(origin: string, credential: string): Promise<string[]> {
  const body = await fetchLfiJson(`${origin}${lfi22.pathPrefix}/accounts?page=1&page-size=100`, { headers: { authorization: `Bearer ${credential}` }, timeoutMs: 10_000 });
  const data = (body as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) throw new Error(`the LFI at ${origin} listed no accounts (${lfi22.pathPrefix}/accounts answered without a data list)`);
  return data.map((a) => (a as { AccountId?: unknown }).AccountId).filter((id): id is string => typeof id === 'string');
}

/** Closes what was opened, newest first, even when one close fails. */
async function closeAll(listeners: readonly Listener[]): Promise<void> {
  const results = await Promise.allSettled([...listeners].reverse().map((listener) => listener.close()));
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Starts the LFI and the hub on loopback.
 *
 * @example
 * const sandbox = await startSandbox({ hubPort: 0, lfiPort: 0 });
 * const client = createClient({ baseUrl: sandbox.baseUrls['v2.2'], tokens: staticToken(sandbox.seeded.token.accessToken) });
 * await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const data = options.data ?? {};
  const stores = {
    'v2.1': createLfiStore(createSandboxData({ ...data, version: 'v2.1' })),
    'v2.2': createLfiStore(createSandboxData({ ...data, version: 'v2.2' })),
  } as const;
  let customers = stores['v2.2'].customers();

  const opened: Listener[] = [];
  try {
    // The LFI first: the hub needs its address. An LFI elsewhere is only read.
    let lfiUrl: string;
    let hubCredential: string;
    if (options.lfi) {
      lfiUrl = options.lfi.origin.replace(/\/+$/, '');
      hubCredential = options.lfi.credential;
      const accountIds = options.lfi.accountIds ?? (await externalAccounts(lfiUrl, hubCredential));
      customers = [{ customerId: 'lfi-customer', partyId: 'lfi-party', accountIds: [...accountIds] }];
    } else {
      const lfiListener = await listenOnLoopback(options.lfiPort ?? DEFAULT_LFI_PORT);
      opened.push(lfiListener);
      hubCredential = options.hubCredential ?? randomBytes(32).toString('base64url');
      lfiListener.serve(createLfiApp({ stores, hubCredential, ...(options.onError === undefined ? {} : { onError: options.onError }) }));
      lfiUrl = lfiListener.url;
    }

    const hubListener = await listenOnLoopback(options.hubPort ?? DEFAULT_HUB_PORT);
    opened.push(hubListener);
    const hubUrl = hubListener.url;
    const baseUrls = { 'v2.1': `${hubUrl}${api21.pathPrefix}`, 'v2.2': `${hubUrl}${api22.pathPrefix}` } as const;

    const auth = createAuthStore({
      linkBase: baseUrls['v2.2'],
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
    });
    const keys = await createHubKeys({ issuer: hubUrl, ...(options.signingAlg === undefined ? {} : { alg: options.signingAlg }) });
    const tppKeys = createTppKeyRegistry();
    const tpp = await tppSigningKey();
    tppKeys.add(tpp.jwk);

    const hub = createHubApp({
      auth,
      lfi: createLfiAccess({
        origin: lfiUrl,
        credential: hubCredential,
        ...options.lfiAccess,
        ...(options.lfi ? { sendCustomer: false } : {}),
        onFailure: options.onLfiFailure ?? (options.onError ? upstreamTo(options.onError) : logLfiFailure),
      }),
      keys,
      tppKeys,
      publicUrl: hubUrl,
      ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
      ...(options.onError === undefined ? {} : { onError: options.onError }),
    });
    const createConsent: Sandbox['createConsent'] = (input = {}) => {
      const customer = input.customerId === undefined ? customers[0] : customers.find((c) => c.customerId === input.customerId);
      if (customer === undefined) throw new RangeError(`no customer ${String(input.customerId)}`);
      return auth.consents.create({ permissions: input.permissions ?? ALL_DATA_PERMISSIONS, accountIds: customer.accountIds, customerId: customer.customerId });
    };
    const issueToken: Sandbox['issueToken'] = (consentId) => auth.tokens.issue({ scopes: DEFAULT_SCOPES, consentId });
    const consent = createConsent();
    const seededToken = issueToken(consent.consent.Data.ConsentId);

    hub.use('/sandbox', createSandboxRoutes({ auth, customers, tppKeys, baseUrls }));
    hub.use('/docs', createDocsRouter({ hubUrl, lfiUrl, baseUrls, consentId: consent.consent.Data.ConsentId, accountIds: consent.accountIds, accessToken: docsToken(auth, seededToken, issueToken) }));
    hubListener.serve(hub);

    return {
      hubUrl,
      lfiUrl,
      baseUrls,
      jwksUrl: `${hubUrl}${JWKS_PATH}`,
      jwks: keys.jwks,
      issuer: hubUrl,
      auth,
      stores,
      tppKey: tpp.key,
      seeded: { consent, token: seededToken },
      createConsent,
      issueToken,
      hubCredential,
      close: () => closeAll(opened),
    };
  } catch (error) {
    await closeAll(opened).catch(() => undefined);
    throw error;
  }
}
