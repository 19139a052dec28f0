/**
 * Writing responses: error envelopes in the spec's shape, and handler results, JSON or
 * signed as negotiated, validated against the response schema when asked.
 */
import type { z } from 'zod';
import { bodyKind, FAILURES, issueLines, jsonWriterOf, negotiate, type ErrorItem, type FailureKind } from '@bank-data-sharing/wire';
import { isApiError } from './api-error.js';
import { errorAnswer, errorPlan } from './error-contract.js';
import type { Exchange } from './exchange.js';
import { buildClaims, signClaims } from './jws.js';
import { jsonWritersPayOff } from './json-writers.js';
import { encodeIntoReused } from './answer-buffers.js';
import type { ContentSchemas } from './types.js';

/** A response as it goes on the wire. */
export interface Outgoing {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload?: string | Uint8Array;
}

/** Writes a response unless one was already sent. Never throws. */
export function write(ex: Exchange, out: Outgoing): void {
  const { res } = ex;
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.statusCode = out.status;
  for (const [name, value] of Object.entries(out.headers)) res.setHeader(name, value);
  if (ex.echoInteractionId) res.setHeader('x-fapi-interaction-id', ex.interactionId);
  if (out.payload === undefined) {
    res.end();
    return;
  }
  // Text goes out as bytes in a reused buffer (answer-buffers.ts), given back once written; a
  // Buffer made per answer instead (31 kB for a page of 100 transactions) would live until a
  // garbage collection swept it, and the process would keep faulting in fresh pages: on bare
  // node:http that was 4x the kernel time (BENCHMARKS.md, "Router at the floor").
  if (typeof out.payload === 'string') {
    const reused = ex.head || ex.options.reuseAnswerBuffers === false ? undefined : encodeIntoReused(res, out.payload);
    if (reused !== undefined) {
      res.setHeader('content-length', String(reused.bytes.byteLength));
      res.end(reused.bytes, reused.release);
      return;
    }
    res.setHeader('content-length', String(Buffer.byteLength(out.payload, 'utf8')));
    if (ex.head) res.end();
    else res.end(out.payload, 'utf8');
    return;
  }
  res.setHeader('content-length', String(out.payload.byteLength));
  res.end(ex.head ? undefined : out.payload);
}

const producibleCache = new WeakMap<ContentSchemas, { readonly all: readonly string[]; readonly plain: readonly string[] }>();

/** The media types of `content`, worked out once per content map and shared: never to be changed. */
function typeLists(content: ContentSchemas): { readonly all: readonly string[]; readonly plain: readonly string[] } {
  let known = producibleCache.get(content);
  if (!known) {
    const types = Object.keys(content);
    known = { all: types, plain: types.filter((type) => bodyKind(type) !== 'jwt') };
    producibleCache.set(content, known);
  }
  return known;
}

/** Every media type of `content`, in the spec's order. */
export function contentTypesOf(content: ContentSchemas): readonly string[] {
  return typeLists(content).all;
}

/**
 * Media types the router can produce from `content`: all of them with a signing key, all but
 * JWT without one (they depend on the content map and on whether a signing key is configured,
 * nothing else).
 */
export function producibleTypes(content: ContentSchemas, signing: boolean): readonly string[] {
  const known = typeLists(content);
  return signing ? known.all : known.plain;
}

/** `producibleTypes` with the exchange's signing configuration. */
export function producible(ex: Exchange, content: ContentSchemas): readonly string[] {
  return producibleTypes(content, ex.options.signing !== undefined);
}

const claimsSchemas = new WeakMap<z.ZodType, boolean>();

/** True when a JWT schema describes decoded claims; false when it describes the compact string. */
export function describesClaims(schema: z.ZodType): boolean {
  let known = claimsSchemas.get(schema);
  if (known === undefined) {
    known = !schema.safeParse('eyJhbGciOiJub25lIn0.e30.c2ln').success;
    claimsSchemas.set(schema, known);
  }
  return known;
}

/** A JSON sibling of a JWT media type, whose schema describes the `message`. */
function jsonSibling(content: ContentSchemas): z.ZodType | undefined {
  const type = Object.keys(content).find((t) => bodyKind(t) === 'json');
  return type === undefined ? undefined : content[type];
}

/** A handler result or a signing step that breaks the contract. */
export class ContractError extends Error {
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
  ) {
    super(message);
    this.name = 'ContractError';
  }
}

/**
 * Throws `ContractError` (with `message`, naming each problem) unless `value` satisfies
 * `schema`. Checking alone is cheaper than parsing (no copy of the value): the parse runs
 * only to name the problems.
 */
export function assertContract(schema: z.ZodType, value: unknown, message: string): void {
  if (schema.validate(value)) return;
  const checked = schema.safeParse(value);
  if (!checked.success) throw new ContractError(message, issueLines(checked.error.issues));
}

/**
 * Encodes `body` as `contentType`: JSON text, a signed JWT, text or bytes. With `check`,
 * the value (or the JWT claims) must satisfy `schema`, else `ContractError`.
 */
