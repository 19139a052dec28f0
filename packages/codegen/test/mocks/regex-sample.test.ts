/**
 * The pattern sampler (templates/mocks/regex-sample.ts): every string it returns is accepted by
 * the real RegExp, the same seed gives the same string, length hints are met where the pattern
 * allows them, and impossible patterns fail fast with PatternSampleError.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom, seedOf } from '../../templates/mocks/random.js';
import { PatternSampleError, sampleFromPattern, type PatternSampleOptions } from '../../templates/mocks/regex-sample.js';

const SEEDS = 30;

/** The pattern as validators compile it: with the u flag where it is valid with it. */
function compiled(pattern: string): RegExp {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return new RegExp(pattern);
  }
}

function sample(pattern: string, seed: number, extra: Omit<PatternSampleOptions, 'random'> = {}): string {
  return sampleFromPattern(pattern, { random: seededRandom(seedOf('regex-sample', pattern, seed)), ...extra });
}

const codePoints = (value: string): number => [...value].length;

/** Realistic schema patterns and the corners of the syntax, with and without the u flag. */
const PATTERNS: readonly string[] = [
  // Shapes seen in banking APIs.
  '^[A-Z]{3}$',
  '^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$',
  '^-?\\d{1,10}(\\.\\d{1,8})?$',
  '^UTC[+-]([01]\\d|2[0-4])(:?[0-5]\\d)?$',
  '^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$',
  '^[A-Z]{6}[A-Z2-9][A-NP-Z0-9]([A-Z0-9]{3})?$',
  '^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$',
  '^(?!0000)\\d{4}$',
  '^(?:\\+|00)\\d{7,15}$',
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
  '^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$',
  '^(?=.*[A-Z])(?=.*\\d)[A-Za-z\\d]{8,16}$',
  '^(?!.*--)[a-z-]{3,10}$',
  '^(?:(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1?\\d?\\d)$',
  '^#[0-9a-fA-F]{6}$',
  '^[a-z]+(?:-[a-z]+)*$',
  '^(?:[01]\\d|2[0-3]):[0-5]\\d$',
  '^[A-Z]{2}-\\d{3,}$',
  '^[-+]?(\\d+|\\d*\\.\\d+)([eE][-+]?\\d+)?$',
  // Backreferences and named groups.
  '^(\\w)\\w*\\1$',
  '^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])-\\k<month>$',
  '^(a|b)\\1{2}$',
  '^(a(b(c)))\\3\\2\\1$',
  '^(\\d+)x\\1$',
  '^(?<a>x)$|^(?<b>y)\\k<b>$',
  '^\\1(a)$',
  '(a)|\\1b',
  // Classes and escapes.
  '^[\\t\\n\\r\\f\\v]+$',
  '^[\\x41-\\x5A\\u0061-\\u007a]+$',
  '^[\\\\\\]\\-]+$',
  '^[^a-zA-Z0-9]{2,5}$',
  '^[^\\s]+$',
  '^[\\d\\s]+$',
  '^[\\D]{2}$',
  '^[\\W\\d]{3}$',
  '^\\S+\\s\\S+$',
  '^[\\x20-\\x7E]{10}$',
  '^\\cJ$',
  '^\\0$',
  '^[\\b]$',
  '^caf\\u00e9$',
  '^.{3,8}$',
  '^[^]+$',
  '^[^\\n\\r]*$',
  // Unicode properties and astral code points.
  '^\\p{L}+$',
  '^\\p{Lu}\\p{Ll}+$',
  '^\\p{N}{3}$',
  '^\\P{L}{2}$',
  '^\\p{Script=Latin}+$',
  '^\\p{Script=Greek}{2,4}$',
  '^[^\\p{L}\\s]+$',
  '^\\p{Emoji_Presentation}$',
  '\\p{Lu}',
  '^[\\u{1F600}-\\u{1F64F}]+$',
  '^[\\uD83D\\uDE00-\\uD83D\\uDE4F]$',
  // Unanchored, boundaries, lookbehind.
  'abc',
  '\\d{3}',
  '\\bword\\b',
  '(?<=\\$)\\d+(\\.\\d\\d)?',
  '(?<!-)\\b\\d+\\b',
  '^\\B-+$',
  'foo\\B',
  '(?:^|,)x(?:,|$)',
  '^a|b$',
  // Quantifiers, nesting, empty pieces.
  '^a+?b*?c??$',
  '^(?:a|b|c){2,3}?$',
  '^((a|b)(c|d))+$',
  '^a{0}b$',
  '^(a|)b$',
  '^[a-c]{2}$|^[x-z]{3}$',
  '^$',
  '^\\s*\\S+\\s*$',
  // Only valid without the u flag (Annex B).
  '^[\\w-]+$',
  '^\\-\\d+$',
  '^[\\w-.]+@[\\w-]+\\.\\w+$',
  '^x{,3}$',
  '^\\8$',
  '^(a)\\2$',
  '^\\k$',
  '^]$',
  '^[\\w-\\d]{2}$',
];

