// Helpers the generated validators share. Imports nothing but zod, so the generated folder
// can be dropped into any service.
import { z } from 'zod';
import { compile, globalConfig } from 'zod/v4/core';

function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const max = month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month]!;
  return day <= max;
}

function isClockTime(hour: number, minute: number, second: number, sign: string | undefined, offsetHour: number, offsetMinute: number): boolean {
  if (hour > 23 || minute > 59 || second > 60 || offsetHour > 23 || offsetMinute > 59) return false;
  if (second < 60) return true;
  // A leap second exists only at 23:59:60 UTC: move the local time to UTC before checking.
  const direction = sign === '-' ? -1 : 1;
  const utcMinute = minute - offsetMinute * direction;
  const utcHour = hour - offsetHour * direction - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1);
}

// Date and time checks scan characters instead of running a capturing regex: they run for
// every date-time of every record (300 in a page of 100 transactions), where they dominated
// the cost of validation.

/** The number in two ASCII digits at `at`, or -1. */
function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** `YYYY-MM-DD` at the start of `text` is a real calendar date. */
function scanDate(text: string): boolean {
  const century = twoDigits(text, 0);
  const year = twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if ((century | year | month | day) < 0 || text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45) return false;
  return isCalendarDate(century * 100 + year, month, day);
}

/** RFC 3339 `full-time` from `start` to the end of `text`: `hh:mm:ss[.frac](Z|±hh:mm)`. */
function scanTime(text: string, start: number): boolean {
  const hour = twoDigits(text, start);
  const minute = twoDigits(text, start + 3);
  const second = twoDigits(text, start + 6);
  if ((hour | minute | second) < 0 || text.charCodeAt(start + 2) !== 58 || text.charCodeAt(start + 5) !== 58) return false;
  const end = text.length;
  let i = start + 8;
  if (text.charCodeAt(i) === 46) {
    const digits = ++i;
    while (i < end && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    if (i === digits) return false;
  }
  const zone = text.charCodeAt(i);
  if (zone === 90 || zone === 122) return i + 1 === end && isClockTime(hour, minute, second, undefined, 0, 0);
  if ((zone !== 43 && zone !== 45) || i + 6 !== end || text.charCodeAt(i + 3) !== 58) return false;
  const offsetHour = twoDigits(text, i + 1);
  const offsetMinute = twoDigits(text, i + 4);
  if ((offsetHour | offsetMinute) < 0) return false;
  return isClockTime(hour, minute, second, zone === 45 ? '-' : '+', offsetHour, offsetMinute);
}

/** Length in code points, as JSON Schema's `minLength` and `maxLength` count it. */
export function codePointLength(value: string): number {
  let count = value.length;
  for (let i = 0; i < value.length - 1; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        i++;
      }
    }
  }
  return count;
}

/** RFC 3339 `full-date`. */
export function isDate(value: string): boolean {
  return value.length === 10 && scanDate(value);
}

/** RFC 3339 `full-time` (an offset is required). */
export function isTime(value: string): boolean {
  return value.length >= 9 && scanTime(value, 0);
}

