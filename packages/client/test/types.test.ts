/**
 * What callers send and receive, checked by the type checker (`pnpm typecheck` compiles
 * this file); the runtime assertions are trivial.
 */
import type { AccountsResponse, Errors400, Errors403, Errors500, Transaction, TransactionsResponse } from '@bank-data-sharing/validators/v2.2';
import { describe, expectTypeOf, it } from 'vitest';
import { createClient as createDirectory } from '../src/generated/directory/index.js';
import { createClient, type GetAccountsAccountIdTransactionsParams, type GetAccountsResult } from '../src/generated/v2.2/index.js';
import { createClient as createClientV21 } from '../src/generated/v2.1/index.js';
import { paginate, type ErrorBodyOf, type ParamsOf, type ResultOf } from '../src/runtime/index.js';
import type { operations } from '@bank-data-sharing/validators/v2.2';

const client = createClient({ origin: 'https://rs.example' });

describe('generated client types', () => {
  it('types parameters by location, required where the spec says so', () => {
    expectTypeOf<GetAccountsAccountIdTransactionsParams['path']>().toEqualTypeOf<{ AccountId: string }>();
    expectTypeOf<GetAccountsAccountIdTransactionsParams['query']>().toEqualTypeOf<
      { fromBookingDateTime?: string | undefined; toBookingDateTime?: string | undefined } | undefined
    >();
    // The client supplies the interaction id, so a caller may leave it out.
    expectTypeOf<NonNullable<GetAccountsAccountIdTransactionsParams['headers']>>().toHaveProperty('x-fapi-interaction-id');
    expectTypeOf(client.GetAccounts).parameters.toEqualTypeOf<[params?: ParamsOf<typeof operations.GetAccounts>, options?: import('../src/runtime/index.js').CallOptions]>();
    // @ts-expect-error AccountId is required
    void (() => client.GetAccountsAccountId({}));
    // @ts-expect-error no such query parameter
    void (() => client.GetAccountsAccountIdTransactions({ path: { AccountId: 'a' }, query: { page: 2 } }));
  });

  it('types results as a union by status and content type, the signed form giving the JSON type', () => {
    expectTypeOf<GetAccountsResult['status']>().toEqualTypeOf<200>();
    expectTypeOf<GetAccountsResult['contentType']>().toEqualTypeOf<'application/json; charset=utf-8' | 'application/json' | 'application/jwt'>();
    expectTypeOf<GetAccountsResult['body']>().toEqualTypeOf<AccountsResponse>();
    expectTypeOf<Extract<ResultOf<typeof operations.GetAccountsAccountIdTransactions>, { contentType: 'application/jwt' }>['body']>().toEqualTypeOf<TransactionsResponse>();
    type Patched = ResultOf<typeof operations.PatchAccountAccessConsentsConsentId>;
    expectTypeOf<Patched['status']>().toEqualTypeOf<204>();
    expectTypeOf<Patched['body']>().toEqualTypeOf<undefined>();
  });

  it('types request bodies per content type; a signed body is claims or a compact JWS', () => {
    type Attest = ParamsOf<typeof operations.CreateAccountAccessConsentAttestation>;
    expectTypeOf<Attest['contentType']>().toEqualTypeOf<'application/jwt' | undefined>();
    expectTypeOf<string>().toExtend<Attest['body']>();
  });

  it('types the error bodies an operation declares (4XX, 5XX), the signed form giving the JSON type, and not its success body', () => {
    // GetAccounts declares 400, 403 and 500 with a body; 401, 405, 406 and 429 without one.
    expectTypeOf<ErrorBodyOf<typeof operations.GetAccounts>>().toEqualTypeOf<Errors400 | Errors403 | Errors500 | undefined>();
  });

  it('gives paginate the record type of the page', () => {
    const records = paginate(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'a' } });
    expectTypeOf(records).toEqualTypeOf<AsyncGenerator<Transaction, void, undefined>>();
  });

  it('generates every spec version and the directory', () => {
    expectTypeOf(createClientV21({ origin: 'https://rs.example' })).toHaveProperty('GetAccountsAccountIdTransactions');
    const directory = createDirectory();
    expectTypeOf<{ body: { grant_type: 'client_credentials'; scope: string; client_id: string } }>().toExtend<Parameters<typeof directory.getToken>[0]>();
    // @ts-expect-error grant_type is fixed by the spec
    expectTypeOf<{ body: { grant_type: 'password'; scope: string; client_id: string } }>().toExtend<Parameters<typeof directory.getToken>[0]>();
  });
});

// The README's first example, kept compiling here.
export async function readmeExample(myTokenProvider: import('../src/runtime/index.js').TokenProvider): Promise<void> {
  const client = createClient({ origin: 'https://rs.lfi.example', tokens: myTokenProvider });
  for await (const tx of paginate(client.GetAccountsAccountIdTransactions, { path: { AccountId: 'acc-001' } })) {
    console.log(tx.BookingDateTime, tx.TransactionId, tx.Amount.Amount, tx.Amount.Currency);
  }
  const result = await client.GetAccountsAccountIdTransactions(
    { path: { AccountId: 'acc-001' }, query: { fromBookingDateTime: '2025-01-01T00:00:00Z' } },
    { signal: AbortSignal.timeout(60_000) },
  );
  console.log(result.status, result.body.Data, result.interactionId);
}
