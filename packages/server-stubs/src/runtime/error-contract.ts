/**
 * Which error response the spec declares for a status the router answers itself (or an
 * `ApiError` a handler throws), and the body that fits it:
 *
 * - this API family's envelope (`{ Errors: [...] }`, `{ errorCode, errorMessage }`): as always;
 * - RFC 9457 problem details (`application/problem+json`, or a schema of its members);
 * - any other schema: the application's `formatError`, else the obvious members filled in
 *   (`code` = status, `message` = the messages), checked against the schema;
 * - nothing declared, or nothing that fits: RFC 9457 `application/problem+json`.
 */
import type { z } from 'zod';
import type { ErrorItem } from './api-error.js';
import { bodyKind } from './content-negotiation.js';
import { errorBody, isEnvelopeSchema, knownShapeBody } from './error-envelope.js';
import type { Exchange } from './exchange.js';
import { objectMembers } from './object-members.js';
import { isProblemMediaType, isProblemSchema, PROBLEM_JSON, problemDetails } from './problem-details.js';
import type { ContentSchemas, OperationSchemas, ResponseSchemas } from './types.js';
import { issueLines } from './validation-issues.js';

/** How the body of a declared error response is built. */
export type ErrorStyle = 'envelope' | 'problem' | 'custom';

/** Where an error answer comes from. */
export type ErrorPlan =
  /** The spec declares the status without a body: headers only. */
  | { readonly kind: 'empty' }
  | { readonly kind: 'declared'; readonly style: ErrorStyle; readonly content: ContentSchemas; readonly jsonType: string | undefined; readonly schema: z.ZodType | undefined }
  /** Nothing declared: RFC 9457. */
  | { readonly kind: 'undeclared' };

/** What the application's `formatError` is told about an error. */
export interface ErrorDescription {
  readonly status: number;
  /** The status phrase (`Not Found`). */
  readonly title: string;
  /** The messages in one line, each prefixed by its field when it has one. */
  readonly detail: string;
  /** Each problem: code, message and (for a field) its path or parameter name. */
  readonly items: readonly ErrorItem[];
  /** The operation, when routing found one. */
  readonly operationId: string | undefined;
}

/** The JSON media type of `content` whose schema error bodies are built for: problem+json first. */
function jsonTypeOf(content: ContentSchemas): string | undefined {
  const types = Object.keys(content);
  return types.find(isProblemMediaType) ?? types.find((t) => bodyKind(t) === 'json');
}

const styles = new WeakMap<ResponseSchemas, ErrorPlan>();

/** The plan of one declared response, worked out once per response. */
function planOf(response: ResponseSchemas): ErrorPlan {
  let plan = styles.get(response);
  if (plan) return plan;
  const types = Object.keys(response.content);
  if (types.length === 0) plan = { kind: 'empty' };
  else {
    const jsonType = jsonTypeOf(response.content);
    const schema = jsonType === undefined ? undefined : response.content[jsonType];
    let style: ErrorStyle;
    if (jsonType !== undefined && isProblemMediaType(jsonType)) style = 'problem';
    else if (schema === undefined) style = types.some((t) => bodyKind(t) === 'jwt') ? 'envelope' : 'custom';
    else if (isEnvelopeSchema(schema)) style = 'envelope';
    else style = isProblemSchema(schema) ? 'problem' : 'custom';
    plan = { kind: 'declared', style, content: response.content, jsonType, schema };
  }
  styles.set(response, plan);
  return plan;
}

/** The response an operation declares for `status`: exact, then `4XX`/`5XX`, then `default`. */
export function declaredFor(op: OperationSchemas | undefined, status: number): ResponseSchemas | undefined {
  if (!op) return undefined;
  const key = String(status);
  return op.responses[key] ?? op.responses[`${key[0]}XX`] ?? op.responses[`${key[0]}xx`] ?? op.responses.default;
}

/**
 * For each status, range and `default`: the response most operations declare for it (the one
 * that speaks for the API where no operation is known: an unknown path).
 */
export function commonResponses(operations: readonly OperationSchemas[]): Map<string, ResponseSchemas> {
  const counts = new Map<string, Map<ResponseSchemas, number>>();
  for (const op of operations) {
    for (const [key, response] of Object.entries(op.responses)) {
      const byResponse = counts.get(key) ?? new Map<ResponseSchemas, number>();
      byResponse.set(response, (byResponse.get(response) ?? 0) + 1);
      counts.set(key, byResponse);
    }
  }
  const common = new Map<string, ResponseSchemas>();
  for (const [key, byResponse] of counts) {
    let best: ResponseSchemas | undefined;
    let most = 0;
    for (const [response, count] of byResponse) {
      if (count > most) [best, most] = [response, count];
    }
    common.set(key, best!);
  }
  return common;
}

/**
 * The plan for an error of `status`: what the operation declares; without an operation (an
 * unknown path), what most operations declare. This family's specs leave some statuses to
 * the envelope their other responses use, so an envelope declared elsewhere in the API
 * (for the status, else for 400, 500 or 403) still answers for them.
 */
export function errorPlan(ex: Exchange, status: number): ErrorPlan {
  const own = declaredFor(ex.op, status);
  if (own) return planOf(own);
  const key = String(status);
  const api = ex.apiResponses;
  const common = api.get(key) ?? api.get(`${key[0]}XX`) ?? api.get('default');
  if (common && (!ex.op || isEnvelopePlan(planOf(common)))) return planOf(common);
  for (const sibling of [400, 500, 403]) {
    const response = declaredFor(ex.op, sibling) ?? api.get(String(sibling));
    if (!response) continue;
    const plan = planOf(response);
    // Only the JSON envelope is borrowed: the sibling's other media types are not this status's.
    if (plan.kind === 'declared' && plan.style === 'envelope' && plan.jsonType !== undefined) {
      return { ...plan, content: { [plan.jsonType]: plan.schema! } };
    }
  }
  return { kind: 'undeclared' };
}

