import type { IncomingMessage } from 'node:http';
import type { ErrorDescription } from '@bank-data-sharing/wire';
import type { Authorize } from './security.js';
import type { SigningOptions, VerificationOptions } from './jws.js';
import type { AuthGrant, HandlerRequest, OperationSchemas } from './types.js';

/** What the consent hook is asked about. */
export interface CheckConsentInput {
  readonly operationId: string;
  /** The operation's `x-permissions` (section 4.3): the consent must grant at least one. */
  readonly permissions: readonly string[];
  readonly grant: AuthGrant | undefined;
  /** The validated request, as the handler will see it. */
  readonly request: HandlerRequest<OperationSchemas>;
}

/**
 * Checks the consent behind a request; throws `ApiError(403, 'Consent.…', ...)` to refuse.
 *
 * @example
 * const checkConsent: CheckConsent = async ({ permissions, grant }) => {
 *   const consent = await consents.get(String(grant?.consentId));
 *   if (!permissions.some((p) => consent.Permissions.includes(p))) {
 *     throw new ApiError(403, 'Consent.Invalid', 'The consent does not grant this data');
 *   }
 * };
 */
export type CheckConsent = (input: CheckConsentInput) => void | Promise<void>;

/** Where a logged error happened. */
export interface ErrorContext {
  readonly interactionId: string;
  readonly operationId: string | undefined;
  /**
   * `handler`: the handler threw; `response`: its result broke the contract; `internal`: the
   * router failed; `upstream`: a call the handler made (an LFI, for a hub) failed, and the
   * client got the contract's answer for it.
   */
  readonly phase: 'handler' | 'response' | 'internal' | 'upstream';
  /** For `response`: what did not match. */
  readonly issues?: readonly string[];
  /** For `upstream`: which service and path. */
  readonly upstream?: { readonly url: string };
}

/**
 * Options of a router. `ErrorBody` is what the API declares for its error responses: the
 * generated `createRouter` takes `RouterOptions<ErrorBodyOf<typeof operations>>`, so
 * `formatError` must return one of them. Plain `RouterOptions` has no body to return (any
 * options typed so still fit every router); `RouterOptions<unknown>` accepts any.
 */
