/**
 * Realistic strings for the `format`s of JSON Schema and OpenAPI. The formats the validators
 * check (runtime.ts: isDateTime, isUri, ...) are written to pass those checks; dates fall
 * near a reference time so that samples look current, and names, hosts and addresses come
 * from the reserved example domains and documentation ranges.
 */
import { type Random } from './random.js';

/** The formats the generated validators check. */
export type SampledFormat = 'date-time' | 'date' | 'time' | 'uri' | 'uuid' | 'email' | 'duration' | 'byte';

/** Whether `name` is one of the formats the validators check. */
export function isSampledFormat(name: string): name is SampledFormat {
  // Own keys only: `constructor` is no format.
  return Object.prototype.hasOwnProperty.call(SAMPLERS, name);
}

type FormatSampler = (random: Random, now: number) => string;

const SAMPLERS: { readonly [F in SampledFormat]: FormatSampler } = {
  'date-time': sampleDateTime,
  date: (random, now) => formatDate(new Date(instantNear(random, now))),
  time: (random) => `${clock(random.int(0, 23), random.int(0, 59), random.int(0, 59))}${fraction(random)}${zone(random).text}`,
  uri: sampleUri,
  uuid: sampleUuid,
  email: sampleEmail,
  duration: sampleDuration,
  byte: sampleByte,
};

/**
 * A realistic value of the format; `now` is a reference time (ms since epoch) so that dates
 * look near today.
 */
export function sampleFormat(format: SampledFormat, random: Random, now: number): string {
  return SAMPLERS[format](random, now);
}

/**
 * A realistic value for any format this module knows (the checked ones and common extras such
 * as `hostname` or `ipv6`), or undefined for a format it does not know.
 */
export function sampleAnyFormat(name: string, random: Random, now: number): string | undefined {
  if (isSampledFormat(name)) return sampleFormat(name, random, now);
  return EXTRA_SAMPLERS.get(name)?.(random, now);
}

// ---------------------------------------------------------------------------------------------
// Dates and times

const DAY_MS = 86_400_000;
/** Two years either side of the reference time. */
const SPAN_MS = 730 * DAY_MS;

