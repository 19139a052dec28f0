/**
 * Fixed vocabularies the generator draws from. All names are invented for the sandbox;
 * any likeness to a real person or business is accidental.
 */

export const GIVEN_NAMES = ['Aisha', 'Omar', 'Layla', 'Yousef', 'Mariam', 'Khalid', 'Noor', 'Hamdan', 'Sara', 'Rashid'] as const;
export const SURNAMES = ['Al Hashemi', 'Al Suwaidi', 'Haddad', 'Karimi', 'Al Nuaimi', 'Farouk', 'Qasim', 'Al Marri'] as const;
export const BUSINESS_NAMES = ['Dune Crest Trading LLC', 'Blue Pearl Logistics FZE', 'Palm Frond Catering LLC'] as const;

/** Emirates with a town in each, for addresses. */
export const EMIRATES = [
  ['Dubai', 'Dubai'],
  ['AbuDhabi', 'Abu Dhabi'],
  ['Sharjah', 'Sharjah'],
  ['Ajman', 'Ajman'],
] as const;

export const STREETS = ['Falcon Street', 'Oasis Road', 'Coral Avenue', 'Date Palm Street', 'Lagoon Walk'] as const;

/** Merchants: name and ISO 18245 category code. */
export const MERCHANTS = [
  ['Sandgrain Coffee House', '5814'],
  ['Greenleaf Hypermarket', '5411'],
  ['Skyline Fuel Station', '5541'],
  ['Mirage Cinemas', '7832'],
  ['Harbour Pharmacy', '5912'],
  ['Lantern Bookshop', '5942'],
  ['Camel Trail Electronics', '5732'],
  ['Saffron Kitchen', '5812'],
  ['Oryx Fashion', '5651'],
  ['Gulf Breeze Airways', '4511'],
] as const;

export const ONLINE_SHOPS = [
  ['Souq Online Marketplace', '5999'],
  ['StreamBox Subscriptions', '4899'],
  ['Quickride Taxi App', '4121'],
  ['Fresh Basket Grocery Delivery', '5411'],
] as const;

/** Billers for bill payments and direct debits. */
export const BILLERS = ['City Power and Water', 'Desert Telecom', 'Metro Gas Services', 'Crescent Insurance', 'Falcon Fitness Club'] as const;

/** Other banks (name, made-up BIC, 3-digit IBAN bank code), for payees and counterparties. */
export const BANKS = [
  ['Emirates Sandbox Bank', 'ESBXAEADXXX', '021'],
  ['Gulf Example Bank', 'GEXBAEADXXX', '047'],
  ['Oasis Test Bank', 'OTBKAEAAXXX', '063'],
] as const;

/** The sandbox LFI itself. */
export const OWN_BANK = { name: 'Sandbox LFI', bic: 'SBXLAEADXXX', code: '099' } as const;

export const EMPLOYERS = ['Horizon Engineering LLC', 'Pearl Coast Hospitals', 'Atlas Software FZ', 'Sandstone Schools'] as const;

export const PROFESSIONS = ['Engineer', 'Nurse', 'Teacher', 'Accountant', 'Architect'] as const;
