/** Statement identifiers, shared by statements and by the StatementReference of entries. */
import type { AccountProfile } from './accounts.js';
import { startOfMonthUtc } from './datetime.js';

/**
 * Identifier of the statement covering `epochMs`, or undefined when that month is not
 * closed yet at `asOfMs` (the current month has no statement). 4 + 12 + 1 + 6 characters
 * stay within the 35 allowed for StatementReference.
 */
export function statementIdFor(account: AccountProfile, epochMs: number, asOfMs: number): string | undefined {
  if (epochMs >= startOfMonthUtc(asOfMs)) return undefined;
  const d = new Date(epochMs);
  return `stm-${account.key}-${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
