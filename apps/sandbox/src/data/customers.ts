/** Customers: who they are, and the party record of the signed-in user (GET /parties). */
import type { BusinessClaims, Party, PersonClaims, PostalAddress } from '@bank-data-sharing/validators/v2.2';
import { BUSINESS_NAMES, EMIRATES, EMPLOYERS, GIVEN_NAMES, PROFESSIONS, STREETS, SURNAMES } from './catalog.js';
import { formatInstant, isoDate, MS_PER_DAY } from './datetime.js';
import { streamFor } from './prng.js';

/** What the other generators need to know about a customer. */
export interface CustomerProfile {
  readonly index: number;
  readonly customerId: string;
  /** Every third customer is a small business, so that SME shapes appear in the data. */
  readonly category: 'Retail' | 'SME';
  readonly partyId: string;
  readonly partyNumber: string;
  readonly givenName: string;
  readonly surname: string;
  readonly fullName: string;
  readonly address: PostalAddress;
  readonly mobile: string;
  readonly email: string;
  readonly birthDate: string;
  readonly emiratesId: string;
  readonly employer: string;
  readonly profession: string;
  /** Monthly salary in minor units (AED). */
  readonly salaryMinor: number;
  /** Present for SME customers: the business that holds the accounts. */
  readonly business?: { readonly name: string; readonly partyId: string; readonly licence: string };
}

/** Builds the profile of customer `index` (0-based) of a seed. */
export function customerProfile(seed: number, index: number, asOfMs: number): CustomerProfile {
  const rng = streamFor(seed, `customer:${index}`);
  const givenName = rng.pick(GIVEN_NAMES);
  const surname = rng.pick(SURNAMES);
  const [emirate, town] = rng.pick(EMIRATES);
  const birthYear = new Date(asOfMs).getUTCFullYear() - rng.int(24, 62);
  const birthDate = `${birthYear}-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`;
  const category = index % 3 === 2 ? 'SME' : 'Retail';
  const id = rng.hex(10);
  const street = rng.pick(STREETS);
  const building = String(rng.int(1, 240));
  return {
    index,
    customerId: `cus-${id}`,
    category,
    partyId: `pty-${id}`,
    partyNumber: `CIF${rng.digits(9)}`,
    givenName,
    surname,
    fullName: `${givenName} ${surname}`,
    address: {
      AddressType: 'Residential',
      AddressLine: [`Building ${building}, ${street}`],
      BuildingNumber: building,
      StreetName: street,
      TownName: town,
      CountrySubDivision: emirate,
      Country: 'AE',
    },
    mobile: `+9715${rng.digits(8)}`,
    email: `${givenName}.${surname}`.toLowerCase().replace(/[^a-z.]/g, '') + '@example.com',
    birthDate,
    emiratesId: `784-${birthYear}-${rng.digits(7)}-${rng.digits(1)}`,
    employer: rng.pick(EMPLOYERS),
    profession: rng.pick(PROFESSIONS),
    salaryMinor: rng.int(12, 45) * 100_000,
    ...(category === 'SME'
      ? { business: { name: rng.pick(BUSINESS_NAMES), partyId: `pty-${rng.hex(10)}`, licence: `TL-${rng.digits(8)}` } }
      : {}),
  };
}

/** Verified identity claims of the customer as a person. */
export function personClaims(profile: CustomerProfile, asOfMs: number): PersonClaims {
  return {
    IdentityType: 'Person',
    FullName: profile.fullName,
    GivenName: profile.givenName,
    Surname: profile.surname,
    EmiratesId: profile.emiratesId,
    // The ID card is valid for a few more years from the data set's "now".
    EmiratesIdExpiryDate: isoDate(asOfMs + 3 * 365 * MS_PER_DAY),
    DateOfBirth: profile.birthDate,
    Nationality: 'AE',
    ResidentialAddress: profile.address,
    MobileNumber: profile.mobile,
    Email: profile.email,
    Language: 'en',
    EmployerName: profile.employer,
    Profession: profile.profession,
    SalaryTransfer: profile.category === 'Retail',
    UpdatedAt: formatInstant(asOfMs - 90 * MS_PER_DAY),
  };
}

/** Verified claims of an SME customer's business. */
export function businessClaims(profile: CustomerProfile): BusinessClaims | undefined {
  if (profile.business === undefined) return undefined;
  return {
    IdentityType: 'Business',
    BusinessName: profile.business.name,
    TradeLicenceNumber: profile.business.licence,
    CountryOfIncorporation: 'AE',
    CorporateAddress: { ...profile.address, AddressType: 'Business' },
    CorporateContactEmail: `accounts@${profile.business.name.toLowerCase().replace(/[^a-z]/g, '')}.example.com`,
    Industry: 'Trading',
  };
}

/** The party record of the signed-in customer (GET /parties). */
export function ownParty(profile: CustomerProfile, asOfMs: number): Party {
  const verification = { TrustFramework: 'FI' as const, Time: formatInstant(asOfMs - 400 * MS_PER_DAY, '+04:00') };
  const business = businessClaims(profile);
  return {
    PartyId: profile.partyId,
    PartyNumber: profile.partyNumber,
    PartyCategory: profile.category,
    VerifiedClaims: [
      { Verification: verification, Claims: personClaims(profile, asOfMs) },
      ...(business === undefined ? [] : [{ Verification: verification, Claims: business }]),
    ],
  };
}
