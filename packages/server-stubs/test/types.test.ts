/**
 * Compile-time checks of the generated handler types (run by `tsc -p tsconfig.json`);
 * the test bodies only make vitest count them.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { AttestationResponse, ConsentPatch } from '@bank-data-sharing/validators/v2.2';
import type { HandlerResultOf, Handlers } from '../src/generated/v2.2/index.js';
import type { Handlers as LfiHandlers } from '../src/generated/v2.2/lfi/index.js';

type Req<K extends keyof Handlers> = Parameters<Handlers[K]>[0];
type Res<K extends keyof Handlers> = Awaited<ReturnType<Handlers[K]>>;

describe('handler types', () => {
  it('types path, query and headers from the spec, decoded', () => {
    expectTypeOf<Req<'GetAccountsAccountIdTransactions'>['path']['AccountId']>().toEqualTypeOf<string>();
    expectTypeOf<Req<'GetAccountsAccountIdTransactions'>['query']['fromBookingDateTime']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Req<'GetAccounts'>['headers']['x-fapi-interaction-id']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Parameters<LfiHandlers['LfiGetAccounts']>[0]['query']['page']>().toEqualTypeOf<number>();
  });

  it('gives the JSON form of a body that may also arrive signed', () => {
    expectTypeOf<NonNullable<Req<'PatchAccountAccessConsentsConsentId'>['body']>>().toEqualTypeOf<ConsentPatch>();
  });

  it('types results per status: bodies where the spec has them, none where it has not', () => {
    expectTypeOf<Extract<Res<'PatchAccountAccessConsentsConsentId'>, { status: 204 }>['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<Extract<Res<'CreateAccountAccessConsentAttestation'>, { status: 201 }>['body']>().toEqualTypeOf<AttestationResponse>();
    expectTypeOf<Res<'GetAccounts'>['status']>().toEqualTypeOf<200 | 400 | 401 | 403 | 405 | 406 | 429 | 500>();
    expectTypeOf<NonNullable<Extract<Res<'GetAccounts'>, { status: 200 }>['contentType']>>().toEqualTypeOf<
      'application/json; charset=utf-8' | 'application/json' | 'application/jwt'
    >();
  });

  it('rejects results the spec does not allow', () => {
    const handlers: Pick<Handlers, 'GetAccounts' | 'PatchAccountAccessConsentsConsentId'> = {
      // @ts-expect-error 201 is not a status of GetAccounts
      GetAccounts: () => ({ status: 201, body: { Data: { Account: [] }, Links: { Self: 'https://x.example.com' }, Meta: { TotalPages: 0 } } }),
      // @ts-expect-error 204 has no body
      PatchAccountAccessConsentsConsentId: () => ({ status: 204, body: { any: 1 } }),
    };
    expectTypeOf(handlers).toBeObject();
  });

  it('with HandlerResultOf as the return type, an undeclared status is an error at the status itself', () => {
    expectTypeOf<HandlerResultOf<'GetAccounts'>['status']>().toEqualTypeOf<200 | 400 | 401 | 403 | 405 | 406 | 429 | 500>();
    // TypeScript reports it on the `status` line ("Type '201' is not assignable to type '400 |
    // 401 | ... | 200'"), not on the handler several levels deep: the expect-error sits there.
    const GetAccounts: Handlers['GetAccounts'] = async ({ url }): Promise<HandlerResultOf<'GetAccounts'>> => ({
      // @ts-expect-error 201 is not a status of GetAccounts
      status: 201,
      body: { Data: { Account: [] }, Links: { Self: url }, Meta: { TotalPages: 0 } },
    });
    expectTypeOf(GetAccounts).toBeFunction();
  });
});
