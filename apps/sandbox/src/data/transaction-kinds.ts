/**
 * Kinds of transaction per account family. Each kind returns the members that describe
 * what happened (type, amount, counterparty, narrative); `transactions.ts` adds the
 * identifiers, times, status and running balance.
 */
import type { AccountSubType, Transaction } from '@bank-data-sharing/validators/v2.2';
import type { AccountProfile } from './accounts.js';
import { BANKS, BILLERS, MERCHANTS, ONLINE_SHOPS } from './catalog.js';
import { randomIban } from './identifiers.js';
import { amount } from './money.js';
import type { Rng } from './prng.js';

/** The descriptive members of a transaction, and its signed effect on the balance. */
export interface TransactionDraft {
  /** Positive for a credit, negative for a debit, in minor units of the account currency. */
  readonly signedMinor: number;
  /** Where the transaction happened, as an offset (it is written in TransactionDateTime). */
  readonly localOffset?: '+04:00' | '-05:00';
  readonly fields: Omit<
    Transaction,
    'TransactionId' | 'TransactionDateTime' | 'BookingDateTime' | 'ValueDateTime' | 'Status' | 'CreditDebitIndicator' | 'Amount'
  >;
}

type Kind = (rng: Rng, account: AccountProfile) => TransactionDraft;

const USD_TO_AED = 3.6725;

const minor = (rng: Rng, fromMajor: number, toMajor: number): number => rng.int(fromMajor * 100, toMajor * 100);

function card(rng: Rng, account: AccountProfile): NonNullable<Transaction['CardInstrument']> {
  return {
    CardSchemeName: account.cardPan?.startsWith('5') === true ? 'MasterCard' : 'VISA',
    InstrumentType: rng.pick(['Chip', 'Contactless', 'ApplePay'] as const),
    Name: account.customer.fullName,
    ...(account.cardPan === undefined ? {} : { Identification: account.cardPan }),
  };
}

function counterparty(rng: Rng): { account: NonNullable<Transaction['DebtorAccount']>; agent: NonNullable<Transaction['DebtorAgent']>; name: string } {
  const [bankName, bic, code] = rng.pick(BANKS);
  const name = `${rng.pick(['Ahmed', 'Fatima', 'Hassan', 'Reem', 'Tariq'])} ${rng.pick(['Saleh', 'Mansour', 'Ibrahim', 'Aziz'])}`;
  return {
    account: { SchemeName: 'IBAN', Identification: randomIban(rng, code), Name: name },
    agent: { SchemeName: 'BICFI', Identification: bic, Name: bankName },
    name,
  };
}

const cardPurchase: Kind = (rng, account) => {
  const [merchant, mcc] = rng.pick(MERCHANTS);
  const value = minor(rng, 8, 650);
  return {
    signedMinor: -value,
    localOffset: '+04:00',
    fields: {
      TransactionType: 'POS',
      SubTransactionType: 'Purchase',
      TransactionInformation: `Card purchase at ${merchant}`,
      PaymentModes: 'Online',
      TerminalId: rng.int(10_000_000, 99_999_999),
      MerchantDetails: { MerchantName: merchant, MerchantCategoryCode: mcc },
      CardInstrument: card(rng, account),
      ...(rng.chance(0.3)
        ? { GeoLocation: { Latitude: (25 + rng.next()).toFixed(4), Longitude: (55 + rng.next()).toFixed(4) } }
        : {}),
    },
  };
};

const onlinePurchase: Kind = (rng, account) => {
  const [shop, mcc] = rng.pick(ONLINE_SHOPS);
  return {
    signedMinor: -minor(rng, 15, 900),
    localOffset: '+04:00',
    fields: {
      TransactionType: 'ECommerce',
      SubTransactionType: 'Purchase',
      TransactionInformation: `Online payment to ${shop}`,
      PaymentModes: 'Online',
      MerchantDetails: { MerchantName: shop, MerchantCategoryCode: mcc },
      CardInstrument: { ...card(rng, account), InstrumentType: 'Other' },
    },
  };
};

const purchaseAbroad: Kind = (rng, account) => {
  const usd = minor(rng, 10, 400);
  const local = Math.round(usd * USD_TO_AED);
  const fee = Math.round(local * 0.02);
  return {
    signedMinor: -(local + fee),
    localOffset: '-05:00',
    fields: {
      TransactionType: 'POS',
      SubTransactionType: 'Purchase',
      TransactionInformation: 'Card purchase abroad, New York',
      PaymentModes: 'Online',
      MerchantDetails: { MerchantName: 'Hudson Street Deli', MerchantCategoryCode: '5812' },
      CardInstrument: card(rng, account),
      CurrencyExchange: {
        SourceCurrency: 'USD',
        TargetCurrency: account.currency,
        UnitCurrency: 'USD',
        ExchangeRate: USD_TO_AED,
        InstructedAmount: amount(usd, 'USD'),
      },
      ChargeAmount: { Amount: amount(fee, account.currency).Amount, Currency: account.currency, ChargeIncluded: true },
    },
  };
};

