/**
 * RFC 9457 problem details as a receiver reads them from an error answer: the standard
 * members when the answer is `application/problem+json`, or when it is another JSON type whose
 * declared schema is problem details (the publisher answers such a contract under the
 * declared type, problem-details.ts), extension members kept.
 */
import { isProblemMediaType, isProblemSchema } from './problem-details.js';

/**
 * The members of a received problem-details body (RFC 9457 §3.1), with any extension members.
 * (The client runtime exports it as `ProblemDetails`.)
 */
export interface ReceivedProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly [extension: string]: unknown;
}

/**
 * The problem details of an error answer: its object body with the standard members that have
 * the right type, when the answer is `application/problem+json` or `declaredSchema` (the
 * schema of the declared content type it matched) is problem details; undefined otherwise.
 *
 * @example
 * problemDetailsOf('application/problem+json', { title: 'Not Found', status: '404' }) // → { title: 'Not Found' }
 */
export function problemDetailsOf(contentType: string | undefined, body: unknown, declaredSchema?: unknown): ReceivedProblemDetails | undefined {
  if (!isProblemMediaType(contentType) && !isProblemSchema(declaredSchema)) return undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const problem: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  // RFC 9457 §3.1: a member of the wrong type is ignored, as if absent.
  for (const name of ['type', 'title', 'detail', 'instance']) if (name in problem && typeof problem[name] !== 'string') delete problem[name];
  if ('status' in problem && typeof problem['status'] !== 'number') delete problem['status'];
  return problem as ReceivedProblemDetails;
}
