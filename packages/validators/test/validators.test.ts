import { describe, expect, it } from 'vitest';
import * as v22 from '../src/generated/v2.2/index.js';
import * as v21 from '../src/generated/v2.1/index.js';

describe('the shipped validators of our spec', () => {
  it('take the prefix and version from each file', () => {
    expect(v22.api.pathPrefix).toBe('/open-finance/account-information/v2.2');
    expect(v21.api.pathPrefix).toBe('/open-finance/account-information/v2.1');
    expect(v22.api.version).toBe('v2.2');
  });

  it('key every component schema by its exact name and every operation by operationId', () => {
    expect(v22.schemas.DateTime).toBe(v22.DateTime);
    expect(Object.keys(v22.operations).sort()).toContain('CreateAccountAccessConsentAttestation');
    expect(Object.keys(v21.operations)).not.toContain('CreateAccountAccessConsentAttestation');
    expect(Object.keys(v22.operations)).toHaveLength(17);
  });

  it('keep the DateTime rule of section 2.4: -00:00 rejected, other offsets and fractions accepted', () => {
    expect(v22.DateTime.safeParse('2025-03-14T09:30:00-00:00').success).toBe(false);
    for (const ok of ['2025-03-14T09:30:00Z', '2025-03-14T09:30:00+04:00', '2025-03-14T09:30:00.5-05:00']) {
      expect(v22.DateTime.safeParse(ok).success).toBe(true);
    }
  });

  it('close Links and Meta to unknown members', () => {
    expect(v22.Links.safeParse({ Self: 'https://hub.example/a' }).success).toBe(true);
    expect(v22.Links.safeParse({ Self: 'https://hub.example/a', Other: 'x' }).success).toBe(false);
    expect(v22.Meta.safeParse({ TotalPages: 0 }).success).toBe(true);
    expect(v22.Meta.safeParse({ TotalPages: -1 }).success).toBe(false);
  });

  it('decode query text before checking it', () => {
    const query = v22.operations.GetAccountsAccountIdTransactions.request.query;
    expect(query.safeParse({ fromBookingDateTime: '2025-01-01T00:00:00Z' }).success).toBe(true);
    expect(query.safeParse({ fromBookingDateTime: 'yesterday' }).success).toBe(false);
  });

  it('accept the prescribed 400 codes and namespaced codes, and name the field on errors', () => {
    const ok = { Errors: [{ Code: 'Resource.InvalidFormat', Message: 'bad', Path: 'Data.AccountId' }] };
    expect(v22.Errors400.safeParse(ok).success).toBe(true);
    expect(v22.Errors400.safeParse({ Errors: [] }).success).toBe(false);
    const wrong = v22.Errors400.safeParse({ Errors: [{ Code: 'nonsense code', Message: 'x' }] });
    expect(wrong.success).toBe(false);
    expect(wrong.error!.issues[0]!.path.slice(0, 3)).toStrictEqual(['Errors', 0, 'Code']);
  });
});
