/**
 * Format samples (templates/mocks/formats.ts) pass the checks of the generated validators
 * (templates/validators/runtime.ts) for many seeds, look like what the format names, and stay
 * near the reference time.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { isSampledFormat, sampleAnyFormat, sampleFormat, type SampledFormat } from '../../templates/mocks/formats.js';
import { seededRandom, seedOf } from '../../templates/mocks/random.js';
import { isByte, isDate, isDateTime, isDuration, isEmail, isTime, isUri, isUuid } from '../../templates/validators/runtime.js';

const NOW = Date.UTC(2026, 10, 27, 15, 30);
const SEEDS = 500;
const TWO_YEARS_MS = 2 * 366 * 86_400_000;
/** A local date may sit a day from the UTC one. */
const DAY_MS = 86_400_000;

const CHECKS: Record<SampledFormat, (value: string) => boolean> = {
  'date-time': isDateTime,
  date: isDate,
  time: isTime,
  uri: isUri,
  uuid: isUuid,
  email: isEmail,
  duration: isDuration,
  byte: isByte,
};

const FORMATS = Object.keys(CHECKS) as SampledFormat[];

function samples(format: string, count = SEEDS): string[] {
  return Array.from({ length: count }, (_, seed) => {
    const value = sampleAnyFormat(format, seededRandom(seedOf('formats', format, seed)), NOW);
    if (value === undefined) throw new Error(`no sample for ${format}`);
    return value;
  });
}

type AjvCheck = RegExp | ((value: string) => boolean) | { validate: RegExp | ((value: string) => boolean) };

/** ajv-formats' full check for `format`, as an independent second opinion. */
function ajvAccepts(format: string, value: string): boolean {
  const check = (fullFormats as Record<string, AjvCheck | undefined>)[format];
  if (check === undefined) throw new Error(`ajv-formats has no ${format}`);
  const validate = typeof check === 'object' && 'validate' in check ? check.validate : check;
  return typeof validate === 'function' ? validate(value) : validate.test(value);
}

describe('sampleFormat', () => {
  it.each(FORMATS)('%s: every sample passes the validators check', (format) => {
    for (const value of samples(format)) expect(CHECKS[format](value), `${format} ${JSON.stringify(value)}`).toBe(true);
  });

  it.each(FORMATS)('%s: every sample passes ajv-formats too', (format) => {
    for (const value of samples(format)) expect(ajvAccepts(format, value), `${format} ${JSON.stringify(value)}`).toBe(true);
  });

  it.each(FORMATS)('%s: the same seed gives the same value, other seeds vary', (format) => {
    const first = samples(format, 50);
    expect(samples(format, 50)).toEqual(first);
    expect(new Set(first).size).toBeGreaterThan(format === 'duration' ? 20 : 40);
  });

  it('samples through sampleFormat and sampleAnyFormat alike', () => {
    for (const format of FORMATS) {
      expect(sampleFormat(format, seededRandom(7), NOW)).toBe(sampleAnyFormat(format, seededRandom(7), NOW));
    }
  });

  it('keeps date-times and dates within two years of now, with Z or an offset and some fractions', () => {
    const dateTimes = samples('date-time');
    for (const value of dateTimes) expect(Math.abs(Date.parse(value) - NOW)).toBeLessThanOrEqual(TWO_YEARS_MS);
    expect(dateTimes.some((v) => v.endsWith('Z'))).toBe(true);
    expect(dateTimes.some((v) => /[+-]\d{2}:\d{2}$/.test(v))).toBe(true);
    expect(dateTimes.some((v) => /\.\d+(Z|[+-])/.test(v))).toBe(true);
    for (const value of samples('date')) expect(Math.abs(Date.parse(`${value}T00:00:00Z`) - NOW)).toBeLessThanOrEqual(TWO_YEARS_MS + DAY_MS);
  });

  it('writes the local time of the same instant when it uses an offset', () => {
    for (const value of samples('date-time')) expect(Number.isNaN(Date.parse(value))).toBe(false);
    const years = new Set(samples('date').map((v) => Number(v.slice(0, 4))));
    expect([...years].every((year) => year >= 2024 && year <= 2028)).toBe(true);
  });

  it('gives version 4 lower-case uuids', () => {
    for (const value of samples('uuid')) expect(value).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('gives emails at example domains and uris at example hosts', () => {
    for (const value of samples('email')) expect(value).toMatch(/^[a-z0-9._]+@(mail\.)?example\.(com|org|net)$/);
    for (const value of samples('uri')) expect(value).toMatch(/^https:\/\/([a-z]+\.)?example\.(com|org|net)\//);
  });

  it('gives ISO 8601 durations and correctly padded base64', () => {
    for (const value of samples('duration')) expect(value).toMatch(/^P/);
    for (const value of samples('byte')) {
      expect(value.length % 4).toBe(0);
      expect(Buffer.from(value, 'base64').toString('base64')).toBe(value);
    }
  });
});

describe('sampleAnyFormat', () => {
  it('knows the checked formats', () => {
    for (const format of FORMATS) expect(isSampledFormat(format)).toBe(true);
    for (const name of ['hostname', 'ipv4', 'int64', 'constructor', 'toString', '']) expect(isSampledFormat(name)).toBe(false);
  });

  it('returns undefined for an unknown format', () => {
    for (const name of ['int64', 'float', 'made-up', 'constructor', '__proto__']) expect(sampleAnyFormat(name, seededRandom(1), NOW)).toBeUndefined();
  });

  it.each(['uri-reference', 'hostname', 'ipv4', 'ipv6', 'uri-template', 'json-pointer', 'relative-json-pointer', 'regex', 'url'])(
    '%s: every sample passes ajv-formats',
    (format) => {
      for (const value of samples(format)) expect(ajvAccepts(format, value), `${format} ${JSON.stringify(value)}`).toBe(true);
    },
  );

  it('gives ipv4 and ipv6 addresses from documentation ranges', () => {
    for (const value of samples('ipv4')) expect(value).toMatch(/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$/);
    for (const value of samples('ipv6')) expect(value.startsWith('2001:db8:')).toBe(true);
  });

  it('gives internationalised values for the idn and iri formats', () => {
    for (const value of samples('iri')) expect(() => new URL(value)).not.toThrow();
    for (const value of samples('iri-reference')) expect(value.startsWith('/')).toBe(true);
    for (const value of samples('idn-hostname')) expect(() => new URL(`https://${value}/`)).not.toThrow();
    for (const value of samples('idn-email')) expect(value).toMatch(/^[^@\s]+@[^@\s]+\.[^@\s]+$/);
    expect(samples('idn-email').some((value) => /[^\x00-\x7f]/.test(value))).toBe(true);
  });

  it('gives regexes that compile and passwords', () => {
    for (const value of samples('regex')) expect(() => new RegExp(value, 'u')).not.toThrow();
    for (const value of samples('password')) expect(value.length).toBeGreaterThanOrEqual(8);
  });
});