/** RFC 3339 `date-time` (an offset is required). Any `pattern` on the field applies on top. */
// Written out flat, without helper calls: it runs for every date-time of every record, and
// this form is about twice as fast as composing scanDate and scanTime. A leap second (:60),
// which needs the offset applied, takes the composed path.
export function isDateTime(value: string): boolean {
  const end = value.length;
  if (end < 20) return false;
  const y0 = value.charCodeAt(0) - 48;
  const y1 = value.charCodeAt(1) - 48;
  const y2 = value.charCodeAt(2) - 48;
  const y3 = value.charCodeAt(3) - 48;
  const mo0 = value.charCodeAt(5) - 48;
  const mo1 = value.charCodeAt(6) - 48;
  const d0 = value.charCodeAt(8) - 48;
  const d1 = value.charCodeAt(9) - 48;
  const h0 = value.charCodeAt(11) - 48;
  const h1 = value.charCodeAt(12) - 48;
  const mi0 = value.charCodeAt(14) - 48;
  const mi1 = value.charCodeAt(15) - 48;
  const s0 = value.charCodeAt(17) - 48;
  const s1 = value.charCodeAt(18) - 48;
  // `>>> 0` turns a negative difference into a large number: one comparison per digit.
  if ((y0 >>> 0) > 9 || (y1 >>> 0) > 9 || (y2 >>> 0) > 9 || (y3 >>> 0) > 9 || (mo0 >>> 0) > 9 || (mo1 >>> 0) > 9 || (d0 >>> 0) > 9 || (d1 >>> 0) > 9) return false;
  if ((h0 >>> 0) > 9 || (h1 >>> 0) > 9 || (mi0 >>> 0) > 9 || (mi1 >>> 0) > 9 || (s0 >>> 0) > 9 || (s1 >>> 0) > 9) return false;
  const separator = value.charCodeAt(10);
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || (separator !== 84 && separator !== 116) || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return false;
  const month = mo0 * 10 + mo1;
  const day = d0 * 10 + d1;
  if (month < 1 || month > 12 || day < 1) return false;
  if (day > 28 && !isCalendarDate(y0 * 1000 + y1 * 100 + y2 * 10 + y3, month, day)) return false;
  const second = s0 * 10 + s1;
  if (h0 * 10 + h1 > 23 || mi0 * 10 + mi1 > 59 || second > 60) return false;
  let i = 19;
  if (value.charCodeAt(i) === 46) {
    const digits = ++i;
    while (i < end && ((value.charCodeAt(i) - 48) >>> 0) <= 9) i++;
    if (i === digits) return false;
  }
  const zone = value.charCodeAt(i);
  if (zone === 90 || zone === 122) {
    if (i + 1 !== end) return false;
  } else {
    if ((zone !== 43 && zone !== 45) || i + 6 !== end || value.charCodeAt(i + 3) !== 58) return false;
    const oh0 = value.charCodeAt(i + 1) - 48;
    const oh1 = value.charCodeAt(i + 2) - 48;
    const om0 = value.charCodeAt(i + 4) - 48;
    const om1 = value.charCodeAt(i + 5) - 48;
    if ((oh0 >>> 0) > 9 || (oh1 >>> 0) > 9 || (om0 >>> 0) > 9 || (om1 >>> 0) > 9 || oh0 * 10 + oh1 > 23 || om0 * 10 + om1 > 59) return false;
  }
  return second < 60 || scanTime(value, 11);
}

