/**
 * How the hub tells the LFI whose data a request is about. The hub-to-LFI contract leaves
 * consent context to each deployment; the sandbox sends it in two request headers.
 */
import type { IncomingMessage } from 'node:http';

/** The customer behind the consent (the sandbox's customer id). */
export const CUSTOMER_HEADER = 'x-sandbox-customer-id';
/** The accounts the consent covers, comma-separated. */
export const ACCOUNTS_HEADER = 'x-sandbox-account-ids';

/** What the LFI learns about the consent behind a request. */
export interface ConsentContext {
  readonly customerId?: string | undefined;
  readonly accountIds?: readonly string[] | undefined;
}

/** The headers that carry `context` to the LFI. */
export function contextHeaders(context: ConsentContext): Record<string, string> {
  return {
    ...(context.customerId === undefined ? {} : { [CUSTOMER_HEADER]: context.customerId }),
    ...(context.accountIds === undefined ? {} : { [ACCOUNTS_HEADER]: context.accountIds.join(',') }),
  };
}

function single(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads the context the hub sent; absent headers leave the request unscoped. */
export function readContext(req: IncomingMessage): ConsentContext {
  const customerId = single(req, CUSTOMER_HEADER)?.trim();
  const accounts = single(req, ACCOUNTS_HEADER);
  return {
    customerId: customerId === '' ? undefined : customerId,
    accountIds: accounts === undefined ? undefined : accounts.split(',').map((id) => id.trim()).filter((id) => id !== ''),
  };
}
