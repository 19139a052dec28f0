/**
 * Sandbox-only helpers on the hub, under `/sandbox`: what a real deployment does through
 * the customer's authorisation journey, the authorisation server and the directory. They
 * have no authentication; the sandbox listens on loopback only.
 *
 * - `GET  /sandbox`                          customers, their accounts, the API base URLs
 * - `POST /sandbox/consents`                 create a consent (all permissions by default)
 * - `POST /sandbox/consents/:id/status`      move a consent to another status (e.g. Expired)
 * - `POST /sandbox/token`                    issue a token for a consent, or refresh one
 * - `POST /sandbox/tpp-keys`                 register a TPP public key (JWK or JWKS)
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { ConsentStatus, Permission } from '@bank-data-sharing/validators/v2.2';
import { AuthError } from '../auth/errors.js';
import type { AuthStore } from '../auth/store.js';
import type { ConsentRecord } from '../auth/consents.js';
import type { IssuedToken } from '../auth/tokens.js';
import type { TppKeyRegistry } from '../hub/tpp-keys.js';
import { ALL_DATA_PERMISSIONS, DEFAULT_SCOPES } from './grants.js';

/** A customer as the sandbox describes it. */
export interface SandboxCustomerInfo {
  readonly customerId: string;
  readonly partyId: string;
  readonly accountIds: readonly string[];
}

/** What the helper routes work on. */
export interface SandboxRouteOptions {
  readonly auth: AuthStore;
  readonly customers: readonly SandboxCustomerInfo[];
  readonly tppKeys: TppKeyRegistry;
  /** Shown by `GET /sandbox`. */
  readonly baseUrls: Readonly<Record<string, string>>;
}

const ConsentRequest = z.strictObject({
  customerId: z.string().optional(),
  accountIds: z.array(z.string()).min(1).optional(),
  permissions: z.array(Permission).min(1).optional(),
  status: ConsentStatus.optional(),
  baseConsentId: z.string().optional(),
  expirationDateTime: z.string().optional(),
});

const StatusRequest = z.strictObject({ status: ConsentStatus });

const TokenRequest = z.union([
  z.object({ grant_type: z.literal('client_credentials'), consent_id: z.string().optional(), scope: z.string().optional() }),
  z.object({ grant_type: z.literal('refresh_token'), refresh_token: z.string() }),
]);

const PublicJwk = z.looseObject({ kty: z.string(), kid: z.string().min(1) });
const KeysRequest = z.union([z.object({ keys: z.array(PublicJwk).min(1) }), PublicJwk]);

/** A sandbox request that cannot be served, answered as an OAuth-style error. */
class SandboxRequestError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw new SandboxRequestError(400, 'invalid_request', z.prettifyError(result.error));
  return result.data;
}

/** What the consent endpoints answer: the consent and the accounts kept beside it. */
function describeConsent(record: ConsentRecord) {
  const { Data } = record.consent;
  return {
    consentId: Data.ConsentId,
    baseConsentId: Data.BaseConsentId ?? Data.ConsentId,
    status: Data.Status,
    permissions: Data.Permissions,
    expirationDateTime: Data.ExpirationDateTime,
    customerId: record.customerId,
    accountIds: record.accountIds,
  };
}

/** A token endpoint answer (RFC 6749 section 5.1). */
function tokenAnswer(token: IssuedToken) {
  return {
    access_token: token.accessToken,
    token_type: token.tokenType,
    expires_in: token.expiresIn,
    scope: token.scope,
    refresh_token: token.refreshToken,
    ...(token.consentId === undefined ? {} : { consent_id: token.consentId }),
  };
}

/**
 * The `/sandbox` router. It parses its own bodies (JSON or form-encoded), so it must be
 * mounted on its own path: the generated API routers read their bodies themselves.
 */
export function createSandboxRoutes(options: SandboxRouteOptions): Router {
  const { auth, customers, tppKeys } = options;
  const router = express.Router();
  router.use(express.json({ limit: '64kb' }), express.urlencoded({ extended: false, limit: '16kb' }));

  router.get('/', (_req, res) => {
    res.json({ baseUrls: options.baseUrls, customers, permissions: ALL_DATA_PERMISSIONS, scopes: DEFAULT_SCOPES });
  });

  router.post('/consents', (req, res) => {
    const input = parse(ConsentRequest, req.body);
    const customer = input.customerId === undefined ? customers[0] : customers.find((c) => c.customerId === input.customerId);
    if (customer === undefined) throw new SandboxRequestError(404, 'not_found', `no customer ${String(input.customerId)}`);
    const unknown = (input.accountIds ?? []).filter((id) => !customer.accountIds.includes(id));
    if (unknown.length > 0) throw new SandboxRequestError(400, 'invalid_request', `not accounts of ${customer.customerId}: ${unknown.join(', ')}`);
    const record = auth.consents.create({
      permissions: input.permissions ?? ALL_DATA_PERMISSIONS,
      accountIds: input.accountIds ?? customer.accountIds,
      customerId: customer.customerId,
      status: input.status,
      baseConsentId: input.baseConsentId,
      expirationDateTime: input.expirationDateTime,
    });
    res.status(201).json(describeConsent(record));
  });

  router.post('/consents/:consentId/status', (req, res) => {
    const { status } = parse(StatusRequest, req.body);
    res.json(describeConsent(auth.consents.setStatus(String(req.params['consentId']), status)));
  });

  router.post('/token', (req, res) => {
    const input = parse(TokenRequest, req.body);
    if (input.grant_type === 'refresh_token') {
      res.json(tokenAnswer(auth.refresh(input.refresh_token)));
      return;
    }
    if (input.consent_id !== undefined && !auth.consents.has(input.consent_id)) {
      throw new SandboxRequestError(400, 'invalid_grant', `no consent ${input.consent_id}`);
    }
    const scopes = input.scope === undefined ? DEFAULT_SCOPES : input.scope.split(/\s+/).filter((s) => s !== '');
    res.json(tokenAnswer(auth.tokens.issue({ scopes, consentId: input.consent_id })));
  });

  router.post('/tpp-keys', (req, res) => {
    const input = parse(KeysRequest, req.body);
    const jwks = 'keys' in input && Array.isArray(input.keys) ? input.keys : [input];
    try {
      res.status(201).json({ kids: jwks.map((jwk) => tppKeys.add(jwk)) });
    } catch (error) {
      throw new SandboxRequestError(400, 'invalid_request', error instanceof Error ? error.message : String(error));
    }
  });

  // Express needs all four parameters to treat this as the error handler.
  router.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    if (error instanceof SandboxRequestError) {
      res.status(error.status).json({ error: error.error, error_description: error.message });
    } else if (error instanceof AuthError) {
      const status = error.status === 401 ? 400 : error.status;
      const code = error.reason === 'InvalidRefreshToken' ? 'invalid_grant' : error.reason === 'ConsentNotFound' ? 'not_found' : 'invalid_request';
      res.status(status).json({ error: code, error_description: error.message });
    } else {
      const status = (error as { status?: unknown }).status;
      // Body-parser failures (malformed JSON, too large) carry their own 4xx status.
      const code = typeof status === 'number' && status >= 400 && status < 500 ? status : 500;
      res.status(code).json({ error: 'invalid_request', error_description: error instanceof Error ? error.message : String(error) });
    }
  });
  return router;
}
