/**
 * Attestation events (v2.2): a TPP's statement of what it did with the data of a consent
 * that has ended. Recorded only for Revoked or Expired consents (section 4.2, rule 4);
 * each event is atomic and independent of the others (rule 1).
 */
import { randomUUID } from 'node:crypto';
import {
  AttestationEvent as AttestationEventSchema,
  AttestationRequest as AttestationRequestSchema,
  type AttestationEvent,
} from '@bank-data-sharing/validators/v2.2';
import { epochMsOf, requireInstant } from '../data/datetime.js';
import { isoInstant, nowMs, type Clock } from './clock.js';
import type { ConsentStore } from './consents.js';
import { TERMINAL_STATUSES } from './consents.js';
import { AuthError } from './errors.js';

/** Days after a consent ends within which an attestation counts as on time (a sandbox rule; the spec gives no figure). */
export const DEFAULT_ATTESTATION_DEADLINE_DAYS = 30;

/** Options of a read (GET .../attestations). */
export interface ReadAttestationsOptions {
  /** Only the last successfully recorded event (query parameter `LastSubmitted`). */
  readonly lastSubmitted?: boolean | undefined;
}

/** The attestation part of the auth store. */
export class AttestationStore {
  readonly #clock: Clock;
  readonly #consents: ConsentStore;
  readonly #deadlineMs: number;
  readonly #events = new Map<string, AttestationEvent[]>();

  constructor(clock: Clock, consents: ConsentStore, deadlineDays = DEFAULT_ATTESTATION_DEADLINE_DAYS) {
    this.#clock = clock;
    this.#consents = consents;
    this.#deadlineMs = deadlineDays * 86_400_000;
  }

  /**
   * Records an attestation. `body` is the `AttestationRequest` (the `message` claim of the
   * signed request, once the caller has verified the JWT). Throws `ConsentNotFound`,
   * `InvalidBody`, or `ConsentNotTerminated` when the consent is neither Revoked nor Expired.
   */
  create(consentId: string, body: unknown): AttestationEvent {
    const { consent } = this.#consents.get(consentId);
    const parsed = AttestationRequestSchema.safeParse(body);
    if (!parsed.success) throw new AuthError('InvalidBody', `not an attestation request: ${parsed.error.message}`);
    const status = consent.Data.Status;
    if (!TERMINAL_STATUSES.includes(status)) {
      throw new AuthError('ConsentNotTerminated', `attestations need a Revoked or Expired consent; ${consentId} is ${status}`);
    }
    const now = nowMs(this.#clock);
    const endedMs = epochMsOf(requireInstant(consent.Data.StatusUpdateDateTime));
    const event: AttestationEvent = {
      AttestationId: randomUUID(),
      AttestationReceivedDateTime: isoInstant(now),
      RegulatoryDeadlineMetIndicator: now - endedMs <= this.#deadlineMs,
      // A copy of what was submitted (section 4.2, rule 2).
      Attestation: structuredClone(parsed.data.Data),
    };
    AttestationEventSchema.parse(event);
    const events = this.#events.get(consentId) ?? [];
    events.push(event);
    this.#events.set(consentId, events);
    return structuredClone(event);
  }

  /** Recorded events of a consent in recording order, or only the last with `lastSubmitted`. */
  read(consentId: string, options: ReadAttestationsOptions = {}): AttestationEvent[] {
    this.#consents.get(consentId);
    const events = this.#events.get(consentId) ?? [];
    const chosen = options.lastSubmitted === true ? events.slice(-1) : events;
    return structuredClone(chosen);
  }
}
