/**
 * Runtime of the generated server stubs: the request pipeline, content negotiation,
 * security, error envelopes, signed bodies and the hub paging adapter. Generated
 * `createRouter` functions call `createApiRouter`; applications mostly use `ApiError`,
 * the option types and the paging adapter.
 */
export { ApiError, isApiError, type ApiErrorOptions, type ErrorItem } from './api-error.js';
export { PRESCRIBED_CODES, FAILURES, type FailureKind } from './error-codes.js';
export { errorBody, clampText } from './error-envelope.js';
export { fillObvious, type ErrorDescription } from './error-contract.js';
export { problemDetails, statusTitle, jsonPointer, PROBLEM_JSON, type ProblemDetails, type ProblemItem } from './problem-details.js';
export { issuesToErrors, jsonPath, type Location } from './validation-issues.js';
export { interactionId, isUuid } from './interaction-id.js';
export { negotiate, matchContentType, parseMediaType, bodyKind, type MediaType, type BodyKind } from './content-negotiation.js';
export { checkSecurity, credentialFor, type Authorize, type AuthorizeInput, type SecurityOutcome } from './security.js';
export { parseJsonSafely, assertNoProtoKeys, UnsafeInputError, DEFAULT_MAX_DEPTH } from './safe-json.js';
export { DEFAULT_BODY_LIMIT, DEFAULT_FILE_LIMIT, DEFAULT_FILES_LIMIT, DEFAULT_FIELDS_LIMIT } from './body.js';
export { decodeForm, FormFieldError, type FormEntry } from './form-decode.js';
export { isUploadedFile, type FormEncodings, type FormField, type FormLayout, type FormValue, type UploadedFile } from './form-layout.js';
export { buildClaims, signClaims, verifySignedBody, SignedBodyError, type SigningOptions, type VerificationOptions } from './jws.js';
export { compilePaths, matchPath } from './path-matcher.js';
export { applyParameterStyles, ParameterStyleError, type ParameterWire, type RawParameters, type ParameterMaps, type DeclaredNames } from './parameters.js';
export { createApiRouter } from './router.js';
export { createApiWebhookRouter } from './webhook-router.js';
export type { RouterOptions, WebhookRouterOptions, CheckConsent, CheckConsentInput, ErrorContext } from './options.js';
export type {
  ApiDefinition,
  ApiInfo,
  ApiRouter,
  AuthGrant,
  BodyRequired,
  ContentSchemas,
  ErrorBodyOf,
  ErrorBodyOfOperation,
  Handler,
  HandlerReply,
  HandlerRequest,
  HandlerResult,
  JwtMessage,
  OperationMeta,
  OperationSchemas,
  RequestBody,
  RequestSchemas,
  ResponseSchemas,
  SecurityRequirement,
  SecuritySchemeMeta,
  SignedBody,
  WebhookDefinition,
  WebhookOperation,
  WebhookReply,
  WebhookRequest,
  WebhookSchemas,
} from './types.js';
export * from './paging/index.js';
