/**
 * A 2xx answer whose content type is a declared sequential media type (OpenAPI 3.2
 * `itemSchema`: Server-Sent Events, JSON Lines, JSON text sequences, `multipart/mixed`), recognised from its
 * headers alone so that its body is read item by item, never whole; and what is checked of
 * such an answer before its body is handed out.
 */
import { sequenceEncodingOf, sequenceFormat, sequenceItemOf, type SequenceEncoding, type SequenceFormat } from '@bank-data-sharing/wire';
import { declaredTypeFor, formatIssues, responseSpecFor, unsignedAnswer, type DecodeContext, type DecodedResponse } from './decode.js';
import { ResponseValidationError } from './errors.js';
import { checkInteractionId } from './interaction-id.js';
import type { SequenceConnection } from './item-stream.js';
import type { HttpAnswer } from './transport.js';
import type { OperationSpec, ResponseSpec, SchemaLike } from './types.js';
import { checkValue } from './validation.js';

/** A declared media type whose body is a sequence of items. */
export interface DeclaredSequence {
  /** The declared content type (as the contract spells it). */
  contentType: string;
  format: SequenceFormat;
  /** Each item is checked with it. */
  itemSchema: SchemaLike;
  /** `multipart/mixed`: the media type of each part, by position (`prefixEncoding`, `itemEncoding`). */
  encoding?: SequenceEncoding;
}

const sequencesBySpec = new WeakMap<ResponseSpec, ReadonlyMap<string, DeclaredSequence>>();

/** The sequences a response declares, by declared content type: worked out once per response. */
function sequencesOf(spec: ResponseSpec): ReadonlyMap<string, DeclaredSequence> {
  let sequences = sequencesBySpec.get(spec);
  if (!sequences) {
    const found = new Map<string, DeclaredSequence>();
    for (const [contentType, schema] of Object.entries(spec.content)) {
      const format = sequenceFormat(contentType);
      const itemSchema = sequenceItemOf<SchemaLike>(schema);
      const encoding = sequenceEncodingOf(schema);
      if (format !== undefined && itemSchema !== undefined) found.set(contentType, { contentType, format, itemSchema, ...(encoding ? { encoding } : {}) });
    }
    sequences = found;
    sequencesBySpec.set(spec, sequences);
  }
  return sequences;
}

/** The declared sequence a 2xx answer's content type matches; undefined for a body read whole. */
export function sequenceOfAnswer(operation: OperationSpec, answer: HttpAnswer): DeclaredSequence | undefined {
  const { status } = answer;
  if (status < 200 || status >= 300) return undefined;
  const spec = responseSpecFor(operation, status);
  if (!spec) return undefined;
  const sequences = sequencesOf(spec);
  // Most responses declare none: no header to read.
  if (sequences.size === 0) return undefined;
  const received = answer.header('content-type');
  if (received === null) return undefined;
  const declared = declaredTypeFor(spec, received);
  return declared === undefined ? undefined : sequences.get(declared);
}

/**
 * The decoded answer of a sequence, its body still to be read: correlation and signature rules
 * applied and headers validated as `decodeText` does. `body` is left for the caller to set.
 */
export function decodeSequenceHead(answer: HttpAnswer, sequence: DeclaredSequence, ctx: DecodeContext): DecodedResponse {
  const { status } = answer;
  const rawHeaders = answer.headers();
  const received = rawHeaders['x-fapi-interaction-id'];
  const { operationId } = ctx.operation;
  if (ctx.interactionId !== undefined) checkInteractionId(operationId, ctx.interactionId, received ?? null, status);
  // A stream is never the signed form, so where that form is required the answer is refused.
  if (ctx.requireSignature) throw unsignedAnswer(status, rawHeaders['content-type'], ctx);
  let headers: Record<string, unknown> = rawHeaders;
  if (ctx.validate) {
    const checked = checkValue(responseSpecFor(ctx.operation, status)!.headers, rawHeaders);
    if (!checked.ok) {
      throw new ResponseValidationError({ status, operationId, url: ctx.url, interactionId: received, issues: formatIssues(checked.issues), what: 'the headers' });
    }
    headers = checked.value as Record<string, unknown>;
  }
  return { interactionId: received, url: ctx.url, status, contentType: sequence.contentType, body: undefined, headers };
}

/** A 2xx answer of a declared sequence: its headers checked, its body unread. */
export class OpenedSequence {
  constructor(
    readonly head: DecodedResponse,
    readonly answer: HttpAnswer,
    readonly sequence: DeclaredSequence,
  ) {}

  get connection(): SequenceConnection {
    return { answer: this.answer, status: this.head.status, interactionId: this.head.interactionId };
  }
}
