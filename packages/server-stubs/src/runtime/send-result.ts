/**
 * Turns a handler's result into the response: the status must be one the operation
 * defines, the body is negotiated (JSON or signed) and, unless switched off, validated
 * together with the headers. A result that breaks the contract is a handler bug: the
 * client gets 500 `GenericError` (no details; in development, the rule broken in the
 * `X-Contract-Violation` header: contract-violation.ts), the application's `onError` gets the issues.
 */
import type { z } from 'zod';
import { bodyKind, declaredFor, negotiate, sequenceFormat, sequenceItemOf } from '@bank-data-sharing/wire';
import { responseFor, type Exchange } from './exchange.js';
import { assertContract, contentTypesOf, ContractError, encodeBody, producible, sendFailure, write } from './respond.js';
import { CONTRACT_VIOLATION_HEADER, explainsResponseErrors, violationHeader } from './contract-violation.js';
import { jsonWritersPayOff } from './json-writers.js';
import { sequenceBody, sendStream, type SequenceBody } from './send-stream.js';
import type { ContentSchemas } from './types.js';

interface ResultLike {
  status: number;
  headers?: Record<string, unknown>;
  body?: unknown;
  contentType?: string;
}

function isResult(value: unknown): value is ResultLike {
  return value !== null && typeof value === 'object' && Number.isInteger((value as ResultLike).status);
}

function lowerCaseHeaders(headers: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name.toLowerCase()] = String(value);
  return out;
}

/** The content of a response declared without any. */
const NO_CONTENT: ContentSchemas = Object.freeze({});

/** A response ready to send: a whole payload, or a sequence written item by item. */
interface Encoded {
  status: number;
  headers: Record<string, string>;
  payload?: string | Uint8Array;
  sequence?: SequenceBody;
}

/** The sequence `contentType` carries in `content` (OpenAPI 3.2 `itemSchema`), if it is one. */
function sequenceOf(ex: Exchange, contentType: string, schema: unknown, items: unknown): SequenceBody | undefined {
  const format = sequenceFormat(contentType);
  const itemSchema = format === undefined ? undefined : sequenceItemOf<z.ZodType>(schema);
  // Items' JSON through their compiled writer where writers pay off, as whole bodies (respond.ts).
  const writers = ex.options.jsonWriters ?? jsonWritersPayOff;
  return format === undefined || itemSchema === undefined ? undefined : sequenceBody(format, contentType, schema, itemSchema, items, writers);
}

async function encode(ex: Exchange, result: ResultLike, check: boolean): Promise<Encoded> {
  if (!isResult(result)) throw new ContractError('handler result has no integer status');
  const { status } = result;
  if (status < 100 || status > 599) throw new ContractError(`status ${status} is not an HTTP status`);
  // A handler's answer is the final response: an informational status (1xx) cannot be one.
  if (status < 200) throw new ContractError(`status ${status} is informational (1xx), which cannot be the final answer to a request`);
  const own = declaredFor(ex.op, status);
  const definition = own ?? responseFor(ex, status);
  // An operation that declares no response at all (OpenAPI 3.1 allows it) has no status to keep.
  if (check && !own && ex.op !== undefined && Object.keys(ex.op.responses).length > 0) throw new ContractError(`status ${status} is not defined for ${ex.op.operationId}`);
  const headers = lowerCaseHeaders(result.headers);
  if (status === 429 && headers['retry-after'] === undefined) headers['retry-after'] = String(ex.options.retryAfterSeconds ?? 30);
  // A 401 of the handler's own says, as the router's do, which credentials the operation accepts.
  if (status === 401 && headers['www-authenticate'] === undefined && ex.challenge !== undefined) headers['www-authenticate'] = ex.challenge;
  const content = definition?.content ?? NO_CONTENT;
  const types = contentTypesOf(content);
  let payload: string | Uint8Array | undefined;
  let sequence: SequenceBody | undefined;
  if (types.length === 0 || status === 204 || status === 304) {
    if (check && result.body !== undefined) throw new ContractError(`status ${status} has no body in the spec, but the handler returned one`);
  } else {
    if (result.contentType !== undefined && !types.includes(result.contentType)) {
      throw new ContractError(`content type ${result.contentType} is not defined for status ${status}`);
    }
    const offers = producible(ex, content);
    const chosen = result.contentType ?? negotiate(ex.accept, offers) ?? offers.find((t) => bodyKind(t) === 'json') ?? offers[0];
    if (chosen === undefined) throw new ContractError(`status ${status} can only be sent as ${types.join(', ')}, and no signing key is configured`);
    sequence = sequenceOf(ex, chosen, content[chosen], result.body);
    if (!sequence) payload = await encodeBody(ex, result.body, chosen, content, check);
    // A sequence's writer may add to it: a multipart body's boundary.
    headers['content-type'] = sequence ? sequence.writer.contentType : chosen;
  }
  if (check && definition) {
    const sent = ex.echoInteractionId ? { ...headers, 'x-fapi-interaction-id': ex.interactionId } : headers;
    assertContract(definition.headers, sent, `response headers of status ${status} do not match the spec`);
  }
  return { status, headers, ...(payload !== undefined ? { payload } : {}), ...(sequence ? { sequence } : {}) };
}

/** Sends a handler's result, or 500 when it breaks the contract. */
export async function sendResult(ex: Exchange, result: unknown): Promise<void> {
  const check = ex.options.validateResponses !== false;
  try {
    const encoded = await encode(ex, result as ResultLike, check);
    if (encoded.sequence) await sendStream(ex, encoded.status, encoded.headers, encoded.sequence, check);
    else write(ex, encoded);
  } catch (error) {
    const issues = error instanceof ContractError ? error.issues : [];
    ex.options.onError?.(error, { interactionId: ex.interactionId, operationId: ex.op?.operationId, phase: 'response', issues });
    // In development, the cause travels with the 500 (contract-violation.ts); never the values.
    let headers: Record<string, string> | undefined;
    if (error instanceof ContractError && explainsResponseErrors(ex.options)) {
      const status = isResult(result) ? result.status : undefined;
      const message = status === undefined || error.message.includes(`status ${status}`) ? error.message : `status ${status}: ${error.message}`;
      headers = { [CONTRACT_VIOLATION_HEADER]: violationHeader(message, issues) };
    }
    await sendFailure(ex, 'internal', 'The server failed to produce a valid response', headers ? { headers } : {});
  }
}
