/**
 * `@bank-data-sharing/wire`: how a request and its answer travel, written once for every end
 * that reads or writes them: the server stubs' router, the client, and mock handlers that run
 * in a browser. Pure functions of text, bytes and the generated validators' data; no Node
 * APIs, and zod only as types (the schemas come from the caller's validators).
 */

// Media types: the strict reading of a request's Content-Type and Accept, the lenient essence
// matching of a response's, and which kind of body a media type is.
export { acceptedContentType, bodyKind, kindOfMedia, negotiate, parseMediaType, parsedMediaType, type BodyKind, type MediaType } from './content-negotiation.js';
export { declaredContentType, isFormType, isJsonType, isJwtType, isMultipartType, isTextType, mediaTypeOf, normalizeContentType } from './media-types.js';

// Parameters: the forms of each style, written by the client and read back by the server.
export { listedIn, ParameterStyleError, type ParameterWire } from './parameter-wire.js';
export { parameterText, querystringText, styledCookiePairs, styledHeaderText, styledPathText, styledQueryPairs } from './parameter-serialize.js';
export { applyParameterStyles, querystringValue, type DeclaredNames, type ParameterMaps, type RawParameters } from './parameter-parse.js';
export { cookieObject, cookieParts, ForbiddenNameError, headerObject, queryObject, type HeaderMap } from './request-input.js';

// Headers.
export { declaresHeader, type HeaderDeclarations } from './declared-headers.js';
export { isHeaderText } from './header-text.js';

// Bodies: untrusted JSON, form layouts both ways, decoding a request body by media type.
export { assertNoProtoKeys, DEFAULT_MAX_DEPTH, parseJsonSafely, UnsafeInputError } from './safe-json.js';
export { FORM_DELIMITERS, formEncoding, isUploadedFile, type FormEncodings, type FormField, type FormLayout, type FormStyle, type FormValue, type UploadedFile } from './form-layout.js';
export { decodeForm, FormFieldError, type FormEntry } from './form-decode.js';
export { describeValue, encodeMultipart, encodeUrlEncoded, formParts, FormValueError, isFile, type FileInput, type FormPart } from './form-encode.js';
export { BodyFormatError, checkPreParsed, decodeBody } from './body-decode.js';

// JSON text through the writers the validators compile from each body's schema.
export { jsonWriterOf, writeJson, type JsonWriter } from './json-writer.js';

// Schemas: the member names both ends decide by.
export { memberNames, objectMembers } from './object-members.js';

// The publisher's error contract: which declared response answers a status, and its body.
export type { ContentSchemas, OperationResponses, ResponseSchemas } from './contract-types.js';
export type { ErrorItem } from './error-item.js';
export { FAILURES, PRESCRIBED_CODES, type FailureKind } from './error-codes.js';
export { issueLines, issuesToErrors, jsonPath, type IssueLike, type Location } from './validation-issues.js';
export { clampText, errorBody, isEnvelopeSchema, knownShapeBody, MAX_ITEMS, MAX_TEXT } from './error-envelope.js';
export { statusTitle } from './status-titles.js';
export { isProblemMediaType, isProblemSchema, jsonPointer, PROBLEM_JSON, problemDetails, type ProblemDetails, type ProblemItem } from './problem-details.js';
export { problemDetailsOf, type ReceivedProblemDetails } from './problem-read.js';
export { commonResponses, declaredFor, declaredStatusKey, errorPlan, type ErrorPlan, type ErrorStyle } from './error-plan.js';
export { errorAnswer, fillObvious, type ErrorAnswer, type ErrorAnswerOptions, type ErrorDescription } from './error-answer.js';

// Credentials: the challenges and messages of a 401, by the schemes an operation accepts.
export { authChallenges, credentialKind, missingCredentialFailure, missingCredentialsMessage, refusedCredentialMessage, type ChallengeScheme, type CredentialKind } from './auth-challenge.js';

// Requests: every part parsed and checked against an operation's schemas.
export { claimedNames, credentialNames, validateRequestParts, type CredentialPlace, type RequestParts, type RequestPartSchemas, type RequestPartsInput } from './request-validate.js';

// Streams: the sequential media types of OpenAPI 3.2, read and written item by item.
export { decodeEventStream, encodeEvent, EventStreamDecoder, EventStreamError, type EventFields, type EventStreamDecoderOptions, type ServerSentEvent } from './event-stream.js';
export { decodeJsonLines, encodeJsonLine, JsonLinesDecoder, JsonLinesError, type JsonLinesDecoderOptions } from './json-lines.js';
export { decodeJsonSeq, encodeJsonSeqRecord, JsonSeqDecoder, JsonSeqError, type JsonSeqDecoderOptions } from './json-seq.js';
export { decodeSequence, decodeSequenceText, encodeSequenceItem, sequenceFormat, sequenceItemOf, SequenceItemError, type SequenceFormat, type SequenceReadOptions } from './sequence-media.js';
export { boundaryOf, decodeMultipartMixed, isMultipartBoundary, MultipartMixedDecoder, MultipartMixedError, MultipartPartTooLargeError, type MultipartMixedDecoderOptions, type MultipartPart } from './multipart-mixed-read.js';
export { matchSegment, segmentTemplate, type SegmentTemplate } from './path-template.js';
export { MultipartMixedEncoder, newMultipartBoundary } from './multipart-mixed-write.js';
export { itemOfPart, partEncodingAt, partOfItem, type PartEncoding, type PartHeader, type SequenceEncoding } from './multipart-items.js';
export { isSequenceFormatError, sequenceEncodingOf, sequenceWriter, type SequenceWriter, type SequenceWriterOptions } from './sequence-media.js';
export { MAX_RETRY_AFTER_SECONDS, parseRetryAfter } from './retry-after.js';
export { withoutTrailing } from './trim-end.js';
