/**
 * The `authorize` of the README ("Options"): HTTP Basic checked against the application's
 * staff, an API key compared in constant time. `test/runtime/auth-challenges.test.ts` runs it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Authorize } from '../src/runtime/index.js';

/** The application's own check of a password. */
export interface Staff {
  checkPassword(user: string, password: string): Promise<boolean>;
}

const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export function museumAuthorize(staff: Staff, shopKey: string): Authorize {
  return async ({ scheme, credential }) => {
    if (scheme === 'staffBasic' && credential !== undefined) {
      // `Authorization: Basic base64(user:password)`; the password is what follows the first ':'.
      const text = Buffer.from(credential, 'base64').toString('utf8');
      const colon = text.indexOf(':');
      const user = text.slice(0, colon);
      return colon > 0 && (await staff.checkPassword(user, text.slice(colon + 1))) ? { scopes: [], user } : undefined;
    }
    if (scheme === 'shopKey' && credential !== undefined) {
      // The key as sent, from the header (or query parameter, or cookie) the scheme names.
      return same(credential, shopKey) ? { scopes: [], client: 'shop' } : undefined;
    }
    return undefined; // any other scheme or credential: 401
  };
}
