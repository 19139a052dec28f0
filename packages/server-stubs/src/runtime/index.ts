/**
 * Runtime of the generated server stubs: the request pipeline, content negotiation,
 * security, error envelopes, signed bodies and the hub paging adapter. Generated
 * `createRouter` functions call `createApiRouter`; applications mostly use `ApiError`,
 * the option types and the paging adapter.
 */
export { ApiError, isApiError, type ApiErrorOptions } from './api-error.js';
export { RequestItemError } from './request-stream.js';
// The wire model (`@bank-data-sharing/wire`) this runtime shares with the client: re-exported
// under the names this entry point has always had.
export {
  acceptedContentType as matchContentType,
  applyParameterStyles,
  assertNoProtoKeys,
  bodyKind,
  clampText,
  decodeForm,
  DEFAULT_MAX_DEPTH,
  errorBody,
  FAILURES,
  fillObvious,
  FormFieldError,
  issuesToErrors,
  isUploadedFile,
  jsonPath,
  jsonPointer,
  negotiate,
  ParameterStyleError,
  parseJsonSafely,
  parseMediaType,
  PRESCRIBED_CODES,
  PROBLEM_JSON,
  problemDetails,
  statusTitle,
  UnsafeInputError,
  type BodyKind,
  type DeclaredNames,
  type ErrorDescription,
  type ErrorItem,
  type FailureKind,
  type FormEncodings,
  type FormEntry,
  type FormField,
  type FormLayout,
  type FormValue,
  type Location,
  type MediaType,
  type ParameterMaps,
  type ParameterWire,
  type ProblemDetails,
  type ProblemItem,
  type RawParameters,
  type UploadedFile,
} from '@bank-data-sharing/wire';
export { interactionId, isUuid } from './interaction-id.js';
export { jsonWritersPayOff } from './json-writers.js';
export { checkSecurity, credentialFor, type Authorize, type AuthorizeInput, type SecurityOutcome } from './security.js';
export { DEFAULT_BODY_LIMIT, DEFAULT_FILE_LIMIT, DEFAULT_FILES_LIMIT, DEFAULT_FIELDS_LIMIT } from './body.js';
export { buildClaims, signClaims, verifySignedBody, SignedBodyError, type SigningOptions, type VerificationOptions } from './jws.js';
export { compilePaths, matchPath } from './path-matcher.js';
export { createApiRouter } from './router.js';
export { createApiWebhookRouter } from './webhook-router.js';
export type { RouterOptions, WebhookRouterOptions, CheckConsent, CheckConsentInput, ErrorContext } from './options.js';
export type {
  ApiDefinition,
  ApiInfo,
  ApiRouter,
  RouterCore,
  RouterOperation,
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
export { toNodeListener, type NodeRequestListener } from './adapters/node.js';
export { fastifyPlugin, type FastifyInstanceLike, type FastifyReplyLike, type FastifyRequestLike, type FastifyRouterPlugin } from './adapters/fastify.js';
export { fastifyFrameworkErrors, type FastifyErrorReplyLike, type FastifyFrameworkErrors } from './adapters/fastify-framework-errors.js';
