/**
 * Handler sets for the whole v2.2 and v2.1 APIs, backed by fixtures. Tests change
 * `behaviour` to make a handler misbehave (invalid result, thrown error).
 */
import { ApiError } from '../../src/runtime/index.js';
import type { Handlers as Handlers22 } from '../../src/generated/v2.2/index.js';
import type { Handlers as Handlers21 } from '../../src/generated/v2.1/index.js';
import { ACCOUNT_ID, account, attestation, consent, statement, transactions } from './fixtures.js';

export type Behaviour = 'ok' | 'invalid-body' | 'undefined-status' | 'throws' | 'api-error' | 'forbidden' | 'members-out-of-order' | 'text-to-escape';

export interface State {
  behaviour: Behaviour;
  /** Bodies the consent patch received, with the media type they came in. */
  patches: Array<{ body: unknown; contentType: string | undefined; signed: boolean }>;
  attestations: unknown[];
}

export function newState(): State {
  return { behaviour: 'ok', patches: [], attestations: [] };
}

function unused(): never {
  throw new ApiError(500, 'GenericError', 'not used by these tests');
}

/** `GetAccounts` with the misbehaviours the tests need. */
function accounts(state: State, url: string) {
  switch (state.behaviour) {
    case 'throws':
      throw new TypeError('secret internal detail at handler.ts:42');
    case 'api-error':
      throw new ApiError(403, 'Consent.Invalid', 'The consent does not cover this account');
    case 'forbidden':
      throw new ApiError(429, 'Request.TooManyRequests', 'slow down', { retryAfter: 7 });
    default:
      break;
  }
  const body = { Data: { Account: [account('acc-001'), account('acc-002')] }, Links: { Self: url }, Meta: { TotalPages: 1 } };
  if (state.behaviour === 'invalid-body') return { status: 200 as const, body: { ...body, Meta: { TotalPages: -1 } } };
  if (state.behaviour === 'members-out-of-order') return { status: 200 as const, body: { Meta: body.Meta, Links: body.Links, Data: body.Data } };
  if (state.behaviour === 'text-to-escape') return { status: 200 as const, body: { ...body, Data: { Account: [{ ...account('acc-001'), Nickname: 'a "quoted" \\ name\u2028\ud800' }] } } };
  if (state.behaviour === 'undefined-status') return { status: 418 as never, body };
  return { status: 200 as const, body };
}

export function handlers22(state: State): Handlers22 {
  return {
    GetAccountAccessConsentsByBaseConsentId: (req) => ({ status: 200, body: [consent('consent-001', req.url)] }),
    GetAccountAccessConsentsConsentId: (req) => ({ status: 200, body: consent(req.path.ConsentId, req.url) }),
    PatchAccountAccessConsentsConsentId: (req) => {
      state.patches.push({ body: req.body, contentType: req.contentType, signed: req.signed !== undefined });
      return { status: 204 };
    },
    ReadAccountAccessConsentAttestations: (req) => ({ status: 200, body: { Data: [], Links: { Self: req.url }, Meta: { TotalPages: 0 } } }),
    CreateAccountAccessConsentAttestation: (req) => {
      state.attestations.push(req.body);
      return {
        status: 201,
        body: {
          Data: {
            AttestationId: '0f8fad5b-d9cb-469f-a165-70867728950e',
            AttestationReceivedDateTime: '2025-03-01T00:00:00Z',
            RegulatoryDeadlineMetIndicator: true,
            Attestation: req.body.Data,
          },
          Links: { Self: req.url },
        },
      };
    },
    GetAccounts: (req) => accounts(state, req.url),
    GetAccountsAccountId: (req) => ({
      status: 200,
      body: { Data: { AccountId: req.path.AccountId, Account: { Currency: 'AED' } }, Links: { Self: req.url }, Meta: { TotalPages: 1 } },
    }),
    GetAccountsAccountIdBalances: unused,
    GetAccountsAccountIdBeneficiaries: unused,
    GetAccountsAccountIdDirectDebits: unused,
    GetAccountsAccountIdProduct: unused,
    GetScheduledPayments: unused,
    GetAccountsAccountIdStandingOrders: unused,
    GetAccountsAccountIdTransactions: (req) => ({
      status: 200,
      body: { Data: { AccountId: req.path.AccountId, Transaction: transactions(3) }, Links: { Self: req.url }, Meta: { TotalPages: 1 } },
    }),
    PartiesByAccountId_read: unused,
    Parties_read: unused,
    GetAccountAccountIdStatements: (req) => ({
      status: 200,
      body: {
        Data: { AccountId: req.path.AccountId, AccountSubType: 'CurrentAccount', Statements: [statement('s1', '2025-02-01')] },
        Links: { Self: req.url },
        Meta: { TotalPages: 1 },
      },
    }),
  };
}

export function handlers21(state: State): Handlers21 {
  const v22 = handlers22(state);
  return {
    GetAccountAccessConsentsByBaseConsentId: (req) => ({ status: 200, body: [consent('consent-001', req.url)] }),
    GetAccountAccessConsentsConsentId: (req) => ({ status: 200, body: consent(req.path.ConsentId, req.url) }),
    PatchAccountAccessConsentsConsentId: (req) => {
      state.patches.push({ body: req.body, contentType: req.contentType, signed: req.signed !== undefined });
      return { status: 204 };
    },
    GetAccounts: (req) => accounts(state, req.url),
    GetAccountsAccountId: (req) => ({
      status: 200,
      body: { Data: { AccountId: req.path.AccountId, Account: { Currency: 'AED' } }, Links: { Self: req.url }, Meta: { TotalPages: 1 } },
    }),
    GetAccountsAccountIdBalances: v22.GetAccountsAccountIdBalances,
    GetAccountsAccountIdBeneficiaries: unused,
    GetAccountsAccountIdDirectDebits: unused,
    GetAccountsAccountIdProduct: unused,
    GetScheduledPayments: unused,
    GetAccountsAccountIdStandingOrders: unused,
    GetAccountsAccountIdTransactions: (req) => ({
      status: 200,
      body: { Data: { AccountId: req.path.AccountId, Transaction: transactions(3) }, Links: { Self: req.url }, Meta: { TotalPages: 1 } },
    }),
    PartiesByAccountId_read: unused,
    Parties_read: unused,
    GetAccountAccountIdStatements: unused,
  };
}

export { ACCOUNT_ID, attestation };
