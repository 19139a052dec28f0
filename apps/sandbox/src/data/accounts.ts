/** Accounts: the profile each generator works from, and the account record itself. */
import type { Account, AccountSubType } from '@bank-data-sharing/validators/v2.2';
import { OWN_BANK } from './catalog.js';
import type { CustomerProfile } from './customers.js';
import { formatInstant, MS_PER_DAY, startOfDayUtc } from './datetime.js';
import { maskedPan, randomIban } from './identifiers.js';
import { streamFor } from './prng.js';

/** What the other generators need to know about an account. */
export interface AccountProfile {
  readonly customer: CustomerProfile;
  readonly index: number;
  readonly accountId: string;
  /** Random part of the account id, reused in the ids of the account's records. */
  readonly key: string;
  readonly subType: AccountSubType;
  readonly currency: 'AED' | 'USD';
  readonly iban: string;
  readonly openedMs: number;
  readonly isShariaCompliant: boolean;
  readonly nickname: string;
  /** Signed balance in minor units when the generated history starts. */
  readonly openingBalanceMinor: number;
  /** Credit limit of a card, in minor units. */
  readonly creditLimitMinor?: number;
  /** Masked card number of a card account, or of the debit card of a current account. */
  readonly cardPan?: string;
  /** Original amount of a finance or mortgage account, in minor units. */
  readonly principalMinor?: number;
}

const NICKNAMES: Readonly<Record<AccountSubType, string>> = {
  CurrentAccount: 'Everyday account',
  Savings: 'Rainy day savings',
  CreditCard: 'Travel card',
  Mortgage: 'Home finance',
  Finance: 'Car finance',
};

const DESCRIPTIONS: Readonly<Record<AccountSubType, string>> = {
  CurrentAccount: 'Current account',
  Savings: 'Savings account',
  CreditCard: 'Credit card',
  Mortgage: 'Home finance',
  Finance: 'Personal finance',
};

/** Families given in turn to the second account of successive customers. */
const ROTATION: readonly AccountSubType[] = ['Savings', 'CreditCard', 'Finance', 'Mortgage'];

/**
 * The family of a customer's second account: taken in turn, so that a data set of three
 * customers or more always holds savings, card and finance accounts (and their products).
 */
function secondFamily(customer: CustomerProfile, allowed: readonly AccountSubType[]): AccountSubType {
  const wanted = ROTATION[customer.index % ROTATION.length] as AccountSubType;
  return allowed.includes(wanted) ? wanted : (allowed[0] as AccountSubType);
}

/**
 * The accounts of a customer: 2 to 4, the first always a current account (salaries and
 * bills need one), the second by rotation, the others drawn from the product families
 * that suit the segment.
 */
export function accountProfiles(seed: number, customer: CustomerProfile, historyStartMs: number): AccountProfile[] {
  const rng = streamFor(seed, `accounts:${customer.index}`);
  const count = rng.int(2, 4);
  const others: readonly AccountSubType[] =
    customer.category === 'SME' ? ['Savings', 'Finance', 'CreditCard'] : ['Savings', 'CreditCard', 'Finance', 'Mortgage'];
  const profiles: AccountProfile[] = [];
  for (let index = 0; index < count; index++) {
    const arng = streamFor(seed, `account:${customer.index}:${index}`);
    const subType: AccountSubType = index === 0 ? 'CurrentAccount' : index === 1 ? secondFamily(customer, others) : arng.pick(others);
    const key = arng.hex(12);
    const currency = subType === 'Savings' && arng.chance(0.3) ? 'USD' : 'AED';
    const openedMs = startOfDayUtc(historyStartMs) - arng.int(60, 3000) * MS_PER_DAY;
    const base = {
      customer,
      index,
      accountId: `acc-${key}`,
      key,
      subType,
      currency,
      iban: randomIban(arng, OWN_BANK.code),
      openedMs,
      isShariaCompliant: arng.chance(0.5),
      nickname: NICKNAMES[subType],
    } as const;
    switch (subType) {
      case 'CurrentAccount':
        profiles.push({ ...base, openingBalanceMinor: arng.int(5_000, 40_000) * 100, cardPan: maskedPan(arng, '4') });
        break;
      case 'Savings':
        profiles.push({ ...base, openingBalanceMinor: arng.int(20_000, 250_000) * 100 });
        break;
      case 'CreditCard':
        profiles.push({
          ...base,
          openingBalanceMinor: -arng.int(500, 8_000) * 100,
          creditLimitMinor: arng.int(2, 10) * 10_000 * 100,
          cardPan: maskedPan(arng, '5'),
        });
        break;
      case 'Mortgage':
      case 'Finance': {
        const principalMinor = (subType === 'Mortgage' ? arng.int(80, 300) * 10_000 : arng.int(5, 25) * 10_000) * 100;
        profiles.push({ ...base, principalMinor, openingBalanceMinor: -Math.round(principalMinor * 0.8) });
        break;
      }
    }
  }
  return profiles;
}

/** Name of the holder as it appears on the account: the business for SME accounts. */
export function holderName(profile: AccountProfile): string {
  return profile.customer.business?.name ?? profile.customer.fullName;
}

/** The account record (GET /accounts and GET /accounts/{AccountId}). */
export function accountRecord(profile: AccountProfile): Account {
  const { customer, subType } = profile;
  const identifiers: NonNullable<Account['AccountIdentifiers']> = [
    { SchemeName: 'IBAN', Identification: profile.iban, Name: holderName(profile) },
  ];
  if (subType === 'CreditCard' && profile.cardPan !== undefined) {
    identifiers.push({ SchemeName: 'MaskedPAN', Identification: profile.cardPan });
  }
  if (subType === 'Mortgage') identifiers.push({ SchemeName: 'MortgageReference', Identification: `MTG-${profile.key.slice(0, 8).toUpperCase()}` });
  if (subType === 'Finance') identifiers.push({ SchemeName: 'FinanceReference', Identification: `FIN-${profile.key.slice(0, 8).toUpperCase()}` });
  const hasMaturity = subType === 'Mortgage' || subType === 'Finance';
  return {
    AccountId: profile.accountId,
    AccountHolderName: holderName(profile),
    AccountHolderShortName: customer.business === undefined ? customer.givenName : customer.business.name.split(' ')[0] ?? customer.givenName,
    Status: 'Active',
    StatusUpdateDateTime: formatInstant(profile.openedMs, 'Z'),
    Currency: profile.currency,
    AccountType: customer.category,
    AccountSubType: subType,
    Description: DESCRIPTIONS[subType],
    Nickname: profile.nickname,
    OpeningDate: formatInstant(profile.openedMs, '+04:00'),
    ...(hasMaturity ? { MaturityDate: formatInstant(profile.openedMs + (subType === 'Mortgage' ? 25 : 5) * 365 * MS_PER_DAY, '+04:00') } : {}),
    AccountIdentifiers: identifiers,
    Servicer: { SchemeName: 'BICFI', Identification: OWN_BANK.bic },
    IsShariaCompliant: profile.isShariaCompliant,
  };
}