// RFC 3986 §3 absolute URI: scheme ":" hier-part [ "?" query ] [ "#" fragment ]. After an
// authority the path is empty or starts with "/"; the port is digits; square brackets hold an
// IP-literal host only (§3.2.2), checked as such.
const URI_CHAR = "[A-Za-z0-9\\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2}";
const URI_HOST = "\\[[^\\]]*\\]|(?:[A-Za-z0-9\\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*";
const URI_AUTHORITY = `//(?:(?:[A-Za-z0-9\\-._~!$&'()*+,;=:]|%[0-9A-Fa-f]{2})*@)?(${URI_HOST})(?::\\d*)?(?:/(?:${URI_CHAR})*)?`;
const URI = new RegExp(`^[A-Za-z][A-Za-z0-9+.-]*:(?:${URI_AUTHORITY}|(?!//)(?:${URI_CHAR})*)(?:\\?(?:${URI_CHAR}|\\?)*)?(?:#(?:${URI_CHAR}|\\?)*)?$`);
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6_GROUP = /^[0-9A-Fa-f]{1,4}$/;
const IP_FUTURE = /^v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+$/;
const UUID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i;
// RFC 5321 §4.1.2: a dot-atom or quoted-string local part; a domain, or an address literal.
const EMAIL = /^(?:[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*|"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*")@(?:((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)|\[([^\]]*)\])$/i;
// RFC 3339 Appendix A: units in order, none skipped between the largest and smallest given.
const DURATION = /^P(?:(?:\d+Y(?:\d+M(?:\d+D)?)?|\d+M(?:\d+D)?|\d+D)(?:T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S))?|T(?:\d+H(?:\d+M(?:\d+S)?)?|\d+M(?:\d+S)?|\d+S)|\d+W)$/;
const BYTE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 4291 §2.2: eight groups of hex digits, "::" once for a run of zeros, an IPv4 tail. */
function isIPv6(text: string): boolean {
  let groups = text;
  const lastColon = text.lastIndexOf(':');
  if (lastColon < 0) return false;
  if (text.slice(lastColon + 1).includes('.')) {
    if (!IPV4.test(text.slice(lastColon + 1))) return false;
    groups = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = groups.split('::');
  if (halves.length > 2) return false;
  const split = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const all = [...split(halves[0]!), ...(halves.length === 2 ? split(halves[1]!) : [])];
  if (!all.every((g) => IPV6_GROUP.test(g))) return false;
  return halves.length === 2 ? all.length <= 7 : all.length === 8;
}

export function isUri(value: string): boolean {
  const match = URI.exec(value);
  if (!match) return false;
  const host = match[1];
  if (host === undefined || !host.startsWith('[')) return true;
  const literal = host.slice(1, -1);
  return IP_FUTURE.test(literal) || isIPv6(literal);
}
export const isUuid = (value: string): boolean => UUID.test(value);
export function isEmail(value: string): boolean {
  const match = EMAIL.exec(value);
  if (!match) return false;
  if (match[1] !== undefined) return true;
  const literal = match[2]!;
  return IPV4.test(literal) || (/^IPv6:/i.test(literal) && isIPv6(literal.slice(5)));
}
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
 * The variant the tag of an object names (`mapping`: tag value to index). For a `discriminator`
 * that does not provably select, that variant is tried first and reported when nothing
 * matches, never changing the answer; where it provably selects, it is the only one checked.
 */
function hinted(input: unknown, property: string | undefined, mapping: Readonly<Record<string, number>> | undefined): number | undefined {
  if (property === undefined || mapping === undefined || input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const tag = (input as Record<string, unknown>)[property];
  return typeof tag === 'string' && Object.prototype.hasOwnProperty.call(mapping, tag) ? mapping[tag] : undefined;
}

/** The union of each variant list, made once, for its issues. */
const unions = new WeakMap<Variants, z.ZodType>();

/**
 * The issues of the variant `index` (the one the tag names, or the discriminator's
 * `defaultMapping` for a value without a mapped tag), or else of the whole union, as issues
 * of `input`.
 */
function reportNoMatch(variants: Variants, index: number | undefined, input: unknown, ctx: z.core.$RefinementCtx): void {
  let union = unions.get(variants);
  if (index === undefined && !union) unions.set(variants, (union = z.union(variants)));
  const result = index === undefined ? union!.safeParse(input) : variants[index]!.safeParse(input);
  reportIssues(result.error?.issues ?? [], input, ctx);
}

/** A variant's issues as issues of the union's `input`. */
function reportIssues(issues: readonly z.core.$ZodIssue[], input: unknown, ctx: z.core.$RefinementCtx): void {
  // `issue as object`: spreading zod's union of issue types costs the compiler a tenth of a second per spread.
  for (const issue of issues) ctx.issues.push({ ...(issue as object), input } as never);
}

/**
 * `oneOf` whose variants may overlap: exactly one must match. (Unions the generator proved
 * disjoint are plain `z.union`, which is cheaper.) With a discriminator (`property` and
 * `mapping`), a value that matches nothing is reported with the issues of the variant its tag
 * names: the discriminator is a hint and never changes the answer. `fallback` (OpenAPI 3.2
 * `defaultMapping`) is the variant whose issues a value without a mapped tag gets.
 */
export function oneOf<const T extends Variants>(
  variants: T,
  property?: string,
  mapping?: Readonly<Record<string, number>>,
  fallback?: number,
): z.ZodType<z.output<T[number]>, z.input<T[number]>> {
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
    if (matches === 0) reportNoMatch(variants, hinted(input, property, mapping) ?? fallback, input, ctx);
    else ctx.issues.push({ code: 'custom', message: `must match exactly one schema of oneOf, but matches ${matches}`, input });
    return z.NEVER;
  }) as unknown as z.ZodType<z.output<T[number]>, z.input<T[number]>>;
}

