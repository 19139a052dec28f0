/**
 * KNOWN_SERVER_ISSUES: the allow-list of the bad-input suite.
 *
 * Each entry is a server-stub defect (or a departure from the spec) found by the suite and
 * not fixed yet. An answer is excused only when it matches an entry's precise symptom AND
 * every problem found with it is one the entry explains; anything else still fails the
 * suite. An entry that excuses nothing in a run also fails it ("stale"): remove it once the
 * defect is fixed.
 */
import type { Case } from './cases.js';
import type { WireReply } from './wire.js';

/** What the router reported to `onError` for one exchange. */
export interface ServerErrorLog {
  interactionId: string;
  phase: string;
  operationId: string | undefined;
  error: string;
  issues: readonly string[];
}

export interface KnownIssue {
  id: string;
  /** What is wrong, where, and how to reproduce it. */
  summary: string;
  /** The symptom, precisely. */
  matches(c: Case, reply: WireReply, errors: readonly ServerErrorLog[]): boolean;
  /** The problems (from checkAnswer) this defect accounts for. */
  explains(problem: string): boolean;
}

/** A request target with characters RFC 3986 does not allow, or a `%` that starts no escape. */
const NOT_URI = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]|%(?![0-9A-Fa-f]{2})/;

function errorsBody(reply: WireReply): unknown {
  try {
    return JSON.parse(reply.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

export const KNOWN_SERVER_ISSUES: readonly KnownIssue[] = [
  {
    id: 'absolute-form-target',
    summary:
      'A request whose target is in absolute form (`GET http://host/open-finance/account-information/v2.2/accounts`), which ' +
      'RFC 9112 §3.2.2 says a server MUST accept, is not recognised: the router compares the raw `req.url` with its prefix, ' +
      'passes the request on, and the next middleware answers (Express: 404 HTML; plain node:http: 404), without ' +
      'x-fapi-interaction-id. Reproduce: send that request line to the v2.2 app → 404, no interaction id. Fix: in handle() ' +
      '(src/runtime/router.ts) drop a leading `scheme://authority` from req.url before the prefix check.',
    matches: (c, reply) => /^https?:\/\//.test(c.request.target) && reply.status === 404 && reply.headers['x-fapi-interaction-id'] === undefined,
    explains: (p) => fromOutsideTheRouter(p, 404),
  },
  {
    id: 'encoded-prefix',
    summary:
      'The path prefix is compared byte for byte, so `/open-finance/account%2Dinformation/v2.2/accounts` (the same path by ' +
      'RFC 3986 §6.2.2.2: `%2D` is an unreserved `-`) is passed to the next middleware (404 without x-fapi-interaction-id), ' +
      'while percent-encoded literal segments after the prefix do match (`/v2.2/%61ccounts` is served as `/accounts`). ' +
      'Reproduce: GET /open-finance/account%2Dinformation/v2.2/accounts → 404 from Express. Fix: decode unreserved ' +
      'percent-escapes of the path (or of the prefix part) before the prefix check.',
    matches: (c, reply) => c.request.target.includes('%2Dinformation') && reply.status === 404 && reply.headers['x-fapi-interaction-id'] === undefined,
    explains: (p) => fromOutsideTheRouter(p, 404),
  },
];

/** The problems of an answer written by the middleware after the router (it never saw the request as its own). */
function fromOutsideTheRouter(p: string, status: number): boolean {
  return (
    p.startsWith('x-fapi-interaction-id missing') ||
    p === `valid request refused with ${status}` ||
    p.startsWith(`status ${status} is not one `) ||
    p.startsWith(`status ${status} has no body in the spec`) ||
    p.startsWith('response headers break the spec')
  );
}
