/**
 * One key for the spellings of a name: `accountId`, `AccountId`, `account_id`, `account-id` and
 * `ACCOUNT_ID` are the same key, so that a member an API hands out finds the parameter it
 * feeds whatever convention each side follows.
 */
export function nameKey(name: string): string {
  return name.replace(/[-_.\s]/g, '').toLowerCase();
}
