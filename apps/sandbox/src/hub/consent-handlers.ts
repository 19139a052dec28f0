/**
 * Consent operations of section 4.2, answered by the hub from the sandbox auth store:
 * consents by base consent id, one consent, the patch (revocation, webhook), and, in
 * v2.2, attestations.
 */
import { ApiError } from '@bank-data-sharing/server-stubs/runtime';
import type { Handlers } from '@bank-data-sharing/server-stubs/v2.2';
import type { Consent } from '@bank-data-sharing/validators/v2.2';
import { AuthError } from '../auth/errors.js';
import type { AuthStore } from '../auth/store.js';
import { withoutTrailing } from '@bank-data-sharing/wire';

/** Consent operations both versions have. */
export type ConsentHandlers = Pick<
  Handlers,
  'GetAccountAccessConsentsByBaseConsentId' | 'GetAccountAccessConsentsConsentId' | 'PatchAccountAccessConsentsConsentId'
>;

/** The v2.2 attestation operations. */
export type AttestationHandlers = Pick<Handlers, 'ReadAccountAccessConsentAttestations' | 'CreateAccountAccessConsentAttestation'>;

/**
 * A store refusal as the hub's answer. `notFound` says whether the operation defines 404;
 * where it does not, an unknown consent is a bad request (`Consent.Invalid`).
 */
function refusal(error: unknown, notFound: boolean): unknown {
  if (!(error instanceof AuthError)) return error;
  if (error.reason === 'ConsentNotFound') return notFound ? new ApiError(404, 'Resource.NotFound', error.message) : new ApiError(400, 'Consent.Invalid', error.message);
  if (error.status === 401) return new ApiError(401, 'AccessToken.Invalid', error.message);
  return new ApiError(error.status, error.code ?? 'GenericError', error.message);
}

/** Runs a store call, turning its refusals into answers. */
function attempt<T>(call: () => T, notFound: boolean): T {
  try {
    return call();
  } catch (error) {
    throw refusal(error, notFound);
  }
}

/** `path` without the slashes it ends with. */
export function withoutTrailingSlashes(path: string): string {
  return withoutTrailing(path, '/');
}

/** The consent resource URL of this API version, from the URL the TPP called. */
function consentUrl(requestUrl: string, consentId: string): string {
  const url = new URL(requestUrl);
  const at = url.pathname.indexOf('/account-access-consents');
  const base = at < 0 ? withoutTrailingSlashes(url.pathname) : url.pathname.slice(0, at);
  return `${url.origin}${base}/account-access-consents/${encodeURIComponent(consentId)}`;
}

/** A stored consent with `Links.Self` pointing at this hub and version. */
function asServed(consent: Consent, requestUrl: string): Consent {
  return { ...consent, Links: { Self: consentUrl(requestUrl, consent.Data.ConsentId) } };
}

/**
 * Handlers of the consent operations. Any valid TPP token may manage any consent: the
 * sandbox has one TPP, so it does not tie consents to client ids.
 */
export function createConsentHandlers(auth: AuthStore): ConsentHandlers {
  return {
    GetAccountAccessConsentsByBaseConsentId: ({ query, url }) => {
      const consents = auth.consents.byBaseConsentId(query.baseConsentId);
      if (consents.length === 0) throw new ApiError(404, 'Resource.NotFound', `no consent with base consent id ${query.baseConsentId}`);
      return { status: 200, body: consents.map((consent) => asServed(consent, url)) };
    },
    GetAccountAccessConsentsConsentId: ({ path, url }) => {
      const { consent } = attempt(() => auth.consents.get(path.ConsentId), false);
      return { status: 200, body: asServed(consent, url) };
    },
    PatchAccountAccessConsentsConsentId: ({ path, body }) => {
      attempt(() => auth.consents.patch(path.ConsentId, body), false);
      return { status: 204 };
    },
  };
}

/** Handlers of the v2.2 attestation operations (recorded only for Revoked or Expired consents). */
export function createAttestationHandlers(auth: AuthStore): AttestationHandlers {
  return {
    ReadAccountAccessConsentAttestations: ({ path, query, url }) => {
      const events = attempt(() => auth.attestations.read(path.ConsentId, { lastSubmitted: query.LastSubmitted === true }), true);
      // An unpaginated list: Self only; TotalPages 1, or 0 when nothing was recorded (section 4.6).
      return { status: 200, body: { Data: events, Links: { Self: url }, Meta: { TotalPages: events.length === 0 ? 0 : 1 } } };
    },
    CreateAccountAccessConsentAttestation: ({ path, body, url }) => {
      const event = attempt(() => auth.attestations.create(path.ConsentId, body), true);
      return { status: 201, body: { Data: event, Links: { Self: url } } };
    },
  };
}
