/**
 * Whether an operation was reached (a valid request got the success answer it declares, so
 * its success checks ran), why not when it was not, and which declared statuses its answers
 * covered. A run that reached nothing must not read as a green run.
 */
import type { OperationIR } from '../ir/types.js';

export interface Reach {
  readonly reached: boolean;
  /** When not reached: the statuses every valid request got, and what to do. */
  readonly why?: string;
}

/** What the hint of `why` can name. */
export interface ReachContext {
  /** Parameters an id must be known for: the path's and required query ones, not given with `--set`. */
  readonly idParameters: readonly string[];
  /** Those given with `--set`. */
  readonly givenParameters: readonly string[];
  /** Id parameters no answer handed out a value for and `--set` did not give: generated ids went. */
  readonly unknownIds: readonly string[];
  /** Signed (application/jwt) bodies went signed with the mock's published secret (no `--sign-key`). */
  readonly mockSigned: boolean;
  /** Whether the user gave credentials (`--auth`). */
  readonly credentialsGiven: boolean;
}

/** Whether a status is a success for `op`: a 2xx when it declares one, else any status below 400. */
export function isSuccess(op: OperationIR, status: number): boolean {
  const declares2xx = op.responses.some((r) => r.status.startsWith('2'));
  return declares2xx ? status >= 200 && status < 300 : status >= 200 && status < 400;
}

const only = (statuses: readonly number[], allowed: readonly number[]) => statuses.every((s) => allowed.includes(s));

/**
 * Reached or not from the statuses valid requests got (status to count); `sent` counts the
 * valid requests sent, answered or not.
 */
export function reachOf(op: OperationIR, valid: Readonly<Record<string, number>>, sent: number, context: ReachContext): Reach {
  const statuses = Object.keys(valid).map(Number);
  if (statuses.some((s) => isSuccess(op, s))) return { reached: true };
  if (sent === 0) return { reached: false, why: 'no valid request was sent (see its notes)' };
  if (statuses.length === 0) return { reached: false, why: 'no valid request got an answer (see the transport-error failure)' };
  const every = `every answer ${statuses.sort((a, b) => a - b).join('/')}`;
  const { idParameters, givenParameters } = context;
  const setHint =
    idParameters.length > 0 ? `pass ${idParameters.map((p) => `--set ${p}=<id>`).join(' ')} or seed the server with data`
    : givenParameters.length > 0 ? `pass --set with values the server knows`
    : "check that --base-url includes the path of the file's server";
  const ids =
    idParameters.length > 0 ? `no id the server knows for ${idParameters.join(', ')}`
    : givenParameters.length > 0 ? `the server knows no item for the --set values of ${givenParameters.join(', ')}`
    : 'the path is not served there';
  const credentials = context.credentialsGiven ? 'the credentials given do not grant it; pass others with --auth or --header' : 'credentials: pass them with --auth or --header';
  if (only(statuses, [404, 410])) return { reached: false, why: `${every}: ${ids}; ${setHint}` };
  if (only(statuses, [401, 403])) return { reached: false, why: `${every}: ${credentials}` };
  if (only(statuses, [400])) {
    if (context.mockSigned) return { reached: false, why: `${every}: the signed bodies went signed with the mock's published secret; pass --sign-key with a key the server trusts` };
    if (context.unknownIds.length > 0) return { reached: false, why: `${every}: ${ids} (a server may refuse an unknown id with 400); ${setHint}` };
    return { reached: false, why: `${every} to requests the file accepts: reported as valid-request-refused` };
  }
  if (only(statuses, [401, 403, 404, 410])) return { reached: false, why: `${every}: ${ids}, or ${credentials}` };
  if (statuses.every((s) => s >= 500)) return { reached: false, why: `${every}: the server failed (see the server-error failure)` };
  return { reached: false, why: `${every}: no success answer` };
}

/**
 * Whether valid requests all refused with 400 are a failure of the server: only when nothing
 * the server may rightly refuse went with them (an id it cannot know, a body signed with the
 * mock's secret).
 */
export function refusalIsFailure(context: ReachContext): boolean {
  return !context.mockSigned && context.unknownIds.length === 0;
}

/** The short form of `why` for a summary line: its statuses, without the hint. */
export function shortWhy(why: string): string {
  const colon = why.indexOf(':');
  return colon === -1 ? why : why.slice(0, colon);
}

export interface Coverage {
  /** Declared statuses (`200`, `4XX`, `default`) some answer had, in the file's order. */
  readonly seen: readonly string[];
  /** Declared statuses no answer had. */
  readonly never: readonly string[];
}

/** Which declared response an answer's status falls under: exact, then its range, then `default`. */
export function declaredEntry(op: OperationIR, status: number): string | undefined {
  const exact = String(status);
  const entries = op.responses.map((r) => r.status.toUpperCase());
  if (entries.includes(exact)) return exact;
  if (entries.includes(`${exact[0]}XX`)) return `${exact[0]}XX`;
  return entries.includes('DEFAULT') ? 'default' : undefined;
}

export function coverageOf(op: OperationIR, statuses: Readonly<Record<string, number>>): Coverage {
  const hit = new Set(Object.keys(statuses).map((s) => declaredEntry(op, Number(s))));
  const declared = op.responses.map((r) => (r.status.toUpperCase() === 'DEFAULT' ? 'default' : r.status.toUpperCase()));
  return { seen: declared.filter((s) => hit.has(s)), never: declared.filter((s) => !hit.has(s)) };
}