function isEnvelopePlan(plan: ErrorPlan): boolean {
  return plan.kind === 'declared' && plan.style === 'envelope';
}

/** `ErrorDescription` of an error. */
function describeError(ex: Exchange, status: number, items: readonly ErrorItem[]): ErrorDescription {
  const problem = problemDetails(status, items, false);
  return { status, title: problem.title, detail: problem.detail, items, operationId: ex.op?.operationId };
}

const CODE_MEMBER = /^(code|status|statusCode|status_code|httpStatus|http_status|errorCode|error_code)$/i;
const TEXT_MEMBER = /^(message|msg|detail|details|description|error|errorMessage|error_message|error_description|reason)$/i;

/**
 * A body for a schema nobody here knows, from its obvious members: a `code` or `status` gets
 * the HTTP status (or the error code where the schema wants a string), a `message`, `detail`
 * or `error` the messages, a `title` the status phrase. Undefined when the schema is not an
 * object with such members.
 */
export function fillObvious(schema: z.ZodType, error: ErrorDescription): unknown {
  const members = objectMembers(schema);
  if (!members) return undefined;
  const body: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(members)) {
    const candidates = CODE_MEMBER.test(key)
      ? [error.status, error.items[0]?.code, String(error.status)]
      : TEXT_MEMBER.test(key)
        ? [error.detail]
        : key === 'title'
          ? [error.title]
          : key === 'type'
            ? ['about:blank']
            : [];
    const fitting = candidates.find((candidate) => candidate !== undefined && member.safeParse(candidate).success);
    if (fitting !== undefined) body[key] = fitting;
  }
  return Object.keys(body).length > 0 ? body : undefined;
}

/** The body RFC 9457 asks for, with the field problems as `errors` where the schema allows them. */
function problemBody(schema: z.ZodType | undefined, status: number, items: readonly ErrorItem[]): unknown {
  const full = problemDetails(status, items, true);
  if (!schema || !('errors' in full) || schema.safeParse(full).success) return full;
  return problemDetails(status, items, false);
}

/** The application's body for an error, if it gives one that fits (a misfit is reported, like a handler's). */
function formatted(ex: Exchange, plan: Extract<ErrorPlan, { kind: 'declared' }>, error: ErrorDescription, check: boolean): unknown[] {
  const report = (failure: unknown, issues?: readonly string[]): void =>
    ex.options.onError?.(failure, { interactionId: ex.interactionId, operationId: ex.op?.operationId, phase: 'response', ...(issues ? { issues } : {}) });
  let body: unknown;
  try {
    body = ex.options.formatError?.(error);
  } catch (failure) {
    // A formatter that throws is the application's bug: reported, and the router's body sent.
    report(failure);
    return [];
  }
  if (body === undefined) return [];
  if (check && plan.schema) {
    const checked = plan.schema.safeParse(body);
    if (!checked.success) {
      report(
        new Error(`formatError built a body that does not match the schema declared for HTTP ${error.status}`),
        issueLines(checked.error.issues),
      );
      return [];
    }
  }
  return [body];
}

/** Bodies worth trying for a declared schema, best first: the application's, then the router's. */
function candidates(ex: Exchange, plan: Extract<ErrorPlan, { kind: 'declared' }>, status: number, items: readonly ErrorItem[], check: boolean): unknown[] {
  const error = describeError(ex, status, items);
  const own = formatted(ex, plan, error, check);
  if (plan.style === 'envelope') return [...own, errorBody(items, plan.schema)];
  if (plan.style === 'problem') return [...own, problemBody(plan.schema, status, items)];
  const schema = plan.schema;
  // Only a non-JSON type declared (text, bytes): nothing here can honestly claim it.
  if (!schema) return [];
  return [...own, knownShapeBody(items, schema), fillObvious(schema, error), errorBody(items, schema), problemBody(schema, status, items)].filter((b) => b !== undefined);
}

/** A body and the media type it is sent as (before negotiation picks a signed form). */
export interface ErrorAnswer {
  readonly body: unknown;
  /** The declared JSON type the body was built for, or `application/problem+json`. */
  readonly contentType: string;
  /** True when the body fits a declared response (so another declared type, JWT, may carry it). */
  readonly declared: boolean;
}

/**
 * The body of an error answer. With `validateResponses` (the default) only a body that fits
 * the declared schema is sent; where none does, RFC 9457 is, and `onError` hears about it
 * once per schema.
 */
export function errorAnswer(ex: Exchange, plan: ErrorPlan, status: number, items: readonly ErrorItem[]): ErrorAnswer {
  const fallback = (): ErrorAnswer => ({ body: problemDetails(status, items, true), contentType: PROBLEM_JSON, declared: false });
  if (plan.kind !== 'declared') return fallback();
  const check = ex.options.validateResponses !== false && plan.schema !== undefined;
  const tried = candidates(ex, plan, status, items, check);
  const contentType = plan.jsonType ?? (plan.style === 'problem' ? PROBLEM_JSON : 'application/json');
  const fitting = check ? tried.find((body) => plan.schema!.safeParse(body).success) : tried[0];
  if (fitting !== undefined) return { body: fitting, contentType, declared: true };
  if (check && !ex.reported.has(plan.schema!)) {
    ex.reported.add(plan.schema!);
    const why = new Error(`no error body fits the schema the spec declares for HTTP ${status} (${contentType}); sent RFC 9457 problem details instead. Pass options.formatError to build one.`);
    ex.options.onError?.(why, { interactionId: ex.interactionId, operationId: ex.op?.operationId, phase: 'response' });
  }
  return fallback();
}
