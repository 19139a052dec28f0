/**
 * Instants for ordering checks. Section 2.4: recipients apply the offset, so `+04:00` and
 * `Z` encodings of one instant are equal, and fractional seconds of any precision count
 * (two records a microsecond apart are not a tie). Strings are therefore never compared as
 * text: each value becomes whole seconds since the epoch plus its fraction digits.
 */
import { withoutTrailing } from '@bank-data-sharing/wire';

export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z. */
  readonly seconds: number;
  /** Fraction-of-second digits without trailing zeros (`'5'` for .500). */
  readonly fraction: string;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  // What `new Date(Date.UTC(year, month, 0)).getUTCDate()` gives, without building a Date:
  // the proleptic Gregorian calendar, with Date.UTC's reading of years 0–99 as 1900–1999.
  const y = year >= 0 && year <= 99 ? year + 1900 : year;
  if (month === 2 && y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0)) return 29;
  return MONTH_DAYS[month - 1]!;
}

/**
 * Parses an RFC 3339 date-time (offset required) or a full date (midnight UTC). Undefined
 * when the text is neither, or names an impossible date or time.
 *
 * @example
 * parseInstant('2025-03-14T13:30:00+04:00') // → { seconds: 1741944600, fraction: '' }
 * parseInstant('2025-03-14T09:30:00.250Z')  // → { seconds: 1741944600, fraction: '25' }
 */
export function parseInstant(text: string): Instant | undefined {
  // A character scan of `YYYY-MM-DD` with, optionally, `THH:MM:SS[.fraction](Z|±HH:MM)`
  // (T and Z in either case, ASCII digits only): the same texts the pattern
  // /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2}))?$/
  // accepts, without building its capture array (the ordering check parses every record).
  const length = text.length;
  if (length < 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH) return undefined;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  if (year < 0 || month < 0 || day < 0) return undefined;
  if (length === 10) {
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
    return { seconds: Date.UTC(year, month - 1, day) / 1000, fraction: '' };
  }
  const t = text.charCodeAt(10);
  if (length < 20 || (t !== 84 /* T */ && t !== 116 /* t */) || text.charCodeAt(13) !== COLON || text.charCodeAt(16) !== COLON) return undefined;
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (hour < 0 || minute < 0 || second < 0) return undefined;
  let at = 19;
  let fraction = '';
  if (text.charCodeAt(at) === 46 /* . */) {
    const from = ++at;
    while (at < length && isDigit(text.charCodeAt(at))) at++;
    if (at === from) return undefined;
    fraction = text.slice(from, at);
  }
  const zone = text.charCodeAt(at);
  let offsetSeconds = 0;
  if (zone === 90 /* Z */ || zone === 122 /* z */) {
    if (at + 1 !== length) return undefined;
  } else if (zone === 43 /* + */ || zone === 45 /* - */) {
    if (at + 6 !== length || text.charCodeAt(at + 3) !== COLON) return undefined;
    const oh = digits(text, at + 1, 2);
    const om = digits(text, at + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return undefined;
    offsetSeconds = (zone === 45 ? -1 : 1) * (oh * 3600 + om * 60);
  } else return undefined;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const local = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  return { seconds: local - offsetSeconds, fraction: withoutTrailing(fraction, '0') };
}

const DASH = 45;
const COLON = 58;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** The number written by `count` ASCII digits at `from`, or -1 when one is not a digit. */
function digits(text: string, from: number, count: number): number {
  let value = 0;
  for (let i = from; i < from + count; i++) {
    const code = text.charCodeAt(i);
    if (!isDigit(code)) return -1;
    value = value * 10 + (code - 48);
  }
  return value;
}

/**
 * Negative when `a` is earlier than `b`, zero for the same instant, positive when later.
 *
 * @example
 * compareInstants(parseInstant('2025-01-01T04:00:00+04:00')!, parseInstant('2025-01-01T00:00:00Z')!) // → 0
 */
export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}