/** A whole second within the span around `now`. */
function instantNear(random: Random, now: number): number {
  const offset = Math.floor((random.next() * 2 - 1) * SPAN_MS);
  return Math.floor((now + offset) / 1000) * 1000;
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

function formatDate(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

function clock(hour: number, minute: number, second: number): string {
  return `${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** Usually none; otherwise milli-, micro- or a tenth of a second, as APIs write them. */
function fraction(random: Random): string {
  if (!random.chance(0.3)) return '';
  const digits = random.pick([3, 3, 3, 6, 1]);
  let text = '.';
  for (let i = 0; i < digits; i++) text += String(random.int(0, 9));
  return text;
}

/** Offsets in minutes that real services use, half-hour ones included. */
const OFFSETS = [0, 60, 120, 180, 330, 480, 540, 600, -180, -300, -360, -420, -480];

/** `Z` most of the time, otherwise a numeric offset (`+00:00` included). */
function zone(random: Random): { minutes: number; text: string } {
  if (random.chance(0.6)) return { minutes: 0, text: 'Z' };
  const minutes = random.pick(OFFSETS);
  const sign = minutes < 0 ? '-' : '+';
  const size = Math.abs(minutes);
  return { minutes, text: `${sign}${pad(Math.floor(size / 60))}:${pad(size % 60)}` };
}

/** The local wall time at the offset, so the value names the same instant. */
function sampleDateTime(random: Random, now: number): string {
  const instant = instantNear(random, now);
  const { minutes, text } = zone(random);
  const local = new Date(instant + minutes * 60_000);
  return `${formatDate(local)}T${clock(local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds())}${fraction(random)}${text}`;
}

/** ISO 8601 durations with adjacent units only (RFC 3339 Appendix A skips none). */
const DURATIONS: ReadonlyArray<(random: Random) => string> = [
  (r) => `P${r.int(1, 3)}Y${r.int(1, 11)}M`,
  (r) => `P${r.int(1, 11)}M`,
  (r) => `P${r.int(1, 30)}D`,
  (r) => `P${r.int(1, 52)}W`,
  (r) => `PT${r.pick([5, 10, 15, 30, 45])}M`,
  (r) => `PT${r.int(1, 23)}H${r.int(1, 59)}M`,
  (r) => `PT${r.int(1, 59)}S`,
  (r) => `P${r.int(1, 6)}DT${r.int(1, 23)}H`,
  (r) => `P${r.int(1, 2)}Y${r.int(1, 11)}M${r.int(1, 28)}DT${r.int(0, 23)}H${r.int(0, 59)}M${r.int(0, 59)}S`,
];

function sampleDuration(random: Random): string {
  return random.pick(DURATIONS)(random);
}

// ---------------------------------------------------------------------------------------------
// Identifiers and addresses

const RESOURCES = ['accounts', 'payments', 'transactions', 'customers', 'statements', 'consents', 'beneficiaries', 'standing-orders', 'cards', 'products'];
const HOSTS = ['api.example.com', 'www.example.com', 'example.org', 'files.example.net', 'auth.example.com'];
const FIRST_NAMES = ['alice', 'bob', 'carol', 'david', 'emma', 'farah', 'george', 'hana', 'ivan', 'julia', 'omar', 'priya', 'sara', 'yusuf', 'li', 'noah'];
const LAST_NAMES = ['smith', 'johnson', 'garcia', 'khan', 'nguyen', 'müller', 'rossi', 'tanaka', 'haddad', 'silva', 'cohen', 'ali', 'walker', 'martin'];
const MAIL_DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com'];

const HEX = '0123456789abcdef';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomText(random: Random, alphabet: string, length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[random.int(0, alphabet.length - 1)];
  return text;
}

/** An id as it appears in a path: a number, a short code, or a uuid. */
function pathId(random: Random): string {
  const style = random.int(0, 2);
  if (style === 0) return String(random.int(1, 99_999));
  if (style === 1) return `${randomText(random, 'abcdefghijklmnopqrstuvwxyz', 3)}-${randomText(random, ALNUM, 6)}`;
  return sampleUuid(random);
}

function apiPath(random: Random): string {
  const resource = random.pick(RESOURCES);
  const path = `/v${random.int(1, 3)}/${resource}`;
  return random.chance(0.7) ? `${path}/${pathId(random)}` : path;
}

function sampleUri(random: Random): string {
  const host = random.pick(HOSTS);
  let uri = `https://${host}${apiPath(random)}`;
  if (random.chance(0.25)) uri += `?page=${random.int(1, 20)}&size=${random.pick([10, 20, 50, 100])}`;
  else if (random.chance(0.1)) uri += `#${random.pick(['details', 'summary', 'top'])}`;
  return uri;
}

/** RFC 4122 version 4: random bits with the version and variant fixed, lower case. */
function sampleUuid(random: Random): string {
  const digits = Array.from({ length: 32 }, () => HEX[random.int(0, 15)]!);
  digits[12] = '4';
  digits[16] = HEX[8 + random.int(0, 3)]!;
  const text = digits.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}

/** ASCII letters only: the checked `email` format takes no other (idn-email does). */
const asciiName = (name: string): string => name.normalize('NFD').replace(/[^a-z]/g, '');

function localPart(random: Random): string {
  const first = asciiName(random.pick(FIRST_NAMES));
  const last = asciiName(random.pick(LAST_NAMES));
  switch (random.int(0, 3)) {
    case 0:
      return `${first}.${last}`;
    case 1:
      return `${first}${random.int(1, 99)}`;
    case 2:
      return `${first[0]}${last}`;
    default:
      return `${first}_${last}`;
  }
}

function sampleEmail(random: Random): string {
  return `${localPart(random)}@${random.pick(MAIL_DOMAINS)}`;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 with padding, written here because `btoa` takes text, not bytes. */
function base64(bytes: readonly number[]): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const left = bytes.length - i;
    text += BASE64[(chunk >> 18) & 63]! + BASE64[(chunk >> 12) & 63]!;
    text += left > 1 ? BASE64[(chunk >> 6) & 63]! : '=';
    text += left > 2 ? BASE64[chunk & 63]! : '=';
  }
  return text;
}

function sampleByte(random: Random): string {
  return base64(Array.from({ length: random.int(1, 24) }, () => random.int(0, 255)));
}

// ---------------------------------------------------------------------------------------------
// Formats the validators do not check, sampled when cheap

const UNICODE_WORDS = ['café', 'straße', 'über-uns', 'résumé', 'naïve', 'smörgåsbord', 'jalapeño', 'δοκιμή', 'пример', '例え'];
const IDN_LABELS = ['bücher', 'münchen', 'café', 'straße', 'españa', 'zürich'];
const UNICODE_NAMES = ['zoë', 'josé', 'søren', 'françois', 'anaïs', 'jürgen', 'chloé', 'renée'];
const HOST_LABELS = ['api', 'www', 'auth', 'files', 'eu-west-1', 'node3', 'gateway', 'status'];
const FIELDS = ['name', 'balance', 'currency', 'status', 'amount', 'createdAt', 'iban'];
const TEMPLATES = [
  'https://api.example.com/v1/accounts/{accountId}',
  'https://api.example.com/v1/accounts/{accountId}/transactions{?page,size}',
  '/v2/customers/{customerId}/cards/{cardId}',
  'https://example.com/search{?q,lang}',
  '{+base}/statements/{statementId}',
];
const PATTERNS = ['^[A-Z]{3}$', '^\\d{4}-\\d{2}-\\d{2}$', '^[a-z0-9-]+$', '^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$', '^\\+?[1-9]\\d{6,14}$'];
/** Documentation prefixes (RFC 5737, RFC 3849): realistic, and reach no one. */
const IPV4_NETS = ['192.0.2', '198.51.100', '203.0.113'];
const PASSWORD_WORDS = ['Correct', 'Horse', 'Battery', 'Staple', 'Maple', 'River', 'Quartz', 'Falcon'];

function sampleHostname(random: Random): string {
  return `${random.pick(HOST_LABELS)}.${random.pick(['example.com', 'example.org', 'example.net'])}`;
}

function sampleIpv6(random: Random): string {
  const group = (): string => random.int(1, 0xffff).toString(16);
  if (random.chance(0.5)) return `2001:db8::${group()}`;
  return `2001:db8:${group()}:${group()}:${group()}:${group()}:${group()}:${group()}`;
}

function sampleUriReference(random: Random): string {
  switch (random.int(0, 3)) {
    case 0:
      return sampleUri(random);
    case 1:
      return apiPath(random);
    case 2:
      return `../${random.pick(RESOURCES)}/${pathId(random)}`;
    default:
      return `${apiPath(random)}?page=${random.int(1, 9)}`;
  }
}

function sampleJsonPointer(random: Random): string {
  return `/${random.pick(RESOURCES)}/${random.int(0, 9)}/${random.pick(FIELDS)}`;
}

function samplePassword(random: Random): string {
  return `${random.pick(PASSWORD_WORDS)}-${random.pick(PASSWORD_WORDS)}-${random.int(10, 99)}`;
}

const EXTRA_SAMPLERS = new Map<string, FormatSampler>([
  ['uri-reference', sampleUriReference],
  ['url', sampleUri],
  ['iri', (random) => `https://${random.pick(HOSTS)}/${random.pick(UNICODE_WORDS)}`],
  ['iri-reference', (random) => `/${random.pick(UNICODE_WORDS)}/${random.int(1, 999)}`],
  ['hostname', sampleHostname],
  ['idn-hostname', (random) => `${random.pick(IDN_LABELS)}.example.com`],
  ['ipv4', (random) => `${random.pick(IPV4_NETS)}.${random.int(1, 254)}`],
  ['ipv6', sampleIpv6],
  ['idn-email', (random) => `${random.pick(UNICODE_NAMES)}.${random.pick(LAST_NAMES)}@${random.pick([...MAIL_DOMAINS, ...IDN_LABELS.map((label) => `${label}.example`)])}`],
  ['uri-template', (random) => random.pick(TEMPLATES)],
  ['json-pointer', sampleJsonPointer],
  ['relative-json-pointer', (random) => (random.chance(0.2) ? `${random.int(0, 3)}#` : `${random.int(0, 3)}/${random.pick(FIELDS)}`)],
  ['regex', (random) => random.pick(PATTERNS)],
  ['password', samplePassword],
]);
