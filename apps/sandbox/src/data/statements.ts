/** Monthly statements, summed from the booked entries of each closed calendar month (UTC). */
import type { Statement } from '@bank-data-sharing/validators/v2.2';
import type { AccountProfile } from './accounts.js';
import { isoDate, MS_PER_DAY, startOfMonthUtc } from './datetime.js';
import { amount, indicatorOf } from './money.js';
import { statementIdFor } from './statement-ids.js';
import type { LedgerEntry } from './transactions.js';

type SummaryLine = Statement['Summary'][number];

/** Totals per (direction, type, sub-type), in a fixed order so statements are reproducible. */
function summarise(entries: readonly LedgerEntry[], currency: string): SummaryLine[] {
  type Group = Pick<SummaryLine, 'CreditDebitIndicator' | 'TransactionType' | 'SubTransactionType'> & { total: number; count: number };
  const groups = new Map<string, Group>();
  for (const { transaction: t, signedMinor } of entries) {
    const key = `${t.CreditDebitIndicator}|${t.TransactionType}|${t.SubTransactionType}`;
    const group: Group = groups.get(key) ?? {
      CreditDebitIndicator: t.CreditDebitIndicator,
      TransactionType: t.TransactionType,
      SubTransactionType: t.SubTransactionType,
      total: 0,
      count: 0,
    };
    group.total += Math.abs(signedMinor);
    group.count += 1;
    groups.set(key, group);
  }
  return [...groups.keys()]
    .sort()
    .map((key) => {
      const { total, count, ...line } = groups.get(key) as Group;
      return { ...line, Amount: amount(total, currency), Count: count };
    });
}

/**
 * One statement per month from the start of history up to the month before `asOfMs`,
 * oldest first. Balances follow the ledger, so a statement's closing balance is the next
 * one's opening balance.
 */
export function generateStatements(account: AccountProfile, ledger: readonly LedgerEntry[], startMs: number, asOfMs: number): Statement[] {
  const statements: Statement[] = [];
  let balance = account.openingBalanceMinor;
  let cursor = 0;
  for (let monthMs = startOfMonthUtc(startMs); monthMs < startOfMonthUtc(asOfMs); monthMs = startOfMonthUtc(monthMs, 1)) {
    const nextMonthMs = startOfMonthUtc(monthMs, 1);
    const opening = balance;
    const inMonth: LedgerEntry[] = [];
    while (cursor < ledger.length && (ledger[cursor] as LedgerEntry).bookingMs < nextMonthMs) {
      const entry = ledger[cursor] as LedgerEntry;
      if (entry.booked) {
        inMonth.push(entry);
        balance += entry.signedMinor;
      }
      cursor++;
    }
    const statementId = statementIdFor(account, monthMs, asOfMs);
    if (statementId === undefined) break;
    const statement: Statement = {
      StatementId: statementId,
      StatementDate: isoDate(nextMonthMs),
      OpeningDate: isoDate(monthMs),
      ClosingDate: isoDate(nextMonthMs - MS_PER_DAY),
      OpeningBalance: { CreditDebitIndicator: indicatorOf(opening), Amount: amount(opening, account.currency) },
      ClosingBalance: { CreditDebitIndicator: indicatorOf(balance), Amount: amount(balance, account.currency) },
      Summary: summarise(inMonth, account.currency),
    };
    if (account.subType === 'CreditCard' && account.creditLimitMinor !== undefined) {
      statement.CreditLine = amount(account.creditLimitMinor, account.currency);
      if (balance < 0) {
        // A card statement tells the holder the minimum due before the next cycle.
        statement.NextPayment = [
          { Date: isoDate(nextMonthMs + 24 * MS_PER_DAY), Amount: amount(Math.max(10_000, Math.round(-balance * 0.05)), account.currency), Type: 'Minimum' },
        ];
      }
    }
    statements.push(statement);
  }
  return statements;
}