const refund: Kind = (rng, account) => {
  const [merchant, mcc] = rng.pick(MERCHANTS);
  return {
    signedMinor: minor(rng, 8, 300),
    localOffset: '+04:00',
    fields: {
      TransactionType: 'POS',
      SubTransactionType: 'Refund',
      TransactionInformation: `Refund from ${merchant}`,
      PaymentModes: 'Online',
      MerchantDetails: { MerchantName: merchant, MerchantCategoryCode: mcc },
      CardInstrument: card(rng, account),
    },
  };
};

const atmWithdrawal: Kind = (rng, account) => ({
  signedMinor: -rng.int(1, 20) * 100 * 100,
  localOffset: '+04:00',
  fields: {
    TransactionType: 'ATM',
    SubTransactionType: 'Withdrawal',
    TransactionInformation: 'Cash withdrawal',
    PaymentModes: 'Offline',
    TerminalId: rng.int(1_000, 9_999),
    CardInstrument: { ...card(rng, account), InstrumentType: 'Chip' },
  },
});

const transferOut: Kind = (rng) => {
  const other = counterparty(rng);
  return {
    signedMinor: -minor(rng, 50, 3_000),
    fields: {
      TransactionType: 'LocalBankTransfer',
      SubTransactionType: 'MoneyTransfer',
      TransactionInformation: `Transfer to ${other.name}`,
      PaymentModes: 'Online',
      CreditorAccount: [other.account],
      CreditorAgent: other.agent,
      PaymentPurposeCode: 'FAM',
    },
  };
};

const transferIn: Kind = (rng) => {
  const other = counterparty(rng);
  return {
    signedMinor: minor(rng, 50, 2_500),
    fields: {
      TransactionType: 'LocalBankTransfer',
      SubTransactionType: 'MoneyTransfer',
      TransactionInformation: `Transfer from ${other.name}`,
      PaymentModes: 'Online',
      DebtorAccount: other.account,
      DebtorAgent: other.agent,
    },
  };
};

const salary: Kind = (rng, account) => {
  const employer = account.customer.business === undefined ? account.customer.employer : 'Customer receipts';
  return {
    signedMinor: account.customer.salaryMinor + rng.int(0, 50) * 100,
    fields: {
      TransactionType: 'LocalBankTransfer',
      SubTransactionType: 'MoneyTransfer',
      TransactionInformation: account.customer.business === undefined ? `Salary from ${employer}` : 'Monthly customer receipts',
      PaymentModes: 'Batch',
      ...(account.customer.business === undefined ? { Flags: ['Payroll' as const] } : {}),
      DebtorAccount: { SchemeName: 'IBAN', Identification: randomIban(rng, BANKS[0][2]), Name: employer },
      PaymentPurposeCode: 'SAL',
    },
  };
};

const billPayment: Kind = (rng) => {
  const biller = rng.pick(BILLERS);
  return {
    signedMinor: -minor(rng, 120, 1_400),
    fields: {
      TransactionType: 'BillPayments',
      SubTransactionType: 'Purchase',
      TransactionInformation: `Bill payment ${biller}`,
      PaymentModes: 'Online',
      Flags: ['DirectDebit'],
      BillDetails: { BillerId: rng.int(100, 999), BillNumber: rng.digits(10), BillPaymentType: 'Post-Paid' },
    },
  };
};

const fee: Kind = (rng) => ({
  signedMinor: -rng.pick([500, 1_050, 2_500, 5_000]),
  fields: {
    TransactionType: 'Other',
    SubTransactionType: 'Fee',
    TransactionInformation: 'Service fee',
    PaymentModes: 'Batch',
  },
});

const profitCredit: Kind = (rng, account) => ({
  signedMinor: Math.max(100, Math.round(Math.abs(account.openingBalanceMinor) * 0.002)) + rng.int(0, 99),
  fields: {
    TransactionType: 'Other',
    SubTransactionType: account.isShariaCompliant ? 'Profit' : 'Interest',
    TransactionInformation: account.isShariaCompliant ? 'Monthly profit paid' : 'Monthly interest paid',
    PaymentModes: 'Batch',
  },
});

