/**
 * Runtime of the generated Bank Data Sharing clients (`@bank-data-sharing/client/runtime`).
 * Generated code imports it by that name; applications import `paginate`, the token and
 * error types from here.
 */
export { createClientCore, type CallOptions, type ClientCore, type ClientOptions, type OperationMethod, type SecuritySchemes } from './client.js';
export {
  basicAuthorization,
  securityPlanner,
  withCookieCredentials,
  withQueryCredentials,
  type BasicCredentials,
  type CredentialOf,
  type Credentials,
  type CredentialSource,
  type CredentialsFor,
  type Placement,
  type SecurityPlan,
  type SecurityPlanner,
  type SecuritySchemeInfo,
} from './credentials.js';
export { execute, type ClientEvent } from './execute.js';
export {
  answerOfResponse,
  DEFAULT_MAX_RESPONSE_BYTES,
  fetchTransport,
  undiciTransport,
  type DispatcherLike,
  type FetchLike,
  type HttpAnswer,
  type HttpBody,
  type HttpRequest,
  type Transport,
} from './transport.js';
export { decodeResponse, responseSpecFor, type DecodedResponse } from './decode.js';
export {
  ApiError,
  ClientError,
  InteractionIdMismatchError,
  NetworkError,
  PaginationError,
  RequestError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  SignatureError,
  TokenError,
  errorItemsOf,
  type ErrorItem,
  type SignatureProblem,
} from './errors.js';
export { customerHeaders, mergeHeaders, type CustomerContext, type HeaderSource, type HeaderValues } from './headers.js';
export { checkInteractionId, isInteractionId, newInteractionId } from './interaction-id.js';
export {
  DEFAULT_SIGNING_ALGORITHMS,
  SIGNED_ENVELOPE_CLAIMS,
  verifySignedBody,
  type SignatureOptions,
  type VerificationKeys,
  type VerifiedJws,
} from './jws.js';
export { acceptHeader } from './media-types.js';
export { encodeMultipart, encodeUrlEncoded, formParts } from './form-encode.js';
export { DEFAULT_MAX_PAGES, defaultRecords, pages, paginate, readAll, type DefaultRecord, type Page, type PagesOptions, type RecordsOptions } from './paginate.js';
export { buildUrl, fillPath, queryString, resolveBaseUrl, type RequestParams } from './request.js';
export type { RequestSigner } from './request-body.js';
export { DEFAULT_RESUME, type ResumeOptions } from './resume.js';
export {
  backoffDelay,
  DEFAULT_RETRY_POLICY,
  isRetryableStatus,
  parseRetryAfter,
  resolveRetryPolicy,
  sleep,
  type ResolvedRetryPolicy,
  type RetryPolicy,
} from './retry.js';
export { staticToken, TokenManager, tokenScope, type AccessToken, type TokenProvider, type TokenReason, type TokenRequest } from './tokens.js';
export type {
  ApiInfo,
  BodyOf,
  ErrorBodyOf,
  Input,
  OperationMeta,
  OperationSpec,
  Output,
  ParamsOf,
  Received,
  ResponseOf,
  ResultOf,
  SchemaLike,
  SecurityRequirements,
} from './types.js';
// The wire model (`@bank-data-sharing/wire`) this runtime shares with the server stubs:
// re-exported under the names this entry point has always had.
export {
  declaredContentType as matchContentType,
  declaresHeader,
  isFile,
  mediaTypeOf,
  problemDetailsOf,
  type FileInput,
  type FormField,
  type FormLayout,
  type FormValue,
  type ParameterWire,
  type ReceivedProblemDetails as ProblemDetails,
} from '@bank-data-sharing/wire';
export type { OAuthFlowInfo, OAuthFlowsInfo } from './credentials.js';
export { OAuthError } from './oauth-endpoint.js';
export { authorizationServerMetadata, type AuthorizationServerMetadata } from './oauth-metadata.js';
export type { DeviceUserCode, PollIntervalBounds } from './device-grant.js';
export { deviceAuthorizationTokens, type DeviceAuthorizationOptions, type DeviceAuthorizationTokens, type DeviceEndpoints } from './device-tokens.js';
