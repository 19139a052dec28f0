/**
 * The body of an error answer in the contract the spec declares for its status (error-plan.ts
 * picks the plan): this family's envelope, RFC 9457 problem details, or for any other schema
 * the application's `formatError`, else the obvious members filled in (`code` = status,
 * `message` = the messages), checked against the schema; RFC 9457 `application/problem+json`
 * where nothing is declared or nothing fits. Pure: the publisher says how to report a problem.
 */
import type { z } from 'zod';
import type { ErrorItem } from './error-item.js';
import { errorBody, knownShapeBody } from './error-envelope.js';
import type { ErrorPlan } from './error-plan.js';
import { objectMembers } from './object-members.js';
import { PROBLEM_JSON, problemDetails } from './problem-details.js';
import { issueLines } from './validation-issues.js';

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

/** How a publisher builds its error bodies: the application's say, and where problems are told. */
export interface ErrorAnswerOptions {
  /** The operation the error is for, when one is known (told to `formatError`). */
  readonly operationId: string | undefined;
  /** The application's body for an error (the router's `formatError` option); undefined leaves it to the contract. */
  readonly formatError?: ((error: ErrorDescription) => unknown) | undefined;
  /** Send only a body that fits the declared schema (the router's `validateResponses`). */
  readonly validate: boolean;
  /** Told when `formatError` throws or builds a misfit (with the schema's `issues`), and when no body fits a schema. */
  readonly report: (failure: unknown, issues?: readonly string[]) => void;
  /** Schemas already reported as fitting no body: each is reported once (the caller keeps the set, per router). */
  readonly reported: Set<z.ZodType>;
}

/** `ErrorDescription` of an error. */
function describeError(options: ErrorAnswerOptions, status: number, items: readonly ErrorItem[]): ErrorDescription {
  const problem = problemDetails(status, items, false);
  return { status, title: problem.title, detail: problem.detail, items, operationId: options.operationId };
}

const CODE_MEMBER = /^(code|status|statusCode|status_code|httpStatus|http_status|errorCode|error_code)$/i;
const TEXT_MEMBER = /^(message|msg|detail|details|description|error|errorMessage|error_message|errorDescription|error_description|reason)$/i;

/**
 * A body for a schema nobody here knows, from its obvious members: a `code` or `status` gets
 * the HTTP status (or the error code where the schema wants a string), a `message`, `detail`
 * or `error` the messages, a `title` the status phrase; members wrapped in an object of their
 * own (`{ errorInformation: { errorCode, errorDescription } }`) too. Undefined when the schema
 * is not an object with such members.
 *
 * @example
 * fillObvious(z.object({ code: z.int(), message: z.string() }), { status: 409, title: 'Conflict', detail: 'already there', items: [], operationId: undefined })
 * // → { code: 409, message: 'already there' }
 */
export function fillObvious(schema: z.ZodType, error: ErrorDescription): unknown {
  return fillObviousAt(schema, error, 0);
}

/** How deep an object of obvious members may sit (`{ errorInformation: { errorCode, errorDescription } }`, as FSPIOP writes it). */
const MAX_WRAPPING = 2;

function fillObviousAt(schema: z.ZodType, error: ErrorDescription, depth: number): unknown {
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
    else if (candidates.length === 0 && depth < MAX_WRAPPING) {
      // A member that wraps the obvious ones in an object of its own.
      const inner = fillObviousAt(withoutOptional(member), error, depth + 1);
      if (inner !== undefined && member.safeParse(inner).success) body[key] = inner;
    }
  }
  return Object.keys(body).length > 0 ? body : undefined;
}

/** The schema an optional member wraps (read structurally, as `objectMembers` reads shapes). */
function withoutOptional(schema: z.ZodType): z.ZodType {
  const inner = (schema as { _zod?: { def?: { type?: string; innerType?: z.ZodType } } })._zod?.def;
  return inner?.type === 'optional' && inner.innerType ? inner.innerType : schema;
}

/** The body RFC 9457 asks for, with the field problems as `errors` where the schema allows them. */
function problemBody(schema: z.ZodType | undefined, status: number, items: readonly ErrorItem[]): unknown {
  const full = problemDetails(status, items, true);
  if (!schema || !('errors' in full) || schema.safeParse(full).success) return full;
  return problemDetails(status, items, false);
}

/** The application's body for an error, if it gives one that fits (a misfit is reported, like a handler's). */
function formatted(options: ErrorAnswerOptions, plan: Extract<ErrorPlan, { kind: 'declared' }>, error: ErrorDescription, check: boolean): unknown[] {
  let body: unknown;
  try {
    body = options.formatError?.(error);
  } catch (failure) {
    // A formatter that throws is the application's bug: reported, and the publisher's body sent.
    options.report(failure);
    return [];
  }
  if (body === undefined) return [];
  if (check && plan.schema) {
    const checked = plan.schema.safeParse(body);
    if (!checked.success) {
      options.report(
        new Error(`formatError built a body that does not match the schema declared for HTTP ${error.status}`),
        issueLines(checked.error.issues),
      );
      return [];
    }
  }
  return [body];
}

/** Bodies worth trying for a declared schema, best first: the application's, then the publisher's. */
function candidates(options: ErrorAnswerOptions, plan: Extract<ErrorPlan, { kind: 'declared' }>, status: number, items: readonly ErrorItem[], check: boolean): unknown[] {
  const error = describeError(options, status, items);
  const own = formatted(options, plan, error, check);
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
 * The body of an error answer. With `validate` only a body that fits the declared schema is
 * sent; where none does, RFC 9457 is, and `report` hears about it once per schema.
 *
 * @example
 * errorAnswer(errorPlan(op, apiResponses, 404), 404, [{ code: 'Resource.NotFound', message: 'gone' }], options)
 * // → { body: { Errors: [{ Code: 'Resource.NotFound', Message: 'gone' }] }, contentType: 'application/json', declared: true }
 */
export function errorAnswer(plan: ErrorPlan, status: number, items: readonly ErrorItem[], options: ErrorAnswerOptions): ErrorAnswer {
  const fallback = (): ErrorAnswer => ({ body: problemDetails(status, items, true), contentType: PROBLEM_JSON, declared: false });
  if (plan.kind !== 'declared') return fallback();
  const check = options.validate && plan.schema !== undefined;
  const tried = candidates(options, plan, status, items, check);
  const contentType = plan.jsonType ?? (plan.style === 'problem' ? PROBLEM_JSON : 'application/json');
  const fitting = check ? tried.find((body) => plan.schema!.safeParse(body).success) : tried[0];
  if (fitting !== undefined) return { body: fitting, contentType, declared: true };
  if (check && !options.reported.has(plan.schema!)) {
    options.reported.add(plan.schema!);
    const why = new Error(`no error body fits the schema the spec declares for HTTP ${status} (${contentType}); sent RFC 9457 problem details instead. Pass options.formatError to build one.`);
    options.report(why);
  }
  return fallback();
}
