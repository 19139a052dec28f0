/**
 * The sandbox hub as an HTTP application: the generated TPP-facing routers of v2.1 and
 * v2.2 side by side, with request and response validation on, the auth store's decisions
 * as their security hooks, signed answers on request, and the JWKS of the signing key.
 */
import express, { type Express } from 'express';
import type { RouterOptions } from '@bank-data-sharing/server-stubs/runtime';
import { createRouter as createRouter21, type Handlers as Handlers21 } from '@bank-data-sharing/server-stubs/v2.1';
import { createRouter as createRouter22, type Handlers as Handlers22 } from '@bank-data-sharing/server-stubs/v2.2';
import type { AuthStore } from '../auth/store.js';
import { accessHooks } from './access.js';
import { createAttestationHandlers, createConsentHandlers } from './consent-handlers.js';
import { createDataHandlers } from './data-handlers.js';
import type { HubKeys } from './keys.js';
import type { LfiAccess } from './lfi-access.js';
import { TPP_SIGNING_ALGORITHMS, type TppKeyRegistry } from './tpp-keys.js';

/** Path of the hub's public signing keys. */
export const JWKS_PATH = '/.well-known/jwks.json';

/** What the hub application is built from. */
export interface HubAppOptions {
  readonly auth: AuthStore;
  readonly lfi: LfiAccess;
  readonly keys: HubKeys;
  /** Public keys of TPPs, for signed request bodies. */
  readonly tppKeys: TppKeyRegistry;
  /** Origin TPPs use, e.g. `http://127.0.0.1:4010`; links are built from it, never from `Host`. */
  readonly publicUrl: string;
  /** Records per LFI page (default 100). */
  readonly pageSize?: number;
  /** Where handler bugs and contract breaches go (default: console.error). */
  readonly onError?: RouterOptions['onError'];
}

/**
 * An Express application serving both API versions under the prefixes of their specs,
 * and `GET /.well-known/jwks.json`.
 *
 * @example
 * const app = createHubApp({ auth, lfi, keys, tppKeys, publicUrl: 'http://127.0.0.1:4010' });
 */
export function createHubApp(options: HubAppOptions): Express {
  const { auth, lfi } = options;
  const routerOptions: RouterOptions = {
    ...accessHooks(auth),
    signing: options.keys.signing,
    verification: { key: options.tppKeys.resolve, algorithms: TPP_SIGNING_ALGORITHMS },
    validateRequests: true,
    validateResponses: true,
    publicUrl: options.publicUrl,
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  };
  const shared = { auth, lfi, ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }) };

  const v21: Handlers21 = { ...createConsentHandlers(auth), ...createDataHandlers({ ...shared, version: 'v2.1' }) };
  const v22: Handlers22 = {
    ...createConsentHandlers(auth),
    ...createAttestationHandlers(auth),
    ...createDataHandlers({ ...shared, version: 'v2.2' }),
  };

  const app = express();
  app.disable('x-powered-by');
  app.get(JWKS_PATH, (_req, res) => {
    res.set('cache-control', 'no-store').json(options.keys.jwks);
  });
  app.use(createRouter21(v21, routerOptions));
  app.use(createRouter22(v22, routerOptions));
  return app;
}
