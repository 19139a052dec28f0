/**
 * RFC 9457 problem details as the client reads them from an error answer: the standard
 * members when the answer is `application/problem+json` (or carries them under a declared JSON
 * type), extension members kept.
 */

/** The members of a problem-details body (RFC 9457 §3.1), with any extension members. */
export interface ProblemDetails {
  readonly type?: string;
  readonly title?: string;
  readonly status?: number;
  readonly detail?: string;
  readonly instance?: string;
  readonly [extension: string]: unknown;
}

function isProblemMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/problem+json';
}

/**
 * The problem details of an error answer: for `application/problem+json`, its object body with
 * the standard members that have the right type; undefined for any other answer.
 */
export function problemDetailsOf(contentType: string | undefined, body: unknown): ProblemDetails | undefined {
  if (!isProblemMediaType(contentType) || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const problem: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  // RFC 9457 §3.1: a member of the wrong type is ignored, as if absent.
  for (const name of ['type', 'title', 'detail', 'instance']) if (name in problem && typeof problem[name] !== 'string') delete problem[name];
  if ('status' in problem && typeof problem['status'] !== 'number') delete problem['status'];
  return problem as ProblemDetails;
}
