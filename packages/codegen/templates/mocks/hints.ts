/**
 * Realistic strings for members whose name says what they hold (`Currency`, `Email`,
 * `CountryCode`...). A hint is only a first candidate: the sampler keeps it when it meets the
 * member's own keywords (pattern, lengths, format) and builds a value from those otherwise.
 */
import { type Random } from './random.js';

type Hint = (random: Random, now: number) => string;

const pick =
  (values: readonly string[]): Hint =>
  (random) =>
    random.pick(values);

const FIRST_NAMES = ['Amira', 'Omar', 'Layla', 'Yusuf', 'Sara', 'Hamdan', 'Noor', 'Khalid', 'Maya', 'Rashid'];
const LAST_NAMES = ['Al Mansoori', 'Haddad', 'Rahman', 'Nasser', 'Farouk', 'Karim', 'Saleh', 'Qasim'];
const COMPANIES = ['Falcon Trading LLC', 'Harbor Foods FZE', 'Cedar Logistics', 'Summit Retail Group', 'Pearl Technologies'];

function personName(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

function amount(random: Random): string {
  return `${random.int(1, 9999)}.${String(random.int(0, 99)).padStart(2, '0')}`;
}

/** Name patterns (tested against the member name) and what they suggest, first match wins. */
const HINTS: ReadonlyArray<readonly [RegExp, Hint]> = [
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

/** A realistic candidate for a member called `name`, or undefined when its name says nothing. */
export function hintFor(name: string, random: Random, now: number): string | undefined {
  for (const [test, hint] of HINTS) if (test.test(name)) return hint(random, now);
  return undefined;
}
