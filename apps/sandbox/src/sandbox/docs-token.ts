/**
 * The token the docs pages fill in: the one printed at start while it is valid, then a new
 * one for the same consent (tokens last ten minutes; the docs outlive them).
 */
import type { AuthStore } from '../auth/store.js';
import type { IssuedToken } from '../auth/tokens.js';

export function docsToken(auth: AuthStore, seeded: IssuedToken, issue: (consentId: string) => IssuedToken): () => string {
  let current = seeded;
  return () => {
    if (!auth.tokens.check(current.accessToken).ok && current.consentId !== undefined) current = issue(current.consentId);
    return current.accessToken;
  };
}