describe('sampleFromPattern', () => {
  it('has a varied table of patterns', () => {
    expect(PATTERNS.length).toBeGreaterThanOrEqual(60);
  });

  it.each(PATTERNS)('%s: every sample matches and the same seed gives the same string', (pattern) => {
    const regex = compiled(pattern);
    for (let seed = 0; seed < SEEDS; seed++) {
      const value = sample(pattern, seed);
      expect(regex.test(value), `${JSON.stringify(value)} (seed ${seed})`).toBe(true);
      expect(sample(pattern, seed)).toBe(value);
    }
  });

  it('varies with the seed', () => {
    for (const pattern of ['^[A-Z]{3}$', '^\\d{1,13}$', '^\\p{L}+$', '^[^a-z]{4}$', '.{6}']) {
      const values = new Set(Array.from({ length: SEEDS }, (_, seed) => sample(pattern, seed)));
      expect(values.size, pattern).toBeGreaterThan(SEEDS / 2);
    }
  });

  it('prefers readable characters for dots and negated classes', () => {
    for (let seed = 0; seed < SEEDS; seed++) {
      expect(sample('^.{8}$', seed)).toMatch(/^[A-Za-z0-9]{8}$/);
      expect(sample('^[^,;]{8}$', seed)).toMatch(/^[A-Za-z0-9]{8}$/);
      expect(sample('^[^A-Za-z0-9]{3}$', seed)).toMatch(/^[ -~]{3}$/);
    }
  });

  it('produces astral code points with the u flag', () => {
    for (let seed = 0; seed < SEEDS; seed++) {
      const value = sample('^[\\u{1F600}-\\u{1F64F}]{2}$', seed);
      expect(codePoints(value)).toBe(2);
      for (const char of value) expect(char.codePointAt(0)!).toBeGreaterThanOrEqual(0x1f600);
    }
  });

  it('reuses what a group produced for its backreference', () => {
    for (let seed = 0; seed < SEEDS; seed++) {
      const [a, b] = sample('^(\\d{2,5})-\\1$', seed).split('-');
      expect(a).toBe(b);
    }
  });

  const LENGTHS: ReadonlyArray<{ pattern: string; minLength?: number; maxLength?: number }> = [
    { pattern: '^[A-Z]{3,}$', maxLength: 5 },
    { pattern: '^[A-Z]{3,}$', minLength: 12 },
    { pattern: '^\\w+$', minLength: 10, maxLength: 12 },
    { pattern: '^[a-z]+@[a-z]+\\.com$', minLength: 20, maxLength: 25 },
    { pattern: 'abc', minLength: 8 },
    { pattern: '^\\d{1,13}$', minLength: 5, maxLength: 6 },
    { pattern: '^\\d{1,13}$|^\\d{1,13}\\.\\d{1,5}$', maxLength: 3 },
    { pattern: '^(ab)+$', minLength: 6, maxLength: 7 },
    { pattern: '^[a-z]{2,4}(-[a-z]{2,4})*$', minLength: 15, maxLength: 20 },
    { pattern: '^.*$', minLength: 40, maxLength: 40 },
    { pattern: '^\\p{L}{2,}$', minLength: 9, maxLength: 9 },
    { pattern: '^[\\u{1F600}-\\u{1F64F}]+$', minLength: 3, maxLength: 3 },
    { pattern: '^(?:a|bb|ccc){1,}$', minLength: 7, maxLength: 7 },
  ];

  it.each(LENGTHS)('honours length hints: $pattern in [$minLength, $maxLength]', ({ pattern, minLength, maxLength }) => {
    const regex = compiled(pattern);
    for (let seed = 0; seed < SEEDS; seed++) {
      const value = sample(pattern, seed, { ...(minLength !== undefined ? { minLength } : {}), ...(maxLength !== undefined ? { maxLength } : {}) });
      expect(regex.test(value), value).toBe(true);
      expect(codePoints(value), value).toBeGreaterThanOrEqual(minLength ?? 0);
      expect(codePoints(value), value).toBeLessThanOrEqual(maxLength ?? Infinity);
    }
  });

  it('still returns a match when the length hints cannot be met', () => {
    const value = sample('^[A-Z]{3}$', 1, { minLength: 10 });
    expect(value).toMatch(/^[A-Z]{3}$/);
  });

  it('keeps unbounded repetition short by default and follows maxExtraRepeat', () => {
    for (let seed = 0; seed < SEEDS; seed++) {
      expect(codePoints(sample('^a*$', seed))).toBeLessThanOrEqual(4);
      expect(codePoints(sample('^a+$', seed, { maxExtraRepeat: 0 }))).toBe(1);
      expect(codePoints(sample('^a{2,}$', seed, { maxExtraRepeat: 10 }))).toBeLessThanOrEqual(12);
    }
  });

  it.each(['(?!a)a', '^$a', 'a^b', '(?=b)a', '[^\\s\\S]', '[]', '\\bx\\B\\b', '(?<=a)^b'])('throws PatternSampleError quickly for the impossible %s', (pattern) => {
    const started = Date.now();
    expect(() => sample(pattern, 1)).toThrow(PatternSampleError);
    expect(() => sample(pattern, 2)).toThrow(/cannot sample a string for pattern/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('throws PatternSampleError for an invalid pattern', () => {
    expect(() => sample('(', 1)).toThrow(PatternSampleError);
    expect(() => sample('a**', 1)).toThrow(/not a valid regular expression/);
  });

  it('samples at once a huge count of what takes no character', () => {
    const started = Date.now();
    for (const pattern of ['^(?:){4000000000}a$', '^(?:(?:){100000}){100000}b$', '^x(?:\\b){4000000000}$']) {
      expect(compiled(pattern).test(sample(pattern, 1)), pattern).toBe(true);
    }
    // A safety bound for a denial-of-service test: copy by copy, this takes minutes.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a pattern whose shortest match is enormous', () => {
    expect(() => sample('^a{1000000}$', 1)).toThrow(PatternSampleError);
  });
});

// Random patterns from a grammar of pieces that always have a match: the sampler must find one.
const SAFE_ATOMS = [
  'a', 'b', 'x', '0', '\\.', '\\d', '\\w', '\\s', '\\D', '\\W', '\\S', '.', '[a-c]', '[^a-c]', '[A-Z0-9_]', '[\\d.-]',
  '\\p{L}', '\\p{Nd}', '\\P{L}', '[\\u{1F600}-\\u{1F64F}]', '\\u00e9', '\\x41', '[^\\p{L}]', '\\u{1F680}',
];
const QUANTIFIERS = ['*', '+', '?', '{2}', '{1,3}', '{0,}', '{2,}', '*?', '+?', '{0,2}?'];

const safePattern: fc.Arbitrary<string> = fc.letrec<{ node: string; group: string; seq: string; alt: string; quant: string }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(...SAFE_ATOMS), tie('group'), tie('seq'), tie('alt'), tie('quant')),
  group: fc.tuple(fc.constantFrom('(', '(?:'), tie('node')).map(([open, body]) => `${open}${body})`),
  seq: fc.array(tie('node'), { minLength: 1, maxLength: 4 }).map((items) => items.join('')),
  alt: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((options) => `(?:${options.join('|')})`),
  quant: fc.tuple(tie('node'), fc.constantFrom(...QUANTIFIERS)).map(([body, q]) => `(?:${body})${q}`),
})).node;