/**
 * `anyOf` (or a `oneOf` proven disjoint) with a discriminator that does not provably select:
 * at least one variant must match. The variant the tag names is tried first, and reported
 * when nothing matches (`fallback`, as for `oneOf`, when no mapped tag names one); the answer
 * is that of the plain union.
 */
export function anyOf<const T extends Variants>(
  variants: T,
  property: string,
  mapping: Readonly<Record<string, number>>,
  fallback?: number,
): z.ZodType<z.output<T[number]>, z.input<T[number]>> {
  return z.unknown().transform((input, ctx) => {
    const first = hinted(input, property, mapping);
    if (first !== undefined) {
      const result = variants[first]!.safeParse(input);
      if (result.success) return result.data;
    }
    for (const [index, variant] of variants.entries()) {
      if (index === first) continue;
      const result = variant.safeParse(input);
      if (result.success) return result.data;
    }
    reportNoMatch(variants, first ?? fallback, input, ctx);
    return z.NEVER;
  }) as unknown as z.ZodType<z.output<T[number]>, z.input<T[number]>>;
}

/**
 * `oneOf`/`anyOf` with a discriminator whose tag provably selects the only variant that can
 * match (the generator checked that every variant requires the member and pins it to values
 * no other variant admits): `selects` maps each pinned value to its variant, which alone is
 * checked. The answer is that of `oneOf`/`anyOf`; a value no variant pins matches none.
 */
