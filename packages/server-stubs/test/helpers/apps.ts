/** Mounts the generated routers in a real Express app (4 or 5) on a loopback port. */
import express5 from 'express';
import express4 from 'express4';
import { createRouter as createRouter21 } from '../../src/generated/v2.1/index.js';
import { createRouter as createRouter22 } from '../../src/generated/v2.2/index.js';
import type { AuthGrant, Authorize, RouterOptions } from '../../src/runtime/index.js';
import { handlers21, handlers22, type State } from './handlers.js';
import { listen, type Running } from './http.js';
import type { TestKeys } from './keys.js';

export const EXPRESS = [
  ['Express 5', express5],
  ['Express 4', express4],
] as const;

export type ExpressModule = (typeof EXPRESS)[number][1];

export const VERSIONS = ['v2.2', 'v2.1'] as const;
export type Version = (typeof VERSIONS)[number];

export const PREFIX: Record<Version, string> = {
  'v2.2': '/open-finance/account-information/v2.2',
  'v2.1': '/open-finance/account-information/v2.1',
};

/** Tokens the tests use, and what each grants. */
export const TOKENS: Record<string, AuthGrant> = {
  user: { scopes: ['openid', 'accounts'], permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadStatements'] },
  tpp: { scopes: ['openid', 'accounts'] },
  'openid-only': { scopes: ['openid'] },
  'balances-only': { scopes: ['openid', 'accounts'], permissions: ['ReadBalances'] },
};

export const authorize: Authorize = ({ credential }) => (credential !== undefined ? TOKENS[credential] : undefined);

export interface AppOptions {
  version: Version;
  express: ExpressModule;
  state: State;
  keys: TestKeys;
  options?: Partial<RouterOptions>;
}

/** An Express app serving one version, with the test handlers and keys. */
export async function startApp({ version, express, state, keys, options }: AppOptions): Promise<Running> {
  const app = express();
  const routerOptions: RouterOptions = {
    authorize,
    signing: keys.signing,
    verification: keys.verification,
    onError: () => undefined,
    ...options,
  };
  app.use(version === 'v2.2' ? createRouter22(handlers22(state), routerOptions) : createRouter21(handlers21(state), routerOptions));
  app.use((_req, res) => {
    res.status(599).end();
  });
  return listen(app);
}