export interface RouterOptions<ErrorBody = never> {
  /**
   * Path the router answers under, after any Express mount path. Default: the path of the
   * spec's first server (e.g. `/open-finance/account-information/v2.2`). `''` for the root.
   */
  readonly prefix?: string;
  /** Decides what a credential grants. Required when any operation has security. */
  readonly authorize?: Authorize;
  /**
   * The `realm` of the `Basic` (and other HTTP and API key) challenges of a 401's
   * `WWW-Authenticate` (default: the spec's `info.title`). Bearer challenges carry none.
   */
  readonly realm?: string;
  /**
   * Consent check per operation (section 4.3), after validation. Without it, a grant that
   * lists `permissions` must include one of the operation's `x-permissions` (403 `Consent.Invalid`).
   */
  readonly checkConsent?: CheckConsent;
  /** Signs `application/jwt` responses. Without it `application/jwt` is not offered. */
  readonly signing?: SigningOptions;
  /** Verifies `application/jwt` request bodies. Required when any operation accepts one. */
  readonly verification?: VerificationOptions;
  /** Validate path, query, headers, cookies and body (default true). */
  readonly validateRequests?: boolean;
  /** Validate every handler result against the response schema (default true; may be switched off in production). */
  readonly validateResponses?: boolean;
  /**
   * When a handler result breaks the contract (answered 500), also tell the client why in the
   * `X-Contract-Violation` header: the message and the rules broken with where (member paths,
   * a status, a content type), as JSON; never the result's values. Default: on only when
   * NODE_ENV is `development` or `test`. For contract tests (`codegen test` reads it); keep it
   * off in production.
   */
  readonly explainResponseErrors?: boolean;
  /**
   * Write JSON response bodies with the writers the validators compile from their schemas
   * (check and write in one walk) rather than the check function and `JSON.stringify`. The
   * bytes are the same JSON either way. Default: where it was measured faster, on V8 before 12
   * (Node 20); from Node 22 on, `JSON.stringify` is as fast or faster (BENCHMARKS.md, "JSON writers").
   */
  readonly jsonWriters?: boolean;
  /**
   * Encode each text answer of 8 Ki characters to 64 KiB into a buffer the router reuses once
   * Node reports the answer written (`finish`), rather than handing Node the text, which it
   * copies twice more on the way out. Only for node:http responses (Express, Fastify's `raw`
   * too). Default: on. Turn it off under a response wrapper that keeps the bytes it was given
   * after `finish`.
   */
  readonly reuseAnswerBuffers?: boolean;
  readonly limits?: {
    /** Largest accepted request body in bytes (default 256 KiB); larger gets 400 (413 where the spec defines it). */
    readonly bodyBytes?: number;
    /** Deepest accepted JSON nesting (default 64); deeper gets 400. */
    readonly depth?: number;
    /**
     * Largest file of a `multipart/form-data` body in bytes (default 10 MiB); larger gets 400
     * naming the field (413 where the spec defines it). Each other field of a multipart body
     * is bounded by `bodyBytes`, and the whole body by what these limits allow together.
     */
    readonly fileBytes?: number;
    /** Most files in one multipart body (default 10); more gets 400 (413 where defined). */
    readonly files?: number;
    /** Most non-file fields in one multipart body (default 100); more gets 400 (413 where defined). */
    readonly fields?: number;
  };
  /** Rate limiting: seconds to wait, or undefined to let the request through. Answered 429 with `Retry-After`. */
  readonly rateLimit?: (input: { readonly operationId: string; readonly req: IncomingMessage }) => number | undefined | Promise<number | undefined>;
  /** `Retry-After` for a 429 that names no delay (default 30). */
  readonly retryAfterSeconds?: number;
  /**
   * Scheme, host (and path before the mount point, if a proxy strips one) clients use,
   * e.g. `https://rs.lfi.example.com`. Used for `request.url` (and so for `Links`).
   * Default: from the connection and the `Host` header; set it in production.
   */
  readonly publicUrl?: string | ((req: IncomingMessage) => string);
  /**
   * Builds the body of every error the router answers with a declared JSON schema (its own
   * 400 to 501, and `ApiError`s handlers throw): needed for an error schema that is neither
   * this family's envelope nor RFC 9457 problem details, and whose members are not obvious
   * (`code` and `message` are filled in without it). Return undefined to leave one to the
   * router. With `validateResponses`, a body that does not fit the schema is not sent.
   *
   * @example
   * formatError: ({ status, detail }) => ({ code: status, message: detail })
   */
  readonly formatError?: (error: ErrorDescription) => ErrorBody | undefined;
  /**
   * `x-fapi-interaction-id` on answers (the caller's, or a new UUID): by default only for
   * operations whose spec declares it (as a request header parameter or a response header);
   * `true` for every answer, `false` for none.
   */
  readonly fapiInteractionId?: boolean;
  /** Where errors the client does not see in detail are reported (default: console.error). */
  readonly onError?: (error: unknown, context: ErrorContext) => void;
  /**
   * Operations without a handler: `'notImplemented'` (default) answers them 501 with the
   * spec's error envelope, once routing, `Accept`, `Content-Type` and credentials (401/403)
   * have been checked, without reading the body; `'throw'` makes `createRouter` throw, naming them, so that a deployment cannot
   * forget one.
   */
  readonly missingHandlers?: 'notImplemented' | 'throw';
  /**
   * Told once, when the router is created, which operations have no handler (default: one
   * `console.warn` line naming them). Not called when every operation has one.
   */
  readonly onMissingHandlers?: (operations: readonly { readonly operationId: string; readonly method: string; readonly path: string }[]) => void;
}

/** Options of a generated `createWebhookRouter`: those of `createRouter`, and where each webhook is received. */
export interface WebhookRouterOptions<Key extends string = string> extends RouterOptions<unknown> {
  /**
   * Path the receiver answers under, after any Express mount path (default `''`: the paths
   * of `paths` as they are). The spec's servers describe the API, not the receiver.
   */
  readonly prefix?: string;
  /**
   * Where each webhook is received, below `prefix`, by its key (e.g.
   * `{ newPet: '/hooks/new-pet' }`). Default: `/<webhook name>`, percent-encoded. Two
   * webhooks may share a path only with different methods.
   */
  readonly paths?: { readonly [K in Key]?: string };
}