const savingsDeposit: Kind = (rng) => ({
  signedMinor: minor(rng, 100, 2_000),
  fields: {
    TransactionType: 'SameBankTransfer',
    SubTransactionType: 'Deposit',
    TransactionInformation: 'Transfer in from own account',
    PaymentModes: 'Online',
  },
});

const savingsWithdrawal: Kind = (rng) => ({
  signedMinor: -minor(rng, 100, 1_500),
  fields: {
    TransactionType: 'SameBankTransfer',
    SubTransactionType: 'Withdrawal',
    TransactionInformation: 'Transfer out to own account',
    PaymentModes: 'Online',
  },
});

const cardRepayment: Kind = (rng, account) => ({
  signedMinor: Math.max(50_000, Math.round((account.creditLimitMinor ?? 1_000_000) * 0.1)) + rng.int(0, 999) * 100,
  fields: {
    TransactionType: 'SameBankTransfer',
    SubTransactionType: 'Repayments',
    TransactionInformation: 'Card repayment, thank you',
    PaymentModes: 'Online',
  },
});

const cashback: Kind = (rng) => ({
  signedMinor: minor(rng, 5, 60),
  fields: {
    TransactionType: 'Other',
    SubTransactionType: 'Rewards',
    TransactionInformation: 'Cashback reward',
    PaymentModes: 'Batch',
    Flags: ['Cashback'],
  },
});

const financeRepayment: Kind = (rng, account) => ({
  signedMinor: Math.round((account.principalMinor ?? 10_000_000) / 120) + rng.int(0, 99),
  fields: {
    TransactionType: 'SameBankTransfer',
    SubTransactionType: 'Repayments',
    TransactionInformation: account.subType === 'Mortgage' ? 'Home finance instalment' : 'Finance instalment',
    PaymentModes: 'Batch',
    Flags: ['Finance'],
  },
});

const financeCharge: Kind = (rng, account) => ({
  signedMinor: -minor(rng, 5, 120),
  fields: {
    TransactionType: 'Other',
    SubTransactionType: account.isShariaCompliant ? 'Profit' : 'Interest',
    TransactionInformation: account.isShariaCompliant ? 'Profit charged' : 'Interest charged',
    PaymentModes: 'Batch',
    Flags: ['Finance'],
  },
});

const partialRepayment: Kind = (rng) => ({
  signedMinor: minor(rng, 20, 250),
  fields: {
    TransactionType: 'SameBankTransfer',
    SubTransactionType: 'Repayments',
    TransactionInformation: 'Extra repayment',
    PaymentModes: 'Online',
    Flags: ['Finance'],
  },
});

/** The kinds drawn on ordinary days, with their weights, per account family. */
const EVERYDAY: Readonly<Record<AccountSubType, readonly (readonly [Kind, number])[]>> = {
  CurrentAccount: [
    [cardPurchase, 35],
    [onlinePurchase, 15],
    [atmWithdrawal, 8],
    [transferOut, 8],
    [transferIn, 8],
    [refund, 3],
    [purchaseAbroad, 2],
    [fee, 2],
  ],
  Savings: [
    [savingsDeposit, 55],
    [savingsWithdrawal, 35],
    [transferIn, 10],
  ],
  CreditCard: [
    [cardPurchase, 45],
    [onlinePurchase, 30],
    [purchaseAbroad, 6],
    [refund, 4],
    [cashback, 5],
    [fee, 2],
  ],
  Mortgage: [
    [financeCharge, 55],
    [partialRepayment, 40],
    [fee, 5],
  ],
  Finance: [
    [financeCharge, 55],
    [partialRepayment, 40],
    [fee, 5],
  ],
};

/**
 * The kind of the `ordinal`-th transaction of a day. The first transaction of some days
 * of the month is a recurring one (salary, bills, profit, instalments), so that the
 * history has the monthly rhythm a real account shows.
 */
export function kindFor(rng: Rng, account: AccountProfile, dayOfMonth: number, ordinal: number): Kind {
  if (ordinal === 0) {
    switch (account.subType) {
      case 'CurrentAccount':
        if (dayOfMonth === 25) return salary;
        if (dayOfMonth === 5) return billPayment;
        break;
      case 'Savings':
        if (dayOfMonth === 1) return profitCredit;
        break;
      case 'CreditCard':
        if (dayOfMonth === 10) return cardRepayment;
        break;
      case 'Mortgage':
      case 'Finance':
        if (dayOfMonth === 1) return financeRepayment;
        break;
    }
  }
  return rng.weighted(EVERYDAY[account.subType]);
}
