/**
 * Instants for ordering checks. Section 2.4: recipients apply the offset, so `+04:00` and
 * `Z` encodings of one instant are equal, and fractional seconds of any precision count
 * (two records a microsecond apart are not a tie). Strings are therefore never compared as
 * text: each value becomes whole seconds since the epoch plus its fraction digits.
 */

export interface Instant {
  /** Whole seconds since 1970-01-01T00:00:00Z. */
  readonly seconds: number;
  /** Fraction-of-second digits without trailing zeros (`'5'` for .500). */
  readonly fraction: string;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2}))?$/;

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
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (m[4] === undefined) return { seconds: Date.UTC(year, month - 1, day) / 1000, fraction: '' };
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offsetSeconds = 0;
  const zone = m[8]!;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const oh = Number(zone.slice(1, 3));
    const om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetSeconds = sign * (oh * 3600 + om * 60);
  }
  const local = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  const fraction = m[7];
  return { seconds: local - offsetSeconds, fraction: fraction === undefined ? '' : fraction.replace(/0+$/, '') };
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
