/**
 * KNOWN_CLIENT_ISSUES: client defects the hardening tests found and that are not fixed yet.
 *
 * Each one has a test written for the behaviour we want, run with `it.fails` under the
 * entry's id: it passes while the defect is there, and fails (telling you to move it to a
 * plain `it` and drop the entry) as soon as the defect is fixed. Every other test in
 * test/hardening must pass outright.
 */
export const KNOWN_CLIENT_ISSUES = {
  'body-failure-not-retried': {
    summary:
      'A GET whose answer breaks off after the headers (connection dropped mid-body, Content-Length longer than what ' +
      'arrives, or the time limit reached while the body trickles in) fails at once with NetworkError: execute() ' +
      'retries network failures and time-outs only while waiting for the headers, although the README promises ' +
      '"Network errors, timeouts … retried at most maxRetries times … for GET". Where: src/runtime/execute.ts, the ' +
      'catch around decodeResponse throws NetworkError without consulting the retry budget. Fix: treat a ' +
      'TypeError/TimeoutError from reading the body like a fetch failure (same budget, same backoff) when the method is safe.',
  },
  'token-wait-unbounded': {
    summary:
      'Getting a token is bounded by nothing: TokenManager.token() awaits the provider without racing the caller\'s ' +
      'signal or timeoutMs, so a token endpoint that hangs (a provider that ignores `request.signal`) hangs the ' +
      'paged read for ever, even after the caller aborts. Where: src/runtime/tokens.ts token() (`return (await ' +
      'pending).value`) and src/runtime/execute.ts (the token is fetched outside attemptSignal). Fix: race the ' +
      'pending token with the signal (reject with its reason), and bound it by timeoutMs.',
  },
  'unsigned-answer-accepted': {
    summary:
      'A client configured for signed answers (`prefer: "signed"`, `signatures` given) accepts an unsigned ' +
      'application/json 200 for the same operation: anything between the LFI and the TPP that strips the signature ' +
      'downgrades the answer without the caller noticing (result.signature is then simply undefined). There is no ' +
      'option to require signatures. Where: src/runtime/decode.ts (any declared content type is taken). Fix: refuse a ' +
      'non-JWT success when signed answers were asked for and keys are configured (or add `signatures.required`).',
  },
  'nbf-problem-misnamed': {
    summary:
      'A signed answer without `nbf`, or with a non-numeric `nbf`, is refused (good) but reported as ' +
      'SignatureError problem "not-yet-valid" with the message "the token is not valid yet (nbf)", which sends whoever ' +
      'reads the logs after a clock problem. Where: src/runtime/jws.ts translate(): every ERR_JWT_CLAIM_VALIDATION_FAILED ' +
      'on `nbf` becomes not-yet-valid, whatever jose\'s `reason` (missing / invalid / check_failed). Fix: only ' +
      '`reason === "check_failed"` is not-yet-valid; the others are "claims".',
  },
} as const;

export type KnownClientIssue = keyof typeof KNOWN_CLIENT_ISSUES;

/** The title of a test pinned to a known issue. */
export function knownIssue(id: KnownClientIssue, title: string): string {
  return `[known issue ${id}] ${title}`;
}