export function discriminated<const T extends Variants>(
  property: string,
  variants: T,
  selects: Readonly<Record<string, number>>,
): z.ZodType<z.output<T[number]>, z.input<T[number]>> {
  const known = Object.keys(selects);
  return z.unknown().transform((input, ctx) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      ctx.issues.push({ code: 'invalid_type', expected: 'object', input, message: 'expected object' } as never);
      return z.NEVER;
    }
    const index = hinted(input, property, selects);
    if (index === undefined) {
      ctx.issues.push({
        code: 'custom',
        path: [property],
        message: `must be one of ${known.map((k) => JSON.stringify(k)).join(', ')}`,
        input: (input as Record<string, unknown>)[property],
      });
      return z.NEVER;
    }
    const result = variants[index]!.safeParse(input);
    if (result.success) return result.data;
    reportIssues(result.error.issues, input, ctx);
    return z.NEVER;
  }) as unknown as z.ZodType<z.output<T[number]>, z.input<T[number]>>;
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
// Declared return types and unconstrained type parameters on purpose: inferring zod's
// preprocess types, or checking that a schema type extends z.ZodType, took TypeScript seconds
// per generated file. The input type is the schema's own (a number, not text): it is what a
// client's caller writes (`ParamsOf`), while parsing still accepts the text a server receives.
export function fromText<T>(kind: 'number' | 'boolean', schema: T): z.ZodType<z.output<T>, z.input<T>> {
  const decode = (value: unknown): unknown => (typeof value === 'string' ? decodeScalar(value, kind) : value);
  return z.preprocess(decode, schema as unknown as z.ZodType) as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/**
 * A query parameter the spec defines once (not as an array). Sent several times it arrives as
 * an array of its values; the issue then says so, rather than "expected string, received array".
 */
// Typed by what the schema accepts, not `unknown`: callers (the client's parameter types) still
// see the parameter's own input type.
export function once<T>(schema: T): z.ZodType<z.output<T>, z.input<T>> {
  const single = (value: unknown, ctx: { issues: unknown[] }): unknown => {
    if (!Array.isArray(value)) return value;
    ctx.issues.push({ code: 'custom', message: `given ${value.length} times; the spec defines this parameter once`, input: value });
    return z.NEVER;
  };
  const piped = z.preprocess(single as never, schema as unknown as z.ZodType);
  // zod marks a preprocess pipe as optional on input (its first step accepts anything, even a
  // missing member); the parameter is exactly as optional as its own schema, for object types
  // and for anything that reads the member's optionality.
  const own = (schema as unknown as z.ZodType)._zod;
  Object.assign(piped._zod, { optin: own.optin, optout: own.optout });
  return piped as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/**
 * An array parameter: repeated (`explode`, `a=1&a=2`) or comma-separated (`a=1,2`).
 * Items are decoded as `fromText` does.
 */
export function textList<T>(
  schema: T,
  options: { explode: boolean; items: 'string' | 'number' | 'boolean' },
): z.ZodType<z.output<T>, z.input<T>> {
  const decode = (value: unknown): unknown => {
    const parts = Array.isArray(value) ? value : typeof value === 'string' ? (options.explode ? [value] : value.split(',')) : value;
    if (!Array.isArray(parts) || options.items === 'string') return parts;
    return parts.map((p) => (typeof p === 'string' ? decodeScalar(p, options.items as 'number' | 'boolean') : p));
  };
  return z.preprocess(decode, schema as unknown as z.ZodType) as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

/**
 * An object parameter (style `form`, `simple`, `deepObject`...): its members arrive as text,
 * and those `members` names are decoded as `fromText` does before the schema checks them.
 */
export function textObject<T>(schema: T, members: Record<string, 'number' | 'boolean'>): z.ZodType<z.output<T>, z.input<T>> {
  const decoded = Object.entries(members);
  const decode = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [name, kind] of decoded) {
      const member = out[name];
      if (typeof member === 'string') out[name] = decodeScalar(member, kind);
    }
    return out;
  };
  return z.preprocess(decode, schema as unknown as z.ZodType) as unknown as z.ZodType<z.output<T>, z.input<T>>;
}

type Run = z.ZodType['_zod']['run'];
type RunContext = Parameters<Run>[1] & { direction?: string; skipChecks?: boolean };

/** What zod's check-only functions return for a value they reject (a registered symbol). */
const INVALID = Symbol.for('zod.compile.invalid');

let compiling = false;

/**
 * A schema typed by what it gives and accepts (`ZodType<output, input>`) rather than by its zod
 * class. Generated operations meet `ZodType` constraints in the server stubs and the client;
 * relating each zod class (`ZodObject<...>`, `ZodOptional<...>`) to `ZodType` member by member
 * took TypeScript more than half a second on the official account-information file, where
 * relating `ZodType<O, I>` to `ZodType` is immediate.
 */
export type Declared<T> = T extends { readonly _zod: { readonly output: infer O; readonly input: infer I } } ? z.ZodType<O, I> : T;

/** `schema`, typed as `Declared<T>`. */
export function declared<T>(schema: T): Declared<T> {
  return schema as unknown as Declared<T>;
}

/**
 * Compiles a schema with zod's ahead-of-time compiler the first time it parses a value, and
 * keeps the compiled fast path from then on (about 2-4 times faster on our payloads).
 * Compiling every schema at import would cost half a second for a large spec; a program
 * pays only for the schemas it uses. The compiled path gives the same results: zod falls back
 * to its ordinary parser for anything it cannot compile, and to report issues.
 * `z.config({ jitless: true })` (no `new Function`) keeps the ordinary parser.
 *
 * `check`, the schema's generated check function, becomes its check-only path
 * (`schema.validate`): it answers without building a parsed copy. When it says "invalid",
 * zod's parse runs and has the last word.
 */
// Unconstrained on purpose: checking that each large schema type extends z.ZodType doubled the
// time TypeScript takes over a generated file. Typed as `Declared<T>`, for the reason given there.
export function compiledOnFirstUse<T>(schema: T, check?: (value: unknown) => boolean, writer?: JsonWriter): Declared<T> {
  const internals = (schema as unknown as z.ZodType)._zod;
  const ordinaryRun = internals.run;
  const checkOnly = check ? (value: unknown): unknown => (check(value) ? true : INVALID) : undefined;
  if (checkOnly) internals.bag['validator'] = checkOnly;
  if (writer) internals.bag[JSON_WRITER] = writer;
  const firstRun: Run = (payload, ctx) => {
    const context = ctx as RunContext | undefined;
    if (compiling || globalConfig.jitless || context?.async || context?.direction === 'backward' || context?.skipChecks) {
      return ordinaryRun(payload, ctx);
    }
    compiling = true;
    internals.run = ordinaryRun;
    try {
      const compiled = compile(schema as unknown as z.ZodType, { strict: true });
      internals.run = compiled._zod.run;
      internals.bag['fallbackRun'] = compiled._zod.bag['fallbackRun'];
      internals.bag['validator'] = checkOnly ?? compiled._zod.bag['validator'];
    } catch {
      // Not compilable (a reference cycle, for one): the ordinary parser stays.
      internals.run = ordinaryRun;
    } finally {
      compiling = false;
    }
    return internals.run(payload, ctx);
  };
  // Lets zod's compiler see through this wrapper to the real parser, as it does for its own.
  (firstRun as Run & { __originalRun?: Run }).__originalRun = ordinaryRun;
  internals.run = firstRun;
  return schema as unknown as Declared<T>;
}

/**
 * A schema zod's compiler cannot take (one in a reference cycle) with its check function and
 * writer as fast paths: `validate` asks the check first and parses only when it says no.
 */
export function checkedBy<T>(schema: T, check: (value: unknown) => boolean, writer?: JsonWriter): T {
  const bag = (schema as unknown as z.ZodType)._zod.bag;
  bag['validator'] = (value: unknown): unknown => (check(value) ? true : INVALID);
  if (writer) bag[JSON_WRITER] = writer;
  return schema;
}

/**
 * A file of a multipart body as a server receives it. The server-stubs runtime hands these to
 * handlers; the type is repeated here (structurally the same) so that the generated validators
 * import nothing but zod.
 */
export interface UploadedFile {
  readonly bytes: Uint8Array;
  /** The `filename` of the part, when the client sent one. */
  readonly filename?: string;
  /** The part's `Content-Type` (`application/octet-stream` when it named none). */
  readonly contentType: string;
  /** Byte length of `bytes`. */
  readonly size: number;
}

/** A file a client sends in a multipart body. */
export type FileInput = Blob | Uint8Array;

type WithFileMembers<T, F, Mode extends 'in' | 'out'> = T extends object
  ? {
      [K in keyof T]: K extends keyof F
        ? (F[K] extends 'many' ? Array<Mode extends 'in' ? FileInput : UploadedFile> : Mode extends 'in' ? FileInput : UploadedFile) | Extract<T[K], undefined>
        : T[K];
    }
  : T;

function isFileValue(value: unknown): boolean {
  if (value instanceof Uint8Array) return true;
  if (typeof Blob !== 'undefined' && value instanceof Blob) return true;
  // An uploaded file (server side): its bytes with their description.
  return typeof value === 'object' && value !== null && (value as { bytes?: unknown }).bytes instanceof Uint8Array;
}

/**
 * A multipart body whose members named in `files` are files (`one`) or lists of files
 * (`many`): sent as `Blob`/`File`/`Uint8Array`, received as `UploadedFile`. The spec types a
 * file as a binary string; `schema` checks the other members.
 */
export function withFiles<T, const F extends Record<string, 'one' | 'many'>>(
  schema: T,
  files: F,
): z.ZodType<WithFileMembers<z.output<T>, F, 'out'>, WithFileMembers<z.input<T>, F, 'in'>> {
  const fileMembers = Object.entries(files);
  const checked = (schema as unknown as z.ZodType).superRefine((value, ctx) => {
    if (typeof value !== 'object' || value === null) return;
    for (const [name, count] of fileMembers) {
      const member = (value as Record<string, unknown>)[name];
      if (member === undefined) continue;
      if (count === 'many' && !Array.isArray(member)) ctx.addIssue({ code: 'custom', path: [name], message: 'expected a list of files' });
      else if (count === 'many') {
        (member as unknown[]).forEach((item, i) => {
          if (!isFileValue(item)) ctx.addIssue({ code: 'custom', path: [name, i], message: 'expected a file' });
        });
      } else if (!isFileValue(member)) ctx.addIssue({ code: 'custom', path: [name], message: 'expected a file' });
    }
  });
  return checked as unknown as z.ZodType<WithFileMembers<z.output<T>, F, 'out'>, WithFileMembers<z.input<T>, F, 'in'>>;
}

/**
 * Writes the JSON text of a value the way `JSON.stringify` does, checking it against the schema
 * in the same walk when `check` is true (the default). `undefined` means "not valid" (with
 * `check`) or "left to the ordinary path" (a `toJSON`, a class instance, ...): the caller then
 * checks in full and uses `JSON.stringify`.
 */
export type JsonWriter = (value: unknown, check?: boolean) => string | undefined;

/** Where a schema keeps its writer (zod's `bag`, beside the check function); read by the wire package. */
const JSON_WRITER = 'bdsJsonWriter';

/**
 * `multipleOf`, answered by zod's own rule (a remainder taken on the decimal digits, so that
 * 0.3 is a multiple of 0.1): one number schema per step, made on first use.
 */
const multipleOfSchemas = new Map<number, z.ZodNumber>();
export function isMultipleOf(value: number, step: number): boolean {
  let schema = multipleOfSchemas.get(step);
  if (schema === undefined) {
    schema = z.number().multipleOf(step);
    multipleOfSchemas.set(step, schema);
  }
  return schema.safeParse(value).success;
}

/**
 * True when zod can merge what the parts of an intersection make of `value` (copies of it,
 * when no default applies): it merges numbers, strings and the like when they are the same
 * (NaN is not), and arrays and plain objects member by member. Anything else (a Date, a class
 * instance, an object whose own \`constructor\` is a function) is refused here, so that the
 * full parse decides.
 */
export function mergesCleanly(value: unknown): boolean {
  if (typeof value === 'number') return value === value;
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!mergesCleanly(value[i])) return false;
    return true;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (Object.prototype.hasOwnProperty.call(value, 'constructor') && typeof (value as { constructor: unknown }).constructor === 'function') return false;
  for (const key of Object.keys(value)) if (!mergesCleanly((value as Record<string, unknown>)[key])) return false;
  return true;
}

