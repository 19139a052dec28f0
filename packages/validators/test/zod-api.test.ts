// The generated schemas are zod schemas in their types too: what a zod user writes with them
// type-checks (`pnpm typecheck` covers this file) and behaves as zod says at run time.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  Account,
  AccountSubType,
  AccountType,
  AccountsResponse,
  Links,
  TransactionsResponse,
  isAccount,
  type Account as AccountT,
  type Transaction as TransactionT,
} from '../src/generated/v2.2/index.js';

const account: AccountT = { AccountId: 'acc-001', Currency: 'AED', AccountType: 'Retail', AccountSubType: 'CurrentAccount', Nickname: 'Everyday' };

describe('generated schemas carry zod\'s own types', () => {
  it('infers the written-out type, output and input', () => {
    expectTypeOf<z.infer<typeof Account>>().toEqualTypeOf<AccountT>();
    expectTypeOf<z.input<typeof Account>>().toEqualTypeOf<AccountT>();
    expectTypeOf<z.infer<typeof AccountType>>().toEqualTypeOf<'Retail' | 'SME' | 'Corporate'>();
  });

  it('extends a closed object, which stays closed', () => {
    const WithOwner = Account.extend({ Owner: z.string() });
    expectTypeOf<z.infer<typeof WithOwner>['Owner']>().toEqualTypeOf<string>();
    expectTypeOf<Omit<z.infer<typeof WithOwner>, 'Owner'>>().toEqualTypeOf<AccountT>();
    expect(WithOwner.safeParse({ ...account, Owner: 'Ann' }).success).toBe(true);
    expect(WithOwner.safeParse(account).success).toBe(false);
    expect(WithOwner.safeParse({ ...account, Owner: 'Ann', Extra: 1 }).success).toBe(false);
    // The original is untouched.
    expect(Account.safeParse(account).success).toBe(true);
  });

  it('picks, omits and makes partial', () => {
    const IdOnly = Account.pick({ AccountId: true, Nickname: true });
    expectTypeOf<z.infer<typeof IdOnly>>().toEqualTypeOf<{ AccountId: string; Nickname?: string | undefined }>();
    expect(IdOnly.parse({ AccountId: 'a' })).toStrictEqual({ AccountId: 'a' });
    expect(IdOnly.safeParse(account).success).toBe(false); // strict: the other members are extra now

    const NoId = Account.omit({ AccountId: true });
    expectTypeOf<keyof z.infer<typeof NoId>>().not.toEqualTypeOf<keyof AccountT>();
    expect(NoId.safeParse({ Nickname: 'x' }).success).toBe(true);

    const Partial = Account.partial();
    expectTypeOf<z.infer<typeof Partial>['AccountId']>().toEqualTypeOf<string | undefined>();
    expect(Partial.safeParse({}).success).toBe(true);
    expect(Account.safeParse({}).success).toBe(false);
  });

  it('exposes the shape, enum options and array elements', () => {
    const id = Account.shape.AccountId;
    expectTypeOf<z.infer<typeof id>>().toEqualTypeOf<string>();
    expect(id.safeParse('').success).toBe(false); // minLength 1, as the spec says
    expect(AccountType.options).toStrictEqual(['Retail', 'SME', 'Corporate']);
    expectTypeOf(AccountSubType.enum.Savings).toEqualTypeOf<'Savings'>();
    const list = AccountsResponse.shape.Data.shape.Account;
    expectTypeOf<z.infer<typeof list.element>>().toEqualTypeOf<AccountT>();
    expect(Links.shape.Self.safeParse('https://hub.example/x').success).toBe(true);
    const transaction = TransactionsResponse.shape.Data.shape.Transaction.element;
    expectTypeOf<z.infer<typeof transaction>>().toEqualTypeOf<TransactionT>();
    expect(transaction.safeParse({}).success).toBe(false);
  });

  it('keeps the check functions as type guards over the same type', () => {
    const value: unknown = account;
    if (isAccount(value)) expectTypeOf(value).toEqualTypeOf<AccountT>();
    expect(isAccount(value)).toBe(true);
  });
});
