// Helpers the generated validators share. Imports nothing but zod, so the generated folder
// can be dropped into any service.
import { z } from 'zod';

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const max = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month]!;
  return day <= max;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

function isClockTime(hour: number, minute: number, second: number, sign: string | undefined, offsetHour: number, offsetMinute: number): boolean {
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  // A leap second exists only at 23:59:60 UTC: move the local time to UTC before checking.
  const direction = sign === '-' ? -1 : 1;
  const utcMinute = minute - offsetMinute * direction;
  const utcHour = hour - offsetHour * direction - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1);
}

/** RFC 3339 `full-date`. */
export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** RFC 3339 `full-time` (an offset is required). */
export function isTime(value: string): boolean {
  const m = TIME.exec(value);
  return m !== null && isClockTime(Number(m[1]), Number(m[2]), Number(m[3]), m[4], Number(m[5] ?? 0), Number(m[6] ?? 0));
}

/** RFC 3339 `date-time` (an offset is required). Any `pattern` on the field applies on top. */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  return (
    m !== null &&
    isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3])) &&
    isClockTime(Number(m[4]), Number(m[5]), Number(m[6]), m[7], Number(m[8] ?? 0), Number(m[9] ?? 0))
  );
}

// RFC 3986 §3 absolute URI: scheme ":" hier-part [ "?" query ] [ "#" fragment ]. Square
// brackets are allowed only around an IP-literal host (§3.2.2).
const URI_CHAR = "[A-Za-z0-9\\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2}";
const URI_AUTHORITY = "//(?:(?:[A-Za-z0-9\\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*@)?(?:\\[[0-9A-Za-z:.]+\\]|(?:[A-Za-z0-9\\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(?::\\d*)?";
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:(?:${URI_AUTHORITY})?(?:${URI_CHAR})*(?:\\?(?:${URI_CHAR}|\\?)*)?(?:#(?:${URI_CHAR}|\\?)*)?$`);
const UUID = /^(?:urn:uuid:)?[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const DURATION = /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/;
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export const isUri = (value: string): boolean => URI.test(value);
export const isUuid = (value: string): boolean => UUID.test(value);
export const isEmail = (value: string): boolean => EMAIL.test(value);
export const isDuration = (value: string): boolean => DURATION.test(value);
export const isByte = (value: string): boolean => BYTE.test(value);

/** Messages name the rule, so that an error envelope can say what was wrong. */
export const formatError = {
  'date-time': { error: 'must be an RFC 3339 date-time with an offset' },
  date: { error: 'must be an RFC 3339 date (YYYY-MM-DD)' },
  time: { error: 'must be an RFC 3339 time with an offset' },
  uri: { error: 'must be an absolute URI' },
  uuid: { error: 'must be a UUID' },
  email: { error: 'must be an email address' },
  duration: { error: 'must be an ISO 8601 duration' },
  byte: { error: 'must be base64' },
} as const;

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** `uniqueItems: true`: no two items are equal as JSON values. */
export function uniqueItems(items: readonly unknown[]): boolean {
  const seen = new Set<string>();
  for (const item of items) {
    const key = canonical(item);
    if (seen.has(key)) return false;
    seen.add(key);
  }
  return true;
}

export const minProperties =
  (n: number) =>
  (value: object): boolean =>
    Object.keys(value).length >= n;
export const maxProperties =
  (n: number) =>
  (value: object): boolean =>
    Object.keys(value).length <= n;
/** `required` names that `properties` does not declare: they must still be present. */
export const hasKeys =
  (keys: readonly string[]) =>
  (value: object): boolean =>
    keys.every((k) => Object.prototype.hasOwnProperty.call(value, k));

type Variants = readonly [z.ZodType, ...z.ZodType[]];

/**
 * `oneOf` whose variants may overlap: exactly one must match. (Unions the generator proved
 * disjoint are plain `z.union`, which is cheaper.)
 */
export function oneOf<const T extends Variants>(variants: T): z.ZodType<z.output<T[number]>, z.input<T[number]>> {
  const union = z.union(variants);
  return z.unknown().transform((input, ctx) => {
    let matches = 0;
    let output: unknown;
    for (const variant of variants) {
      const result = variant.safeParse(input);
      if (result.success) {
        if (matches === 0) output = result.data;
        matches++;
      }
    }
    if (matches === 1) return output;
    if (matches === 0) {
      for (const issue of union.safeParse(input).error?.issues ?? []) ctx.issues.push({ ...issue, input } as never);
    } else {
      ctx.issues.push({ code: 'custom', message: `must match exactly one schema of oneOf, but matches ${matches}`, input });
    }
    return z.NEVER;
  }) as unknown as z.ZodType<z.output<T[number]>, z.input<T[number]>>;
}

/**
 * `oneOf` with a `discriminator`: the member named by `property` selects the variant, which
 * alone is checked (as OpenAPI describes, and as ajv's discriminator mode does).
 */
/** Each variant's output, with the discriminator member narrowed to the tag that selects it. */
export type Discriminated<P extends string, M extends Record<string, z.ZodType>> = {
  [K in keyof M & string]: z.output<M[K]> & { [Q in P]: K };
}[keyof M & string];

export function discriminated<const P extends string, const M extends Record<string, z.ZodType>>(
  property: P,
  mapping: M,
): z.ZodType<Discriminated<P, M>, z.input<M[keyof M]>> {
  const known = Object.keys(mapping);
  return z.unknown().transform((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      ctx.issues.push({ code: 'invalid_type', expected: 'object', input, message: 'expected object' } as never);
      return z.NEVER;
    }
    const tag = (input as Record<string, unknown>)[property];
    const variant = typeof tag === 'string' && Object.prototype.hasOwnProperty.call(mapping, tag) ? mapping[tag] : undefined;
    if (!variant) {
      ctx.issues.push({
        code: 'custom',
        path: [property],
        message: `must be one of ${known.map((k) => JSON.stringify(k)).join(', ')}`,
        input: tag,
      });
      return z.NEVER;
    }
    const result = variant.safeParse(input);
    if (result.success) return result.data;
    for (const issue of result.error.issues) ctx.issues.push({ ...issue, input } as never);
    return z.NEVER;
  }) as unknown as z.ZodType<Discriminated<P, M>, z.input<M[keyof M]>>;
}

/** JSON Schema `integer`: any number without a fractional part (no safe-integer limit). */
export const integerError = { error: 'expected an integer' } as const;

const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function decodeScalar(text: string, kind: 'number' | 'boolean'): unknown {
  if (kind === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return NUMBER_TEXT.test(text) ? Number(text) : text;
}

/**
 * Path, query and header values arrive as text. `fromText` decodes a number or boolean
 * before the schema checks it; text that does not decode is passed on unchanged, so the
 * schema reports it with its own rule ("expected number, received string").
 */
export function fromText<T extends z.ZodType>(kind: 'number' | 'boolean', schema: T) {
  return z.preprocess((value) => (typeof value === 'string' ? decodeScalar(value, kind) : value), schema);
}

/**
 * An array parameter: repeated (`explode`, `a=1&a=2`) or comma-separated (`a=1,2`).
 * Items are decoded as `fromText` does.
 */
export function textList<T extends z.ZodType>(schema: T, options: { explode: boolean; items: 'string' | 'number' | 'boolean' }) {
  return z.preprocess((value) => {
    const parts = Array.isArray(value) ? value : typeof value === 'string' ? (options.explode ? [value] : value.split(',')) : value;
    if (!Array.isArray(parts) || options.items === 'string') return parts;
    return parts.map((p) => (typeof p === 'string' ? decodeScalar(p, options.items as 'number' | 'boolean') : p));
  }, schema);
}
