/**
 * Which error response the spec declares for a status a publisher answers itself (the
 * router's own failures, an `ApiError` a handler throws, a mock handler refusing a request),
 * and how its body is built:
 *
 * - this API family's envelope (`{ Errors: [...] }`, `{ errorCode, errorMessage }`): as always;
 * - RFC 9457 problem details (`application/problem+json`, or a schema of its members);
 * - any other schema: `custom` (error-answer.ts builds a body that fits it);
 * - nothing declared: RFC 9457 `application/problem+json`.
 */
import type { z } from 'zod';
import { bodyKind } from './content-negotiation.js';
import type { ContentSchemas, OperationResponses, ResponseSchemas } from './contract-types.js';
import { isEnvelopeSchema } from './error-envelope.js';
import { isProblemMediaType, isProblemSchema } from './problem-details.js';

/** How the body of a declared error response is built. */
export type ErrorStyle = 'envelope' | 'problem' | 'custom';

/** Where an error answer comes from. */
export type ErrorPlan =
  /** The spec declares the status without a body: headers only. */
  | { readonly kind: 'empty' }
  | { readonly kind: 'declared'; readonly style: ErrorStyle; readonly content: ContentSchemas; readonly jsonType: string | undefined; readonly schema: z.ZodType | undefined }
  /** Nothing declared: RFC 9457. */
  | { readonly kind: 'undeclared' };

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

/**
 * The response an operation declares for `status`: exact, then `4XX`/`5XX`, then `default`.
 *
 * @example
 * declaredFor(operations.GetAccounts, 404) // → its `4XX` response, else its `default`
 */
export function declaredFor(op: OperationResponses | undefined, status: number): ResponseSchemas | undefined {
  const key = declaredStatusKey(op, status);
  return key === undefined ? undefined : op!.responses[key];
}

/**
 * The key of the response an operation declares for `status`: exact, then `4XX`/`5XX`, then
 * `default`; undefined when none covers it.
 *
 * @example
 * declaredStatusKey({ responses: { '200': r, '4XX': e } }, 404) // → '4XX'
 */
export function declaredStatusKey(op: { readonly responses: Readonly<Record<string, unknown>> } | undefined, status: number): string | undefined {
  if (!op) return undefined;
  // Looked up for every answer: the exact status first, without building the other keys.
  const key = String(status);
  if (op.responses[key]) return key;
  for (const candidate of [`${key[0]}XX`, `${key[0]}xx`, 'default']) if (op.responses[candidate]) return candidate;
  return undefined;
}

/**
 * For each status, range and `default`: the response most operations declare for it (the one
 * that speaks for the API where no operation is known: an unknown path).
 */
export function commonResponses(operations: readonly OperationResponses[]): Map<string, ResponseSchemas> {
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
 * The plan for an error of `status`: what `op` declares; without an operation (an unknown
 * path), what most operations declare (`apiResponses`, from `commonResponses`). This family's
 * specs leave some statuses to the envelope their other responses use, so an envelope
 * declared elsewhere in the API (for the status, else for 400, 500 or 403) still answers for them.
 */
export function errorPlan(op: OperationResponses | undefined, apiResponses: ReadonlyMap<string, ResponseSchemas>, status: number): ErrorPlan {
  const own = declaredFor(op, status);
  if (own) return planOf(own);
  const key = String(status);
  const api = apiResponses;
  const common = api.get(key) ?? api.get(`${key[0]}XX`) ?? api.get('default');
  if (common && (!op || isEnvelopePlan(planOf(common)))) return planOf(common);
  for (const sibling of [400, 500, 403]) {
    const response = declaredFor(op, sibling) ?? api.get(String(sibling));
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
