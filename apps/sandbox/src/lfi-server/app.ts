/**
 * The sandbox LFI as an HTTP application: the generated hub-to-LFI routers of v2.1 and
 * v2.2 side by side, each over its own store, behind the hub's bearer credential.
 */
import { timingSafeEqual } from 'node:crypto';
import express, { type Express } from 'express';
import type { RouterOptions } from '@bank-data-sharing/server-stubs/runtime';
import { createRouter as createLfiRouter21 } from '@bank-data-sharing/server-stubs/v2.1/lfi';
import { createRouter as createLfiRouter22 } from '@bank-data-sharing/server-stubs/v2.2/lfi';
import type { LfiStore } from '../lfi/store.js';
import { createLfiHandlers } from './handlers.js';

/** What the LFI application serves. */
export interface LfiAppOptions {
  readonly stores: { readonly 'v2.1': LfiStore<'v2.1'>; readonly 'v2.2': LfiStore<'v2.2'> };
  /** The bearer credential the hub presents (HubToLfiSecurity); anything else is 401. */
  readonly hubCredential: string;
  /** Where contract breaches and handler bugs go (default: console.error). */
  readonly onError?: RouterOptions['onError'];
}

/** Constant-time comparison, so the credential cannot be guessed byte by byte from timings. */
function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * An Express application serving `/lfi/v2.1/...` and `/lfi/v2.2/...` (the prefixes of the
 * two `lfi-paging.yaml` files).
 *
 * @example
 * const app = createLfiApp({ stores: { 'v2.1': store21, 'v2.2': store22 }, hubCredential: secret });
 * app.listen(4011, '127.0.0.1');
 */
export function createLfiApp(options: LfiAppOptions): Express {
  const routerOptions: RouterOptions = {
    authorize: ({ credential }) => (credential !== undefined && sameSecret(credential, options.hubCredential) ? { scopes: [] } : undefined),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  };
  const app = express();
  app.disable('x-powered-by');
  app.use(createLfiRouter21(createLfiHandlers(options.stores['v2.1']), routerOptions));
  app.use(createLfiRouter22(createLfiHandlers(options.stores['v2.2']), routerOptions));
  return app;
}
