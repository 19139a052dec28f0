/** Parties linked to an account (GET /accounts/{AccountId}/parties). */
import type { AccountParty, PersonClaims } from '@bank-data-sharing/validators/v2.2';
import type { AccountProfile } from './accounts.js';
import { GIVEN_NAMES } from './catalog.js';
import { businessClaims, personClaims } from './customers.js';
import { formatInstant, isoDate, MS_PER_DAY } from './datetime.js';
import { streamFor } from './prng.js';

/**
 * Retail accounts: the customer alone, or (now and then, for current and savings
 * accounts) jointly with a relative. SME accounts: the business as principal and the
 * customer as the delegate who administers it.
 */
export function generateAccountParties(seed: number, account: AccountProfile, asOfMs: number): AccountParty[] {
  const rng = streamFor(seed, `parties:${account.accountId}`);
  const { customer } = account;
  const verification = { TrustFramework: 'FI' as const, Time: formatInstant(account.openedMs, '+04:00') };
  const self = { Verification: verification, Claims: personClaims(customer, asOfMs) };
  const business = businessClaims(customer);
  if (business !== undefined && customer.business !== undefined) {
    return [
      {
        PartyId: customer.business.partyId,
        PartyType: 'Sole',
        PartyCategory: 'SME',
        AccountRole: 'Principal',
        VerifiedClaims: [{ Verification: verification, Claims: business }],
      },
      { PartyId: customer.partyId, PartyNumber: customer.partyNumber, PartyType: 'Delegate', PartyCategory: 'SME', AccountRole: 'Administrator', VerifiedClaims: [self] },
    ];
  }
  const joint = (account.subType === 'CurrentAccount' || account.subType === 'Savings') && rng.chance(0.35);
  if (!joint) {
    return [{ PartyId: customer.partyId, PartyNumber: customer.partyNumber, PartyType: 'Sole', PartyCategory: 'Retail', AccountRole: 'Principal', VerifiedClaims: [self] }];
  }
  const given = rng.pick(GIVEN_NAMES.filter((name) => name !== customer.givenName));
  const birthYear = new Date(asOfMs).getUTCFullYear() - rng.int(20, 60);
  const relative: PersonClaims = {
    IdentityType: 'Person',
    FullName: `${given} ${customer.surname}`,
    GivenName: given,
    Surname: customer.surname,
    EmiratesId: `784-${birthYear}-${rng.digits(7)}-${rng.digits(1)}`,
    EmiratesIdExpiryDate: isoDate(asOfMs + rng.int(200, 1500) * MS_PER_DAY),
    DateOfBirth: `${birthYear}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`,
    ResidentialAddress: customer.address,
  };
  // PartyIds of account parties sort after the account owner's, which keeps list order natural.
  const relativeId = `${customer.partyId}-j${account.index}`;
  return [
    { PartyId: customer.partyId, PartyNumber: customer.partyNumber, PartyType: 'Joint', PartyCategory: 'Retail', AccountRole: 'Principal', VerifiedClaims: [self] },
    { PartyId: relativeId, PartyType: 'Joint', PartyCategory: 'Retail', AccountRole: 'SecondaryOwner', VerifiedClaims: [{ Verification: verification, Claims: relative }] },
  ];
}
