/**
 * Realistic strings for members whose name says what they hold (`name`, `title`, `email`,
 * `city`, `price`...). A hint is only a candidate: the sampler keeps it when it meets the
 * member's own keywords (pattern, lengths, format) and builds a value from those otherwise.
 *
 * Two vocabularies. `neutral` fits any domain (an event, a painting, a parcel): things are
 * named by short titles, people only where the member says it is a person. `open-finance` is
 * this API family's (account holders, merchants, card narratives), and is chosen by the
 * generator only for the family's own files (see the mocks emitter): another publisher's API
 * never gets banking names.
 */
import { type Random } from './random.js';

/** Which words the hints speak: any domain's, or this API family's. */
export type HintVocabulary = 'neutral' | 'open-finance';

type Hint = (random: Random, now: number) => string;

const pick =
  (values: readonly string[]): Hint =>
  (random) =>
    random.pick(values);

function amount(random: Random): string {
  return `${random.int(1, 9999)}.${String(random.int(0, 99)).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// This API family's words

const FIRST_NAMES = ['Amira', 'Omar', 'Layla', 'Yusuf', 'Sara', 'Hamdan', 'Noor', 'Khalid', 'Maya', 'Rashid'];
const LAST_NAMES = ['Al Mansoori', 'Haddad', 'Rahman', 'Nasser', 'Farouk', 'Karim', 'Saleh', 'Qasim'];
const COMPANIES = ['Falcon Trading LLC', 'Harbor Foods FZE', 'Cedar Logistics', 'Summit Retail Group', 'Pearl Technologies'];

function personName(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

/** Name patterns (tested against the member name) and what they suggest, first match wins. */
const OPEN_FINANCE_HINTS: ReadonlyArray<readonly [RegExp, Hint]> = [
  [/currency/i, pick(['AED', 'USD', 'EUR', 'GBP', 'SAR'])],
  [/e-?mail/i, (random) => `${random.pick(FIRST_NAMES).toLowerCase()}.${random.int(1, 99)}@example.com`],
  [/country/i, pick(['AE', 'GB', 'US', 'SA', 'DE'])],
  [/(^|_)(lang|language|locale)$/i, pick(['en', 'ar', 'en-GB', 'ar-AE'])],
  [/amount|price|balance|total/i, (random) => amount(random)],
  [/iban/i, pick(['AE070331234567890123456', 'GB33BUKB20201555555555'])],
  [/(phone|mobile|msisdn)/i, (random) => `+9715${random.int(0, 9)}${String(random.int(0, 9_999_999)).padStart(7, '0')}`],
  [/(^|_)(url|uri|href|link|website)$/i, (random) => `https://www.example.com/${random.pick(['accounts', 'offers', 'help', 'docs'])}`],
  [/(city|town)/i, pick(['Dubai', 'Abu Dhabi', 'Sharjah', 'London', 'Riyadh'])],
  [/(street|address ?line)/i, (random) => `${random.int(1, 250)} ${random.pick(['Sheikh Zayed Road', 'Al Wasl Road', 'Corniche Street', 'King Street'])}`],
  [/(post(al)?code|zip)/i, (random) => String(random.int(10000, 99999))],
  [/(company|organi[sz]ation|merchant|creditor)name/i, pick(COMPANIES)],
  [/(first|given)name/i, pick(FIRST_NAMES)],
  [/(last|family|sur)name/i, pick(LAST_NAMES)],
  [/(^|_)(name|fullname|holdername|nickname)$/i, (random) => personName(random)],
  [/(description|narrative|information|remarks?|note)/i, pick(['Monthly subscription', 'Grocery shopping', 'Salary payment', 'Transfer to savings'])],
];

// ---------------------------------------------------------------------------------------------
// Words of any domain

const GIVEN_NAMES = ['Ada', 'Lin', 'Mateo', 'Amara', 'Kenji', 'Sofia', 'Ravi', 'Elena', 'Tomas', 'Zanele'];
const FAMILY_NAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Silva', 'Novak', 'Mensah', 'Kowalski', 'Duarte', 'Brennan'];
const ORGANISATIONS = ['Northwind Studio', 'Bluebird Works', 'Harbor Collective', 'Lantern Press', 'Meridian Group'];
const ADJECTIVES = ['Amber', 'Quiet', 'Northern', 'Silver', 'Golden', 'Hidden', 'Open', 'Early', 'Bright', 'Winter'];
const NOUNS = ['Harbor', 'Garden', 'Lights', 'River', 'Atlas', 'Voices', 'Horizon', 'Archive', 'Meadow', 'Studio'];
// No punctuation: a hint may end up in a path or query parameter, where `.` or `,` can be a delimiter.
const SENTENCES = ['A short description for this entry', 'More details to follow', 'Provided for reference', 'See the linked page for details', 'Updated regularly'];
const SLUGS = ['about', 'details', 'help', 'docs', 'overview'];

