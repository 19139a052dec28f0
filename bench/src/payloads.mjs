// Deterministic payloads for the validator benchmark, hand-built for the official v2.1 account
// information file: every required member plus the optional members a real bank commonly sends.
// Both validators must accept them before anything is timed (the worker checks).

const TRANSACTION_TYPES = ['POS', 'ECommerce', 'ATM', 'BillPayments', 'LocalBankTransfer', 'SameBankTransfer', 'InternationalTransfer'];
const SUB_TYPES = ['Purchase', 'Refund', 'Withdrawal', 'Deposit', 'MoneyTransfer', 'Fee', 'Repayments'];
const CARD_TYPES = new Set(['POS', 'ECommerce', 'ATM']);
const pad = (n, width) => String(n).padStart(width, '0');

/** An RFC 3339 date-time with an offset, i minutes after a fixed start. */
function dateTime(i, offset = '+04:00') {
  const day = 1 + Math.floor(i / (24 * 60)) % 28;
  const hour = Math.floor(i / 60) % 24;
  return `2025-03-${pad(day, 2)}T${pad(hour, 2)}:${pad(i % 60, 2)}:${pad((i * 7) % 60, 2)}${offset}`;
}

function amount(i) {
  return { Amount: `${(i * 37) % 5000}.${pad((i * 13) % 100, 2)}`, Currency: 'AED' };
}

export function transaction(i) {
  const type = TRANSACTION_TYPES[i % TRANSACTION_TYPES.length];
  const tx = {
    TransactionId: `TX-${pad(i, 8)}`,
    TransactionReference: `REF${pad(i * 31, 10)}`,
    TransactionDateTime: dateTime(i * 17),
    BookingDateTime: dateTime(i * 17 + 3),
    ValueDateTime: dateTime(i * 17 + 5),
    TransactionType: type,
    SubTransactionType: SUB_TYPES[i % SUB_TYPES.length],
    CreditDebitIndicator: i % 3 === 0 ? 'Credit' : 'Debit',
    Status: i % 10 === 9 ? 'Pending' : 'Booked',
    TransactionMutability: i % 10 === 9 ? 'Mutable' : 'Immutable',
    TransactionInformation: `${type} transaction number ${i}`,
    Amount: amount(i),
    ProprietaryBankTransactionCode: { Code: `C${pad(i % 1000, 3)}`, Issuer: 'LFI' },
    Balance: { CreditDebitIndicator: 'Credit', Type: 'InterimBooked', Amount: amount(i + 1000) },
    PaymentModes: 'Online',
  };
  if (i % 4 === 0) tx.Flags = ['Payroll'];
  if (CARD_TYPES.has(type)) {
    tx.MerchantDetails = { MerchantName: `Merchant ${i % 50}`, MerchantCategoryCode: '5411' };
    tx.CardInstrument = { CardSchemeName: 'VISA', InstrumentType: 'Contactless', Name: 'Card holder', Identification: '1234********4321' };
  } else {
    tx.CreditorAccount = [{ SchemeName: 'IBAN', Identification: `AE07033123456789012${pad(i % 10000, 4)}`, Name: 'Counterparty name' }];
  }
  return tx;
}

const SELF = 'https://lfi.example.com/open-finance/account-information/v2.1/accounts/100004000000000000000002';

/** A transactions page (GetAccountsAccountIdTransactions 200 application/json) of `n` items. */
export function transactionsPage(n = 100) {
  return {
    Data: { AccountId: '100004000000000000000002', Transaction: Array.from({ length: n }, (_, i) => transaction(i)) },
    Links: { Self: `${SELF}/transactions?page=2`, First: `${SELF}/transactions?page=1`, Prev: `${SELF}/transactions?page=1`, Next: `${SELF}/transactions?page=3`, Last: `${SELF}/transactions?page=9` },
    Meta: { TotalPages: 9, FirstAvailableDateTime: '2024-01-01T00:00:00+04:00', LastAvailableDateTime: '2025-03-31T23:59:59+04:00' },
  };
}

/** A single account (GetAccountsAccountId 200 application/json). */
export function singleAccount() {
  return {
    Data: {
      AccountId: '100004000000000000000002',
      Account: {
        AccountHolderName: 'Amal Ahmed',
        AccountHolderShortName: 'Amal',
        Status: 'Active',
        StatusUpdateDateTime: '2024-06-01T09:30:00+04:00',
        Currency: 'AED',
        AccountType: 'Retail',
        AccountSubType: 'CurrentAccount',
        Description: 'Everyday current account',
        Nickname: 'Salary',
        OpeningDate: '2019-02-14T00:00:00+04:00',
        AccountIdentifiers: [
          { SchemeName: 'IBAN', Identification: 'AE070331234567890123456', Name: 'Amal Ahmed' },
          { SchemeName: 'AccountNumber', Identification: '1234567890123' },
        ],
        Servicer: { SchemeName: 'BICFI', Identification: 'NBADAEAA' },
        IsShariaCompliant: false,
      },
    },
    Links: { Self: SELF },
    Meta: { TotalPages: 1 },
  };
}
