/**
 * Bank Data Sharing consents: creation (by the sandbox, standing in for the customer's
 * authorisation journey), reads by id and by base consent id, status transitions, and the
 * PATCH body (revocation and webhook subscription). Records validate against `Consent`.
 */
import { randomUUID } from 'node:crypto';
import {
  Consent as ConsentSchema,
  ConsentPatch as ConsentPatchSchema,
  type Consent,
  type ConsentStatus,
  type OpenFinanceBilling,
  type Permission,
  type RevokedBy,
  type WebhookSubscription,
} from '@bank-data-sharing/validators/v2.2';
import { epochMsOf, requireInstant } from '../data/datetime.js';
import { isoInstant, nowMs, type Clock } from './clock.js';
import { AuthError } from './errors.js';

/** Section 3: no way out of these. */
export const TERMINAL_STATUSES: readonly ConsentStatus[] = ['Revoked', 'Expired'];

/**
 * Allowed status changes. The spec names only Revoked and Expired (terminal); the rest is
 * the sandbox's reading of a usual consent life: await authorisation, then be authorised,
 * possibly suspended and resumed, until it is revoked, expires or is used up. Rejected and
 * Consumed are final too, since nothing can bring such a consent back.
 */
export const STATUS_TRANSITIONS: Readonly<Record<ConsentStatus, readonly ConsentStatus[]>> = {
  AwaitingAuthorization: ['Authorized', 'Rejected', 'Revoked', 'Expired'],
  Authorized: ['Suspended', 'Revoked', 'Expired', 'Consumed'],
  Suspended: ['Authorized', 'Revoked', 'Expired'],
  Rejected: [],
  Consumed: [],
  Revoked: [],
  Expired: [],
};

/** Statuses that turn into Expired once ExpirationDateTime has passed. */
const CAN_EXPIRE: readonly ConsentStatus[] = ['AwaitingAuthorization', 'Authorized', 'Suspended'];

/** Everything needed to create a consent; most members have sandbox defaults. */
export interface ConsentInput {
  readonly permissions: readonly Permission[];
  /** Accounts the customer selected. Our Consent schema has no member for them, so they are kept beside it. */
  readonly accountIds: readonly string[];
  /** Owner of the accounts (the sandbox customer id), if known. */
  readonly customerId?: string | undefined;
  /** Default: `aac-` and a random UUID. */
  readonly consentId?: string | undefined;
  /** Default: the consent's own id (it starts a new chain). */
  readonly baseConsentId?: string | undefined;
  /** Default: Authorized, as if the customer had just approved it. */
  readonly status?: ConsentStatus | undefined;
  /** Default: one year after creation. */
  readonly expirationDateTime?: string | undefined;
  readonly transactionFromDateTime?: string | undefined;
  readonly transactionToDateTime?: string | undefined;
  /** Default: a retail customer aggregating accounts. */
  readonly openFinanceBilling?: OpenFinanceBilling | undefined;
  readonly subscription?: WebhookSubscription | undefined;
}

/** A consent as the store keeps it: the TPP-visible record plus the consent's accounts. */
export interface ConsentRecord {
  readonly consent: Consent;
  readonly accountIds: readonly string[];
  readonly customerId: string | undefined;
}

interface Entry {
  consent: Consent;
  readonly accountIds: readonly string[];
  readonly customerId: string | undefined;
}

const YEAR_MS = 365 * 86_400_000;

/** The consent part of the auth store. */
export class ConsentStore {
  readonly #clock: Clock;
  readonly #linkBase: string;
  readonly #consents = new Map<string, Entry>();

  /** `linkBase` is the absolute URL that consent paths are appended to in `Links.Self`. */
  constructor(clock: Clock, linkBase: string) {
    this.#clock = clock;
    this.#linkBase = linkBase.replace(/\/+$/, '');
  }

