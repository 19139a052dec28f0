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

// Empty: every defect the suite found so far is fixed. Add an entry only with a reproduction.
export const KNOWN_SERVER_ISSUES: readonly KnownIssue[] = [];
