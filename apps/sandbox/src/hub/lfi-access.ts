/**
 * How the hub reaches the LFI: over HTTP, with the hub's credential, the consent context
 * and the TPP's section 4.1 headers forwarded on every page request (section 4.6, rule 5).
 */
import { createLfiGuard, fetchLfiJson, httpPageSource, LfiResponseError, type LfiGuardOptions, type LfiPageQuery } from '@bank-data-sharing/server-stubs/runtime';
import { api as lfi21 } from '@bank-data-sharing/validators/v2.1/lfi';
import { api as lfi22 } from '@bank-data-sharing/validators/v2.2/lfi';
import type { SpecVersion } from '../data/types.js';
import { contextHeaders, type ConsentContext } from '../lfi-server/consent-context.js';

/** Request headers of section 4.1 that the hub passes on to the LFI. */
const FORWARDED = ['x-fapi-auth-date', 'x-fapi-customer-ip-address', 'x-customer-user-agent'] as const;

/** The parts of a TPP request the hub forwards. */
export interface ForwardedRequest {
  readonly interactionId: string;
  /** The TPP's validated request headers (an object with lower-case names). */
  readonly headers: unknown;
}

/** The hub's view of the LFI. */
export interface LfiAccess {
  /** A `fetchPage` for the paging adapter: GET `path` of the version's LFI API with the page query. */
  pageSource(version: SpecVersion, path: string, request: ForwardedRequest, context: ConsentContext): (query: LfiPageQuery) => Promise<unknown>;
  /**
   * Reports a failure found in an LFI answer after it was read (a paging-contract breach, an
   * account answer without its record), with the URL of that call as the LFI received it
   * (prefix and page query): the request's latest page call, or with `'one'` its latest `getOne`.
   */
  reportFailure(error: unknown, request: ForwardedRequest, call?: 'page' | 'one'): void;
  /** GET of a resource the LFI does not page (one account). Throws `LfiResponseError` on a non-2xx answer. */
  getOne(version: SpecVersion, path: string, request: ForwardedRequest, context: ConsentContext): Promise<unknown>;
}

/** Where the LFI is and how the hub authenticates to it. */
export interface LfiAccessOptions {
  /** Origin of the LFI, e.g. `http://127.0.0.1:4011`; each version's prefix comes from its spec. */
  readonly origin: string;
  /** Bearer credential of HubToLfiSecurity. */
  readonly credential: string;
  /** Per LFI request (default 10 000 ms). */
  readonly timeoutMs?: number;
  /** One deadline for all the LFI calls a TPP request makes (default 15 000 ms). */
  readonly requestDeadlineMs?: number;
  /** The LFI's concurrency bound, circuit breaker and retries (defaults of `createLfiGuard`). */
  readonly guard?: LfiGuardOptions;
  /**
   * Send the consent's customer id to the LFI (default true). An LFI elsewhere does not know
   * the sandbox's customers: it gets the consent's account ids only.
   */
  readonly sendCustomer?: boolean;
  /** Told about every LFI call that failed, with where and for which TPP request (the hub's log). */
  readonly onFailure?: (error: unknown, context: LfiFailureContext) => void;
}

/** Where an LFI call failed. */
export interface LfiFailureContext {
  readonly lfi: string;
  /** Path and query as the LFI received them (its prefix included). */
  readonly path: string;
  readonly interactionId: string;
  /** Why, when the error alone does not say it (a 404 from an LFI that does not serve the version). */
  readonly reason?: string;
}

/** The contract's error body (`LfiError`): what an LFI serving the path answers a 404 with. */
function isLfiErrorBody(body: unknown): boolean {
  const fields = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return typeof fields['errorCode'] === 'string' && typeof fields['errorMessage'] === 'string';
}

const PREFIXES: Readonly<Record<SpecVersion, string>> = { 'v2.1': lfi21.pathPrefix, 'v2.2': lfi22.pathPrefix };

