/** A hand-driven clock and a store wired to it. */
import type { AttestationRequest } from '@bank-data-sharing/validators/v2.2';
import { createAuthStore } from '../src/auth/store.js';

export const START = Date.UTC(2025, 5, 15, 9, 0, 0);

export function manualClock(start = START) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
    set(ms: number) {
      now = ms;
    },
  };
}

export function authWithClock() {
  const clock = manualClock();
  return { clock, auth: createAuthStore({ now: clock.now }) };
}

/** A minimal, valid attestation request body. */
export function attestationBody(note = 'deleted'): AttestationRequest {
  return {
    Data: {
      AttestationType: 'DataRetentionDeletion',
      AttestationStatusAppliedDateTime: '2025-06-15T08:00:00Z',
      DataAccessCeasedDateTime: '2025-06-15T07:00:00+04:00',
      DataActions: [
        { DataActionType: 'Deleted', DataCategory: 'AllConsentedData', AttestationDate: '2025-06-15T08:00:00.5Z' },
        ...(note === 'retained'
          ? [{ DataActionType: 'Retained' as const, DataCategory: 'AuditRecords' as const, AttestationDate: '2025-06-15T08:00:00Z', RetentionReason: 'RegulatoryOrLegalObligation' as const, RetainedUntilDate: '2030-06-15' }]
          : []),
      ],
    },
  };
}
