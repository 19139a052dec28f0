/**
 * What `pnpm demo` does with the generated client: read every account, then the full
 * transaction history of one by following `Links.Next`, then one signed answer verified
 * with the hub's JWKS. Prints counts and timings.
 */
import { performance } from 'node:perf_hooks';
import { pages, type FetchLike } from '@bank-data-sharing/client/runtime';
import { createClient } from '@bank-data-sharing/client/v2.2';
import { compareInstants, requireInstant } from '../data/datetime.js';
import type { SandboxSession } from './session.js';

/** What the demo found. */
export interface DemoReport {
  readonly accounts: number;
  readonly accountPages: number;
  readonly history: {
    readonly accountId: string;
    readonly transactions: number;
    readonly pages: number;
    readonly newest: string | undefined;
    readonly oldest: string | undefined;
    /** Newest first throughout (section 4.5), compared as instants. */
    readonly ordered: boolean;
    /** No TransactionId seen twice. */
    readonly unique: boolean;
  };
  /** `kid` of the key that signed the signed answer. */
  readonly signedBy: string | undefined;
}

const ms = (start: number) => `${Math.round(performance.now() - start)} ms`;

/** Options of `runDemo`. */
export interface DemoOptions {
  /** The fetch the clients use (default: the platform's); tests pass one that checks the wire. */
  readonly fetch?: FetchLike;
}

/**
 * Runs the demo against a session; `log` receives one line per step.
 *
 * @example
 * await runDemo(await openSession('http://127.0.0.1:4010'), console.log);
 */
export async function runDemo(session: SandboxSession, log: (line: string) => void, options: DemoOptions = {}): Promise<DemoReport> {
  const transport = options.fetch === undefined ? {} : { fetch: options.fetch };
  const client = createClient({ baseUrl: session.baseUrl, tokens: session.tokens, ...transport });
  log(`TPP client on ${session.baseUrl}`);
  log(`consent ${session.consentId} for customer ${session.customerId} (${session.accountIds.length} accounts)`);

  let start = performance.now();
  const accountIds: string[] = [];
  let accountPages = 0;
  for await (const page of pages(client.GetAccounts, {})) {
    accountPages += 1;
    for (const account of page.result.body.Data.Account) accountIds.push(account.AccountId);
  }
  for (const AccountId of accountIds) {
    const { body } = await client.GetAccountsAccountId({ path: { AccountId } });
    log(`  ${AccountId}  ${body.Data.Account.AccountSubType ?? '-'}  ${body.Data.Account.Currency ?? ''}  ${body.Data.Account.Nickname ?? ''}`);
  }
  log(`accounts: ${accountIds.length} listed in ${accountPages} page(s), each read by id, ${ms(start)}`);

  const accountId = accountIds[0];
  if (accountId === undefined) throw new Error('the consent covers no account');
  start = performance.now();
  let transactions = 0;
  let pageCount = 0;
  let newest: string | undefined;
  let previous: string | undefined;
  let ordered = true;
  const seen = new Set<string>();
  let unique = true;
  // pages() follows Links.Next exactly as given and stops at its page cap (1000 by default).
  for await (const page of pages(client.GetAccountsAccountIdTransactions, { path: { AccountId: accountId } })) {
    pageCount += 1;
    for (const tx of page.result.body.Data.Transaction) {
      transactions += 1;
      newest ??= tx.BookingDateTime;
      if (previous !== undefined && compareInstants(requireInstant(previous), requireInstant(tx.BookingDateTime)) < 0) ordered = false;
      previous = tx.BookingDateTime;
      if (seen.has(tx.TransactionId)) unique = false;
      seen.add(tx.TransactionId);
    }
  }
  const elapsed = performance.now() - start;
  log(
    `transactions of ${accountId}: ${transactions} in ${pageCount} pages, ${previous ?? '-'} .. ${newest ?? '-'}, ` +
      `${ordered ? 'newest first' : 'OUT OF ORDER'}, ${unique ? 'no repeats' : 'REPEATS'}, ${ms(start)} (${Math.round(transactions / (elapsed / 1000))} records/s)`,
  );

  start = performance.now();
  const signedClient = createClient({
    baseUrl: session.baseUrl,
    tokens: session.tokens,
    ...transport,
    prefer: 'signed',
    signatures: { keys: session.jwks, issuer: session.hubUrl },
  });
  const signed = await signedClient.GetAccountsAccountIdBalances({ path: { AccountId: accountId } });
  const kid = typeof signed.signature?.protectedHeader['kid'] === 'string' ? signed.signature.protectedHeader['kid'] : undefined;
  log(`signed balances of ${accountId}: ${signed.body.Data.Balance.length} balances, application/jwt verified with the hub JWKS (kid ${kid ?? '-'}), ${ms(start)}`);

  return {
    accounts: accountIds.length,
    accountPages,
    history: { accountId, transactions, pages: pageCount, newest, oldest: previous, ordered, unique },
    signedBy: kid,
  };
}