/**
 * Creates the hub's LFI access.
 *
 * @example
 * const lfi = createLfiAccess({ origin: 'http://127.0.0.1:4011', credential });
 * const fetchPage = lfi.pageSource('v2.2', `/accounts/${id}/transactions`, request, { customerId });
 */
export function createLfiAccess(options: LfiAccessOptions): LfiAccess {
  const origin = options.origin.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  // One guard for this LFI, for the hub's life: its circuit and its queue are shared by all TPPs.
  const guard = createLfiGuard(options.guard);
  // The deadline of a TPP request, made at its first LFI call and shared by the others.
  const deadlines = new WeakMap<object, AbortSignal>();
  const deadlineOf = (request: ForwardedRequest): AbortSignal => {
    let signal = deadlines.get(request);
    if (!signal) {
      signal = AbortSignal.timeout(options.requestDeadlineMs ?? 15_000);
      deadlines.set(request, signal);
    }
    return signal;
  };

  const headersFor = (request: ForwardedRequest, context: ConsentContext): Record<string, string> => {
    const headers: Record<string, string> = {
      authorization: `Bearer ${options.credential}`,
      'x-fapi-interaction-id': request.interactionId,
      ...contextHeaders(options.sendCustomer === false ? { accountIds: context.accountIds } : context),
    };
    const given = typeof request.headers === 'object' && request.headers !== null ? (request.headers as Record<string, unknown>) : {};
    for (const name of FORWARDED) {
      const value = given[name];
      if (typeof value === 'string') headers[name] = value;
    }
    return headers;
  };

  /**
   * Reports a failed call (the LFI unavailable, throttling, or breaking the contract; not an
   * answer such as 404 that the TPP gets as it is), then lets it go on to the router, which
   * answers it by the contract.
   */
  const reported = new WeakSet<object>();
  const report = (error: unknown, path: string, request: ForwardedRequest, reason?: string) => {
    // Once per failure, wherever it is noticed first.
    if (typeof error === 'object' && error !== null) {
      if (reported.has(error)) return;
      reported.add(error);
    }
    options.onFailure?.(error, { lfi: origin, path, interactionId: request.interactionId, ...(reason === undefined ? {} : { reason }) });
  };
  // The path and query of each TPP request's latest page call and latest single read: the
  // answers a breach is found in (a request may run one of each at once, as statements do).
  const lastCalled = { page: new WeakMap<object, string>(), one: new WeakMap<object, string>() };
  const logged = <T>(call: Promise<T>, kind: 'page' | 'one', version: SpecVersion, path: string, request: ForwardedRequest): Promise<T> => {
    lastCalled[kind].set(request, path);
    return call.catch((error: unknown) => {
      const status = (error as { status?: unknown }).status;
      if (typeof status !== 'number' || status >= 500 || status === 429) report(error, path, request);
      else if (error instanceof LfiResponseError && error.lfiStatus === 404 && !isLfiErrorBody(error.lfiBody)) {
        // The TPP gets the 404 as it is; the hub's operator learns that the LFI does not serve
        // this version of the contract at all (a 404 of an LFI serving it carries the contract's body).
        report(error, path, request, `the LFI answered 404 without the contract's error body (errorCode, errorMessage): it does not seem to serve ${PREFIXES[version]}, the hub-to-LFI contract ${version}`);
      }
      throw error;
    });
  };

  return {
    reportFailure: (error, request, call = 'page') => report(error, lastCalled[call].get(request) ?? '', request),

    pageSource: (version, path, request, context) => {
      const fetchPage = httpPageSource(path, { baseUrl: `${origin}${PREFIXES[version]}`, headers: headersFor(request, context), timeoutMs, guard, signal: deadlineOf(request) });
      return (query) => logged(fetchPage(query), 'page', version, `${PREFIXES[version]}${path}?${query.search.toString()}`, request);
    },

    getOne: (version, path, request, context) =>
      logged(fetchLfiJson(`${origin}${PREFIXES[version]}${path}`, { headers: headersFor(request, context), timeoutMs, guard, signal: deadlineOf(request) }), 'one', version, `${PREFIXES[version]}${path}`, request),
  };
}