  /** Creates a consent; throws `InvalidConsent` if the result would not match the schema. */
  create(input: ConsentInput): ConsentRecord {
    const now = nowMs(this.#clock);
    const consentId = input.consentId ?? `aac-${randomUUID()}`;
    if (this.#consents.has(consentId)) throw new AuthError('InvalidConsent', `consent ${consentId} already exists`);
    if (input.accountIds.length === 0) throw new AuthError('InvalidConsent', 'a consent needs at least one account');
    const consent: Consent = {
      Data: {
        ConsentId: consentId,
        BaseConsentId: input.baseConsentId ?? consentId,
        CreationDateTime: isoInstant(now),
        Status: input.status ?? 'Authorized',
        StatusUpdateDateTime: isoInstant(now),
        Permissions: [...input.permissions],
        ExpirationDateTime: input.expirationDateTime ?? isoInstant(now + YEAR_MS),
        ...(input.transactionFromDateTime === undefined ? {} : { TransactionFromDateTime: input.transactionFromDateTime }),
        ...(input.transactionToDateTime === undefined ? {} : { TransactionToDateTime: input.transactionToDateTime }),
        OpenFinanceBilling: input.openFinanceBilling ?? { UserType: 'Retail', Purpose: 'AccountAggregation' },
      },
      ...(input.subscription === undefined ? {} : { Subscription: structuredClone(input.subscription) }),
      Links: { Self: `${this.#linkBase}/account-access-consents/${encodeURIComponent(consentId)}` },
      Meta: {},
    };
    const checked = ConsentSchema.safeParse(consent);
    if (!checked.success) throw new AuthError('InvalidConsent', `consent does not match the Consent schema: ${checked.error.message}`);
    const entry: Entry = { consent, accountIds: [...input.accountIds], customerId: input.customerId };
    this.#consents.set(consentId, entry);
    this.#expireIfDue(entry);
    return this.#view(entry);
  }

  /** A consent with its accounts; throws `ConsentNotFound`. Expiry is applied on read. */
  get(consentId: string): ConsentRecord {
    return this.#view(this.#entry(consentId));
  }

  /** True when the consent exists. */
  has(consentId: string): boolean {
    return this.#consents.has(consentId);
  }

  /** All consents sharing a base consent id, oldest first (GetAccountAccessConsentsByBaseConsentId). */
  byBaseConsentId(baseConsentId: string): Consent[] {
    return [...this.#consents.values()]
      .filter((entry) => (entry.consent.Data.BaseConsentId ?? entry.consent.Data.ConsentId) === baseConsentId)
      .map((entry) => this.#view(entry).consent);
  }

  /**
   * Moves a consent to another status; throws `InvalidTransition` when the table does not
   * allow it (always so from Revoked or Expired). `revokedBy` is recorded for Revoked.
   */
  setStatus(consentId: string, status: ConsentStatus, revokedBy?: RevokedBy): ConsentRecord {
    const entry = this.#entry(consentId);
    this.#transition(entry, status, revokedBy);
    return this.#view(entry);
  }

  /**
   * Applies a PATCH body (schema `ConsentPatch`): `Data.Status` Revoked revokes the consent,
   * `Subscription.Webhook` members replace those stored. All or nothing: a refused
   * revocation leaves the subscription unchanged too.
   */
  patch(consentId: string, body: unknown): ConsentRecord {
    const parsed = ConsentPatchSchema.safeParse(body);
    if (!parsed.success) throw new AuthError('InvalidBody', `not a consent patch: ${parsed.error.message}`);
    const entry = this.#entry(consentId);
    const { Data, Subscription } = parsed.data;
    if (Data !== undefined) this.#transition(entry, Data.Status, Data.RevokedBy ?? 'TPP');
    if (Subscription !== undefined) {
      const Webhook = { ...entry.consent.Subscription?.Webhook, ...Subscription.Webhook };
      entry.consent = { ...entry.consent, Subscription: { Webhook } };
    }
    return this.#view(entry);
  }

  #entry(consentId: string): Entry {
    const entry = this.#consents.get(consentId);
    if (entry === undefined) throw new AuthError('ConsentNotFound', `no consent with id ${consentId}`);
    this.#expireIfDue(entry);
    return entry;
  }

  #transition(entry: Entry, status: ConsentStatus, revokedBy: RevokedBy | undefined): void {
    const from = entry.consent.Data.Status;
    if (!STATUS_TRANSITIONS[from].includes(status)) {
      throw new AuthError('InvalidTransition', `consent ${entry.consent.Data.ConsentId} cannot go from ${from} to ${status}`);
    }
    this.#apply(entry, status, isoInstant(nowMs(this.#clock)), status === 'Revoked' ? revokedBy : undefined);
  }

  #apply(entry: Entry, status: ConsentStatus, at: string, revokedBy: RevokedBy | undefined): void {
    entry.consent = {
      ...entry.consent,
      Data: { ...entry.consent.Data, Status: status, StatusUpdateDateTime: at, ...(revokedBy === undefined ? {} : { RevokedBy: revokedBy }) },
    };
  }

  /** Lazy expiry: a consent read after its ExpirationDateTime is Expired as of that instant. */
  #expireIfDue(entry: Entry): void {
    const { Status, ExpirationDateTime } = entry.consent.Data;
    if (!CAN_EXPIRE.includes(Status)) return;
    const expiresMs = epochMsOf(requireInstant(ExpirationDateTime));
    if (nowMs(this.#clock) >= expiresMs) this.#apply(entry, 'Expired', isoInstant(expiresMs), undefined);
  }

  /** A deep copy, so callers cannot change the stored consent behind the store's back. */
  #view(entry: Entry): ConsentRecord {
    return { consent: structuredClone(entry.consent), accountIds: [...entry.accountIds], customerId: entry.customerId };
  }
}