/** Gives a schema written out in an operation its body's writer. */
export function withJsonWriter<T>(schema: T, writer: JsonWriter): T {
  (schema as unknown as z.ZodType)._zod.bag[JSON_WRITER] = writer;
  return schema;
}

/** Characters JSON.stringify writes escaped (and surrogates, lone ones among them). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as the text between the quotes of its JSON text, as JSON.stringify writes it. */
export function jsonStringBody(value: string): string {
  const length = value.length;
  // Measured: for short strings a scan of the code units beats a regular expression.
  if (length < 48) {
    for (let i = 0; i < length; i++) {
      const unit = value.charCodeAt(i);
      if (unit < 32 || unit === 34 || unit === 92 || (unit >= 0xd800 && unit <= 0xdfff)) return JSON.stringify(value).slice(1, -1);
    }
    return value;
  }
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value).slice(1, -1) : value;
}

/** A string as JSON text, exactly as JSON.stringify writes it. */
export function jsonString(value: string): string {
  return `"${jsonStringBody(value)}"`;
}

/**
 * True when JSON.stringify writes `value` the same wherever it sits: not a BigInt and not an
 * object with `toJSON` (which JSON.stringify calls with the member's name).
 */
export function writableAsIs(value: unknown): boolean {
  if (typeof value === 'bigint') return false;
  return typeof value !== 'object' || value === null || typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * An object of query parameters that admits no name but `names` (an OpenAPI 3.2 form-encoded
 * `querystring` whose schema is closed): each other name is an issue at that name, so the
 * answer names it. Typed as the object it wraps (whose other members are `unknown`).
 */
export function onlyMembers<T>(schema: T, names: readonly string[]): T {
  const allowed = new Set(names);
  return (schema as unknown as z.ZodType).superRefine((value, ctx) => {
    if (value === null || typeof value !== 'object') return;
    for (const name of Object.keys(value)) {
      if (allowed.has(name)) continue;
      ctx.addIssue({ code: 'custom', path: [name], message: 'not a member of the query string (its schema admits no other names)', input: (value as Record<string, unknown>)[name] });
    }
  }) as unknown as T;
}
