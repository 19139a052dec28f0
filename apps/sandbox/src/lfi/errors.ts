/** Errors of the in-memory LFI store, with the HTTP status and body the LFI would answer. */
import type { LfiError } from '@bank-data-sharing/validators/v2.2/lfi';

/** Why the store refused a request. */
export type LfiStoreErrorReason =
  | 'UnknownAccount'
  | 'UnknownCustomer'
  | 'UnknownResource'
  | 'MissingAccountId'
  | 'InvalidPaging'
  | 'PageOutOfRange'
  | 'InvalidFilter';

/** HTTP status and namespaced error code of each reason (codes match `^[A-Za-z]+\.[A-Za-z0-9]+$`). */
const ANSWERS: Readonly<Record<LfiStoreErrorReason, { status: 400 | 404; errorCode: string }>> = {
  UnknownAccount: { status: 404, errorCode: 'Resource.NotFound' },
  UnknownCustomer: { status: 404, errorCode: 'Resource.NotFound' },
  UnknownResource: { status: 404, errorCode: 'Resource.NotFound' },
  MissingAccountId: { status: 400, errorCode: 'Resource.InvalidFormat' },
  InvalidPaging: { status: 400, errorCode: 'Paging.InvalidParameter' },
  PageOutOfRange: { status: 400, errorCode: 'Paging.PageOutOfRange' },
  InvalidFilter: { status: 400, errorCode: 'Resource.InvalidFormat' },
};

/** Thrown by the LFI store; `toLfiError()` gives the body of the hub-to-LFI error answer. */
export class LfiStoreError extends Error {
  override readonly name = 'LfiStoreError';
  readonly reason: LfiStoreErrorReason;
  /** HTTP status an LFI endpoint should answer with. */
  readonly status: 400 | 404;
  /** Value for the `errorCode` member of the LFI error body. */
  readonly errorCode: string;

  constructor(reason: LfiStoreErrorReason, message: string) {
    super(message);
    this.reason = reason;
    this.status = ANSWERS[reason].status;
    this.errorCode = ANSWERS[reason].errorCode;
  }

  /** The LFI error body (schema `LfiError`). */
  toLfiError(): LfiError {
    return { errorCode: this.errorCode, errorMessage: this.message };
  }
}
