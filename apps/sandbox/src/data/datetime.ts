/**
 * Date and time helpers. Records carry RFC 3339 strings whose offsets differ; every
 * comparison goes through `instantOf`, never through string order, because
 * `2025-01-01T03:00:00+04:00` is earlier than `2024-12-31T23:30:00Z`.
 */
import { withoutTrailing } from '@bank-data-sharing/wire';

export const MS_PER_MINUTE = 60_000;
export const MS_PER_DAY = 86_400_000;

/** The offsets the generator writes; `-00:00` is never used (section 2.4). */
export type OffsetEncoding = 'Z' | '+00:00' | '+04:00' | '-05:00';

/** Offset in minutes east of UTC of each encoding. */
export const OFFSET_MINUTES: Readonly<Record<OffsetEncoding, number>> = {
  Z: 0,
  '+00:00': 0,
  '+04:00': 240,
  '-05:00': -300,
};

/** How many fraction digits to write: none, or 1, 3 or 6 (sub-millisecond digits are zeros). */
export type FractionDigits = 0 | 1 | 3 | 6;

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');

/**
 * Writes an instant (epoch milliseconds) in the given offset encoding. With one fraction
 * digit the caller must pass an instant whose milliseconds are a multiple of 100, so that
 * the text still denotes exactly that instant.
 */
export function formatInstant(epochMs: number, encoding: OffsetEncoding = 'Z', fraction: FractionDigits = 0): string {
  const offset = OFFSET_MINUTES[encoding];
  const local = new Date(epochMs + offset * MS_PER_MINUTE);
  const ms = local.getUTCMilliseconds();
  if (fraction === 1 && ms % 100 !== 0) throw new Error(`cannot write ${ms} ms with one fraction digit`);
  if (fraction === 0 && ms !== 0) throw new Error(`cannot drop ${ms} ms without changing the instant`);
  const frac =
    fraction === 0 ? '' : fraction === 1 ? `.${ms / 100}` : fraction === 3 ? `.${pad(ms, 3)}` : `.${pad(ms, 3)}000`;
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}${frac}${encoding}`
  );
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * An exact, comparable instant: whole seconds since the epoch plus the fraction digits
 * (trailing zeros removed). Kept apart so that any precision compares exactly.
 */
export interface Instant {
  readonly seconds: number;
  readonly fraction: string;
}

/** Parses an RFC 3339 date-time with an offset; returns undefined when it is not one. */
export function instantOf(text: string): Instant | undefined {
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const probe = new Date(Date.UTC(year, month - 1, day));
  // Reject impossible calendar days such as 2025-02-30 instead of letting Date roll them over.
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 60 || Number(oh ?? 0) > 23 || Number(om ?? 0) > 59) return undefined;
  const offsetSeconds = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60);
  const localSeconds = Date.UTC(year, month - 1, day, Number(h), Number(mi), Number(s)) / 1000;
  return { seconds: localSeconds - offsetSeconds, fraction: withoutTrailing(frac ?? '', '0') };
}

/** Like `instantOf`, but throws on a malformed value (for data the sandbox produced itself). */
export function requireInstant(text: string): Instant {
  const instant = instantOf(text);
  if (instant === undefined) throw new Error(`not an RFC 3339 date-time: ${text}`);
  return instant;
}

/** Negative, zero or positive as `a` is earlier than, the same instant as, or later than `b`. */
export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  const width = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(width, '0');
  const fb = b.fraction.padEnd(width, '0');
  return fa === fb ? 0 : fa < fb ? -1 : 1;
}

/** Epoch milliseconds of an instant (sub-millisecond digits are dropped). */
export function epochMsOf(instant: Instant): number {
  return instant.seconds * 1000 + Number(instant.fraction.slice(0, 3).padEnd(3, '0'));
}

/** The RFC 3339 full-date (UTC) of an instant given in epoch milliseconds. */
export function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 10);
}

/** True when `text` is an RFC 3339 full-date naming a real calendar day. */
export function isFullDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const epochMs = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(epochMs) && isoDate(epochMs) === text;
}

/** Midnight UTC of the first day of the month `monthsToAdd` months after the month of `epochMs`. */
export function startOfMonthUtc(epochMs: number, monthsToAdd = 0): number {
  const d = new Date(epochMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + monthsToAdd, 1);
}

/** Midnight UTC of the day of `epochMs`. */
export function startOfDayUtc(epochMs: number): number {
  return Math.floor(epochMs / MS_PER_DAY) * MS_PER_DAY;
}
