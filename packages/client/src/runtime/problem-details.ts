/**
 * RFC 9457 problem details as the client reads them from an error answer: the standard
 * members when the answer is `application/problem+json`, or when it is another JSON type whose
 * declared schema is problem details (the server runtime answers such a contract under the
 * declared type), extension members kept.
 */
import { mediaTypeOf } from './media-types.js';
import { memberNames } from './schema-members.js';
import type { SchemaLike } from './types.js';

/** The members of a problem-details body (RFC 9457 §3.1), with any extension members. */
export interface ProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly [extension: string]: unknown;
}

const PROBLEM_MEMBERS: readonly string[] = ['type', 'title', 'status', 'detail', 'instance'];

function isProblemMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && mediaTypeOf(contentType) === 'application/problem+json';
}

/**
 * True when an object schema declares at least two problem-details members, one of them
 * `title` or `detail`: the rule the server runtime uses to answer problem details under a
 * declared `application/json`, so both ends agree on what is a problem.
 */
function isProblemSchema(schema: SchemaLike | undefined): boolean {
  const known = memberNames(schema).filter((name) => PROBLEM_MEMBERS.includes(name));
  return known.length >= 2 && (known.includes('title') || known.includes('detail'));
}

/**
 * The problem details of an error answer: its object body with the standard members that have
 * the right type, when the answer is `application/problem+json` or `declaredSchema` (the
 * schema of the declared content type it matched) is problem details; undefined otherwise.
 */
export function problemDetailsOf(contentType: string | undefined, body: unknown, declaredSchema?: SchemaLike): ProblemDetails | undefined {
  if (!isProblemMediaType(contentType) && !isProblemSchema(declaredSchema)) return undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const problem: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  // RFC 9457 §3.1: a member of the wrong type is ignored, as if absent.
  for (const name of ['type', 'title', 'detail', 'instance']) if (name in problem && typeof problem[name] !== 'string') delete problem[name];
  if ('status' in problem && typeof problem['status'] !== 'number') delete problem['status'];
  return problem as ProblemDetails;
}