// Adds what may make a pattern impossible: anchors anywhere, boundaries, lookarounds, references.
const RISKY_ATOMS = [...SAFE_ATOMS, '^', '$', '\\b', '\\B', '(?=a)', '(?!a)', '(?<=a)', '(?<!b)', '(?=\\d)', '\\1', '\\2'];
const riskyPattern: fc.Arbitrary<string> = fc.letrec<{ node: string; group: string; seq: string; alt: string; quant: string }>((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constantFrom(...RISKY_ATOMS), tie('group'), tie('seq'), tie('alt'), tie('quant')),
  group: fc.tuple(fc.constantFrom('(', '(?:'), tie('node')).map(([open, body]) => `${open}${body})`),
  seq: fc.array(tie('node'), { minLength: 1, maxLength: 4 }).map((items) => items.join('')),
  alt: fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((options) => `(?:${options.join('|')})`),
  quant: fc.tuple(tie('node'), fc.constantFrom(...QUANTIFIERS)).map(([body, q]) => `(?:${body})${q}`),
})).node;

function isValidPattern(pattern: string): boolean {
  try {
    compiled(pattern);
    return true;
  } catch {
    return false;
  }
}

describe('sampleFromPattern on generated patterns', () => {
  it('always finds a match for patterns without anchors, boundaries or lookarounds', () => {
    fc.assert(
      fc.property(safePattern, fc.boolean(), fc.integer(), (body, anchored, seed) => {
        const pattern = anchored ? `^${body}$` : body;
        const value = sampleFromPattern(pattern, { random: seededRandom(seed) });
        expect(compiled(pattern).test(value), `${pattern} -> ${JSON.stringify(value)}`).toBe(true);
        expect(sampleFromPattern(pattern, { random: seededRandom(seed) })).toBe(value);
      }),
      // A fixed seed: the same patterns on every run (a random one could meet a pattern whose
      // backtracking in the real RegExp takes minutes, which no timeout interrupts).
      { numRuns: 400, seed: 20261127 },
    );
  });

  it('returns a match or throws PatternSampleError for any valid pattern', () => {
    fc.assert(
      fc.property(riskyPattern, fc.integer(), fc.option(fc.nat(12)), fc.option(fc.nat(12)), (pattern, seed, minLength, maxLength) => {
        fc.pre(isValidPattern(pattern));
        const options: PatternSampleOptions = { random: seededRandom(seed), ...(minLength !== null ? { minLength } : {}), ...(maxLength !== null ? { maxLength } : {}) };
        let value: string;
        try {
          value = sampleFromPattern(pattern, options);
        } catch (error) {
          expect(error).toBeInstanceOf(PatternSampleError);
          return;
        }
        expect(compiled(pattern).test(value), `${pattern} -> ${JSON.stringify(value)}`).toBe(true);
      }),
      // A fixed seed: the same patterns on every run (a random one could meet a pattern whose
      // backtracking in the real RegExp takes minutes, which no timeout interrupts).
      { numRuns: 400, seed: 20261127 },
    );
  });
});