const DAY_MS = 86_400_000;

/** A title that fits a thing of any kind: an event, a work, a place, a product. */
function title(random: Random): string {
  return random.chance(0.5) ? `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}` : `The ${random.pick(ADJECTIVES)} ${random.pick(NOUNS)}`;
}

function fullName(random: Random): string {
  return `${random.pick(GIVEN_NAMES)} ${random.pick(FAMILY_NAMES)}`;
}

/** A calendar date within a year either side of `now`. */
function dateNear(random: Random, now: number): string {
  return new Date(Math.floor(now / DAY_MS) * DAY_MS + random.int(-365, 365) * DAY_MS).toISOString().slice(0, 10);
}

const PERSON = /(first|given|last|family|sur|full|person|user|customer|contact|owner|author|artist|speaker|guest|holder|nick)_?name$|^(author|artist|speaker|owner|organi[sz]er|curator|contact|creator)$/i;

/** Name patterns (tested against the member name) and what they suggest, first match wins. */
const NEUTRAL_HINTS: ReadonlyArray<readonly [RegExp, Hint]> = [
  [/currency/i, pick(['EUR', 'USD', 'GBP', 'JPY', 'CAD'])],
  [/e-?mail/i, (random) => `${random.pick(GIVEN_NAMES).toLowerCase()}.${random.pick(FAMILY_NAMES).toLowerCase()}@example.com`],
  [/country/i, pick(['GB', 'US', 'DE', 'FR', 'JP'])],
  [/(^|_)(lang|language|locale)$/i, pick(['en', 'fr', 'de', 'es', 'en-GB'])],
  [/(amount|price|cost|fee|total)$/i, (random) => amount(random)],
  [/(phone|mobile|msisdn)/i, (random) => `+1555${String(random.int(0, 9_999_999)).padStart(7, '0')}`],
  [/(^|_)(url|uri|href|link|website|homepage)$/i, (random) => `https://www.example.com/${random.pick(SLUGS)}`],
  [/(city|town)/i, pick(['London', 'Lisbon', 'Toronto', 'Osaka', 'Nairobi', 'Berlin'])],
  [/(street|address ?line)/i, (random) => `${random.int(1, 250)} ${random.pick(['High Street', 'Station Road', 'Park Avenue', 'Market Square', 'Mill Lane'])}`],
  [/(post(al)?code|zip)/i, (random) => String(random.int(10000, 99999))],
  [/(first|given)_?name$/i, pick(GIVEN_NAMES)],
  [/(last|family|sur)_?name$/i, pick(FAMILY_NAMES)],
  [PERSON, (random) => fullName(random)],
  [/(company|organi[sz]ation|publisher|vendor|venue|brand)_?name$|^(company|organi[sz]ation|publisher|vendor|brand)$/i, pick(ORGANISATIONS)],
  [/(^|_)(name|title|label|headline|caption)$|(name|title)$/i, (random) => title(random)],
  [/(description|summary|details|narrative|remarks?|notes?|comment|about|bio)$/i, pick(SENTENCES)],
  [/(^|_)date$|[a-z]Date$|_on$/, (random, now) => dateNear(random, now)],
];

/**
 * A realistic candidate for a member called `name`, in `vocabulary`, or undefined when its
 * name says nothing.
 *
 * @example
 * hintFor('title', random, now) // 'Quiet Harbor'
 */
export function hintFor(name: string, random: Random, now: number, vocabulary: HintVocabulary = 'neutral'): string | undefined {
  const hints = vocabulary === 'open-finance' ? OPEN_FINANCE_HINTS : NEUTRAL_HINTS;
  for (const [test, hint] of hints) if (test.test(name)) return hint(random, now);
  return undefined;
}

/**
 * Whether a member name reads as plural (`dates`, `tags`, `children`): an array so named is
 * given items even where `minItems` allows none.
 */
export function isPluralName(name: string | undefined): boolean {
  if (name === undefined) return false;
  const last = lastWordOf(name).toLowerCase();
  if (['children', 'people', 'data', 'media', 'items', 'criteria'].includes(last)) return true;
  // `status`, `address`, `analysis`, `bus` end in s without being plural.
  return last.length > 2 && last.endsWith('s') && !/(ss|us|is)$/.test(last);
}

const isLower = (char: string) => char >= 'a' && char <= 'z';
const isUpper = (char: string) => char >= 'A' && char <= 'Z';

/**
 * The last camelCase word of a name (`eventDates` -> `Dates`), or the whole name when it does
 * not end in lowercase letters. A scan from the end rather than a regular expression: names
 * come from the spec, and a backtracking match over a long name would take quadratic time.
 */
function lastWordOf(name: string): string {
  let start = name.length;
  while (start > 0 && isLower(name[start - 1]!)) start -= 1;
  if (start === name.length) return name;
  if (start > 0 && isUpper(name[start - 1]!)) start -= 1;
  return name.slice(start);
}
