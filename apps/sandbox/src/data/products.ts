/**
 * The product behind each account, in its v2.2 shape. `versions.ts` derives the v2.1
 * shape (which has no Takaful members).
 */
import type { Product } from '@bank-data-sharing/validators/v2.2';
import type { AccountProfile } from './accounts.js';
import { isoDate, MS_PER_DAY } from './datetime.js';
import { amount } from './money.js';

/** Whole years and months between two instants, written as an ISO 8601 period (PnYnM). */
function period(fromMs: number, toMs: number): string {
  const months = Math.max(0, Math.round((toMs - fromMs) / (30.44 * MS_PER_DAY)));
  return `P${Math.floor(months / 12)}Y${months % 12}M`;
}

export function generateProduct(account: AccountProfile, asOfMs: number): Product {
  const { currency, isShariaCompliant: sharia } = account;
  const monthlyFee = {
    Type: 'MonthlyFees' as const,
    Name: 'Monthly maintenance fee',
    Description: 'Charged when the average monthly balance falls below the minimum.',
    Charge: [{ Amount: amount(2_500, currency), ApplicationFrequency: 'Monthly' as const }],
    Conditions: [{ Description: 'Average monthly balance below 3000 AED' }],
  };
  switch (account.subType) {
    case 'CurrentAccount':
      return {
        Charges: [monthlyFee, { Type: 'ChequeBook', Name: 'Cheque book', Description: 'Each additional cheque book.', Charge: [{ Amount: amount(5_000, currency) }] }],
        IsSalaryTransferRequired: account.customer.category === 'Retail',
        IsSecured: false,
      };
    case 'Savings':
      return {
        DepositRates: {
          RateType: sharia ? 'VariableProfit' : 'VariableInterest',
          RateDetails: [
            {
              RateCategory: 'Standard',
              AnnualRate: 2.25,
              Tier: { MinBalance: '0', MaxBalance: '99999.99', Currency: currency },
              EffectiveDate: isoDate(account.openedMs),
              CalculationMethod: 'DailyClosingBalance',
              CalculationFrequency: 'Daily',
              ApplicationFrequency: 'Monthly',
            },
            {
              RateCategory: 'Bonus',
              AnnualRate: 3.1,
              Tier: { MinBalance: '100000', Currency: currency },
              CalculationMethod: 'AverageDailyBalance',
              CalculationFrequency: 'Daily',
              ApplicationFrequency: 'Monthly',
            },
          ],
        },
        ...(sharia ? { ShariaStructure: 'Musharaka' as const } : {}),
        IsSecured: false,
      };
    case 'CreditCard':
      return {
        Charges: [
          { Type: 'AnnualFees', Name: 'Annual card fee', Description: 'Waived in the first year.', Charge: [{ Amount: amount(30_000, currency) }] },
          { Type: 'LatePayment', Name: 'Late payment fee', Description: 'When the minimum is not paid by the due date.', Charge: [{ Amount: amount(23_100, currency) }] },
          { Type: 'ForeignTransaction', Name: 'Foreign currency fee', Description: 'On purchases in other currencies.', Charge: [{ Rate: 2 }] },
        ],
        FinanceRates: { RateType: sharia ? 'FixedProfit' : 'FixedInterest', Rate: 3.25, Description: 'Monthly rate on unpaid balances' },
        RewardsBenefits: [{ Type: 'Cashback', Description: 'One percent back on everyday spending' }],
        IsSecured: false,
      };
    case 'Mortgage':
    case 'Finance': {
      const mortgage = account.subType === 'Mortgage';
      const endMs = account.openedMs + (mortgage ? 25 : 5) * 365 * MS_PER_DAY;
      return {
        ...(sharia ? { ShariaStructure: mortgage ? ('Ijara' as const) : ('Murabaha' as const) } : {}),
        FinanceRates: { RateType: sharia ? 'VariableProfit' : 'VariableInterest', Rate: mortgage ? 4.49 : 6.99 },
        Charges: [
          { Type: 'EarlySettlement', Name: 'Early settlement fee', Description: 'Percentage of the outstanding amount.', Charge: [{ Rate: 1 }] },
          { Type: 'Processing', Name: 'Processing fee', Description: 'Charged once at drawdown.', Charge: [{ Rate: 0.5 }] },
        ],
        IsSecured: true,
        IsSalaryTransferRequired: true,
        Tenor: { OriginalTenor: period(account.openedMs, endMs), RemainingTenor: period(asOfMs, endMs) },
        AssetBacked: [
          mortgage
            ? { Type: sharia ? 'OwnershipTransfer' : 'Collateral', AssetType: 'Property', Description: 'Residential apartment' }
            : { Type: 'Collateral', AssetType: 'SalaryAssignment', Description: 'Salary assigned to the bank' },
        ],
        // Sharia-compliant finance usually requires Takaful cover (a v2.2 member).
        TakafulRequired: sharia,
        ...(sharia ? { TakafulDescription: mortgage ? 'Property and life Takaful for the term of the finance.' : 'Life Takaful covering the outstanding amount.' } : {}),
      };
    }
  }
}