export async function encodeBody(
  ex: Exchange,
  body: unknown,
  contentType: string,
  content: ContentSchemas,
  check: boolean,
): Promise<string | Uint8Array> {
  const schema = content[contentType];
  const kind = bodyKind(contentType);
  if (kind === 'jwt') {
    const signing = ex.options.signing;
    if (!signing) throw new ContractError(`cannot send ${contentType}: no signing key configured`);
    const claims = buildClaims(body, signing, ex.req);
    if (check && schema) {
      const target = describesClaims(schema) ? schema : jsonSibling(content);
      if (target) assertContract(target, target === schema ? claims : body, `${contentType} body does not match the response schema`);
    }
    return signClaims(claims, signing);
  }
  if (kind === 'json') {
    // The schema's compiled writer checks and writes in one walk. When it does not answer, the
    // full check runs (to name the issues) and JSON.stringify writes what passes.
    const writer = schema === undefined || !(ex.options.jsonWriters ?? jsonWritersPayOff) ? undefined : jsonWriterOf(schema);
    const written = writer === undefined ? undefined : writer(body, check);
    if (written !== undefined) return written;
    if (check && schema) assertContract(schema, body, `${contentType} body does not match the response schema`);
    const text = JSON.stringify(body);
    if (text === undefined) throw new ContractError('body is not JSON-serialisable');
    return text;
  }
  if (check && schema && kind !== 'binary') assertContract(schema, body, `${contentType} body does not match the response schema`);
  if (kind === 'binary' && (body instanceof Uint8Array || typeof body === 'string')) return body;
  if (kind === 'form' && body !== null && typeof body === 'object') {
    return new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)])).toString();
  }
  return String(body);
}

function statusHeaders(ex: Exchange, status: number, extra: Readonly<Record<string, string>>): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (status === 401 && headers['www-authenticate'] === undefined) headers['www-authenticate'] = ex.challenge ?? 'Bearer';
  if (status === 429 && headers['retry-after'] === undefined) headers['retry-after'] = String(ex.options.retryAfterSeconds ?? 30);
  if (status === 413) headers.connection = 'close';
  return headers;
}

/**
 * Answers with an error status, in the error contract the spec declares for it (see
 * error-contract.ts): no body where the status is declared without one; this family's
 * envelope, problem details or the application's own shape, negotiated like any body
 * (signed where the client asked for `application/jwt` and a key is configured); RFC 9457
 * `application/problem+json` where nothing is declared or nothing fits.
 */
export async function sendError(
  ex: Exchange,
  status: number,
  items: readonly ErrorItem[],
  extraHeaders: Readonly<Record<string, string>> = {},
): Promise<void> {
  const headers = statusHeaders(ex, status, Object.fromEntries(Object.entries(extraHeaders).map(([k, v]) => [k.toLowerCase(), v])));
  const plan = errorPlan(ex, status);
  if (plan.kind === 'empty') {
    write(ex, { status, headers });
    return;
  }
  const answer = errorAnswer(ex, plan, status, items);
  const content = answer.declared && plan.kind === 'declared' ? plan.content : {};
  const offers = producible(ex, content);
  // An error is still worth reporting when Accept excludes its types: the type it was built for.
  const negotiated = negotiate(ex.accept, offers);
  const carries = negotiated !== undefined && (bodyKind(negotiated) === 'jwt' || (plan.kind === 'declared' && content[negotiated] === plan.schema));
  const chosen = carries ? negotiated : answer.contentType;
  try {
    const payload = await encodeBody(ex, answer.body, chosen, content, false);
    write(ex, { status, headers: { ...headers, 'content-type': chosen }, payload });
  } catch (error) {
    ex.options.onError?.(error, { interactionId: ex.interactionId, operationId: ex.op?.operationId, phase: 'internal' });
    write(ex, { status, headers: { ...headers, 'content-type': answer.contentType }, payload: JSON.stringify(answer.body) });
  }
}

/**
 * Answers with one of the router's own failures.
 *
 * @example
 * await sendFailure(ex, 'invalidScope', 'token lacks scope accounts');
 */
export function sendFailure(ex: Exchange, kind: FailureKind, message: string, options: { path?: string; headers?: Record<string, string> } = {}): Promise<void> {
  const { status, code } = FAILURES[kind];
  return sendError(ex, status, [{ code, message, ...(options.path !== undefined ? { path: options.path } : {}) }], options.headers);
}

/** Answers an `ApiError` thrown by a handler or a hook. */
export function sendApiError(ex: Exchange, error: unknown): Promise<void> {
  if (!isApiError(error)) return sendFailure(ex, 'internal', 'The server failed to handle the request');
  const headers: Record<string, string> = { ...error.headers };
  if (error.retryAfter !== undefined) headers['retry-after'] = String(Math.max(0, Math.ceil(error.retryAfter)));
  return sendError(ex, error.status, error.errors, headers);
}
