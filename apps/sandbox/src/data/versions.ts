/**
 * Turns the generator's v2.2 records into the shape of the requested version. Only the
 * Transaction and Product records differ (see spec/README.md, "v2.1 compared with v2.2").
 */
import type * as V21 from '@bank-data-sharing/validators/v2.1';
import type * as V22 from '@bank-data-sharing/validators/v2.2';
import type { ProductOf, SpecVersion, TransactionOf } from './types.js';

/**
 * In v2.1 TransactionInformation is optional; the sandbox leaves it out of cash
 * withdrawals and fees there, so that v2.1 clients see records without it.
 */
export function transactionFor<V extends SpecVersion>(version: V, transaction: V22.Transaction): TransactionOf<V> {
  if (version === 'v2.2') return transaction as TransactionOf<V>;
  const narrativeless = transaction.TransactionType === 'ATM' || transaction.SubTransactionType === 'Fee';
  if (!narrativeless) return transaction as V21.Transaction as TransactionOf<V>;
  const { TransactionInformation: _omitted, ...rest } = transaction;
  return rest as V21.Transaction as TransactionOf<V>;
}

/** v2.1 products have no Takaful members; v2.2 keeps them. */
export function productFor<V extends SpecVersion>(version: V, product: V22.Product): ProductOf<V> {
  if (version === 'v2.2') return product as ProductOf<V>;
  const { TakafulRequired: _required, TakafulDescription: _description, ...rest } = product;
  return rest as V21.Product as ProductOf<V>;
}
