import { AttestationEvent, AttestationsResponse } from '@bank-data-sharing/validators/v2.2';
import { describe, expect, it } from 'vitest';
import { AuthError } from '../src/auth/errors.js';
import { attestationBody, authWithClock, START } from './auth.fixtures.js';

describe('attestations', () => {
  it('are refused while the consent is active, with a 400 business-rule error', () => {
    const { auth } = authWithClock();
    for (const status of ['AwaitingAuthorization', 'Authorized', 'Suspended'] as const) {
      const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'], status }).consent.Data.ConsentId;
      try {
        auth.attestations.create(id, attestationBody());
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AuthError);
        expect(error).toMatchObject({ reason: 'ConsentNotTerminated', status: 400, code: 'Consent.BusinessRuleViolation' });
      }
      expect(auth.attestations.read(id)).toEqual([]);
    }
  });

  it('are recorded for a revoked consent, valid against AttestationEvent, with a copy of the submission', () => {
    const { auth, clock } = authWithClock();
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'] }).consent.Data.ConsentId;
    auth.consents.patch(id, { Data: { Status: 'Revoked' } });
    clock.advance(60_000);
    const body = attestationBody();
    const event = auth.attestations.create(id, body);
    expect(AttestationEvent.safeParse(event).success).toBe(true);
    expect(event).toMatchObject({ AttestationReceivedDateTime: new Date(START + 60_000).toISOString(), RegulatoryDeadlineMetIndicator: true, Attestation: body.Data });
    body.Data.DataActions.length = 0;
    expect(auth.attestations.read(id)[0]?.Attestation.DataActions).toHaveLength(1);
  });

  it('are recorded for an expired consent, and flag a missed deadline', () => {
    const { auth, clock } = authWithClock();
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'], expirationDateTime: new Date(START + 1_000).toISOString() }).consent.Data.ConsentId;
    clock.advance(31 * 86_400_000);
    const event = auth.attestations.create(id, attestationBody());
    expect(auth.consents.get(id).consent.Data.Status).toBe('Expired');
    expect(event.RegulatoryDeadlineMetIndicator).toBe(false);
  });

  it('are read all in recording order, or only the last with LastSubmitted', () => {
    const { auth, clock } = authWithClock();
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'] }).consent.Data.ConsentId;
    auth.consents.setStatus(id, 'Revoked', 'TPP');
    const first = auth.attestations.create(id, attestationBody('deleted'));
    clock.advance(1_000);
    const second = auth.attestations.create(id, attestationBody('retained'));
    clock.advance(1_000);
    const third = auth.attestations.create(id, attestationBody('deleted'));
    const all = auth.attestations.read(id);
    expect(all.map((e) => e.AttestationId)).toEqual([first.AttestationId, second.AttestationId, third.AttestationId]);
    expect(new Set(all.map((e) => e.AttestationId)).size).toBe(3);
    expect(auth.attestations.read(id, { lastSubmitted: true })).toEqual([third]);
    expect(auth.attestations.read(id, { lastSubmitted: false })).toEqual(all);
    const response = { Data: all, Links: { Self: `http://localhost/consents/${id}/attestations` }, Meta: { TotalPages: 1 } };
    expect(AttestationsResponse.safeParse(response).success).toBe(true);
  });

  it('refuse malformed bodies and unknown consents', () => {
    const { auth } = authWithClock();
    const id = auth.consents.create({ permissions: ['ReadBalances'], accountIds: ['a'] }).consent.Data.ConsentId;
    auth.consents.setStatus(id, 'Revoked');
    expect(() => auth.attestations.create(id, { Data: { AttestationType: 'DataRetentionDeletion' } })).toThrow(
      expect.objectContaining({ reason: 'InvalidBody', status: 400, code: 'Body.InvalidFormat' }),
    );
    expect(() => auth.attestations.create('missing', attestationBody())).toThrow(expect.objectContaining({ reason: 'ConsentNotFound', status: 404 }));
    expect(() => auth.attestations.read('missing')).toThrow(expect.objectContaining({ reason: 'ConsentNotFound' }));
    expect(auth.attestations.read(id)).toEqual([]);
  });
});
