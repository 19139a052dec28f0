/**
 * The linear matcher (templates/validators/linear-regex.ts) gives V8's answer of
 * `new RegExp(source, flags).test(input)` on the corners of the syntax, and refuses what it
 * cannot match in linear time.
 */
import { describe, expect, it } from 'vitest';
import { LinearMatcher, linearMatchable } from '../../templates/validators/linear-regex.js';

/** Both engines' answers for every input, with each flag the pattern is valid with. */
function agree(source: string, inputs: readonly string[]): void {
  for (const flags of ['u', ''] as const) {
    let regex: RegExp;
    try {
      regex = new RegExp(source, flags);
    } catch {
      continue;
    }
    const matcher = new LinearMatcher(source, flags);
    for (const input of inputs) expect([flags, input, matcher.test(input)]).toEqual([flags, input, regex.test(input)]);
  }
}

describe('LinearMatcher', () => {
  it('anchors: ^ and $ only at the ends (no multiline), unanchored patterns search', () => {
    agree('^abc$', ['abc', 'abcd', 'xabc', '', 'ab\nc', 'abc\n']);
    agree('abc', ['abc', 'xxabcxx', 'ab', '']);
    agree('^$', ['', 'a', '\n']);
    agree('a^b', ['ab', 'a^b']);
    agree('a$|^b', ['a', 'xa', 'b', 'xb', 'bx']);
    agree('(?:^|,)x(?:,|$)', ['x', 'a,x', 'x,b', 'axb', 'a,x,b']);
  });

  it('classes, escapes and the dot', () => {
    agree('^[a-z0-9_-]+$', ['abc-1_', 'ABC', 'a b', '']);
    agree('^[^"\\\\]*$', ['plain', 'with"quote', 'back\\slash', '']);
    agree('^\\d\\D\\w\\W\\s\\S$', ['1a_ \t!', '1aa b!', '1a_\u00a0\u2028x', '١a_ \tx']);
    agree('^.$', ['a', '\n', '\r', '\u2028', '\u2029', '\u0085', '😀', '\ud800', '\udc00']);
    agree('^[\\w.-]+$', ['a.b-c', 'a,b']);
    agree('^\\x41\\u0042\\103\\cJ$', ['ABC\n', 'ABCJ']);
    agree('^\\p{L}+$', ['Grüße', 'abc1', 'p{L}', 'pL']);
    agree('^\\p{Lu}\\P{Lu}$', ['Ab', 'AB']);
    agree('^[\\]\\-\\\\]$', [']', '-', '\\', 'a']);
  });

  it('word boundaries at the edges and between characters', () => {
    agree('\\bfoo\\b', ['foo', 'a foo b', 'afoo', 'foob', 'foo_', 'é foo é', '']);
    agree('\\Bo\\B', ['foo', 'o', 'fo', 'ofo']);
    agree('^\\b$', ['']);
    agree('^\\B$', ['']);
    agree('a\\b', ['a', 'ab', 'a!']);
  });

  it('alternation and counted repeats, greedy or lazy', () => {
    agree('^(?:cat|dog|bird)s?$', ['cat', 'dogs', 'birds', 'cow', 'catdog']);
    agree('^a{3}$', ['aa', 'aaa', 'aaaa']);
    agree('^a{2,4}$', ['a', 'aa', 'aaaa', 'aaaaa']);
    agree('^a{2,}$', ['a', 'aa', 'a'.repeat(50)]);
    agree('^a{0}b$', ['b', 'ab']);
    agree('^(ab){1,2}?c$', ['abc', 'ababc', 'abababc', 'c']);
    agree('^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$', ['GB82WEST12345698765432', 'GB82WEST1234', 'gb82west12345698765432']);
  });

  it('empty matches and quantified empty groups', () => {
    agree('', ['', 'abc']);
    agree('^(?:)*$', ['', 'a']);
    agree('^(a*)*$', ['', 'aaa', 'aab']);
    agree('^(a|)+b$', ['b', 'aab', 'aac']);
    agree('^(?:\\b|a)*x', ['x', 'aax', 'ax', 'bx']);
    agree('x*', ['', 'yyy']);
  });

  it('walks code units without u and code points with it (astral characters, lone surrogates)', () => {
    agree('^.{2}$', ['😀', 'ab', '😀😀']);
    agree('^😀+$', ['😀😀', '😀\ude00', '\ud83d']);
    agree('^[😀]$', ['😀', '\ud83d', '\ude00']);
    agree('^\\ud83d$', ['\ud83d', '😀']);
    agree('^\\ud83d\\ude00$', ['😀', '\ud83d']);
    agree('^[\\ud800-\\udfff]$', ['\ud800', '\udfff', '😀']);
    agree('^\\u{1F600}$', ['😀', 'u'.repeat(1600)]);
    agree('^[^x]$', ['😀', '\ud83d', 'y']);
  });

  it('Annex B forms read as V8 reads them without u', () => {
    agree('^\\-\\:{$', ['-:{']);
    agree('^a{,3}$', ['a{,3}', 'aaa']);
    agree('^[\\w-.]+$', ['a-.', 'a,']);
    agree('^\\8\\1$', ['81', '\u0001']);
    agree('^\\c$', ['\\c']);
    agree('^[\\c_]$', ['\u001f', '\\']);
  });

  it('answers the patterns that backtrack in time linear in the input', () => {
    const slug = new LinearMatcher('^([a-z0-9]+-?)*[a-z0-9]+$', 'u');
    expect(slug.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(slug.test('my-first-post')).toBe(true);
    const email = new LinearMatcher('^.*@.*\\..*', 'u');
    expect(email.test('@'.repeat(100_000))).toBe(false);
    expect(email.test('someone@example.com')).toBe(true);
  });

  it('keeps its answers when its cache of state sets starts afresh (thousands of sets met on one input)', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const inputs = Array.from({ length: 4 }, () => Array.from({ length: 6_000 }, () => (random() < 0.5 ? 'a' : 'b')).join(''));
    // Anchored, so that V8 (the reference) stays linear too; the last 15 characters decide.
    agree('^(?:a|b)*a(?:a|b){14}$', [...inputs, ...inputs.map((input) => `${input}a${'b'.repeat(14)}`)]);
  });

  it('refuses backreferences and lookarounds, naming them', () => {
    expect(linearMatchable('^(a)\\1$', 'u')).toBe('it holds a backreference');
    expect(linearMatchable('^(?<x>a)\\k<x>$', 'u')).toBe('it holds a backreference');
    expect(linearMatchable('^(?=a)a$', 'u')).toBe('it holds a lookahead');
    expect(linearMatchable('(?<!a)b', 'u')).toBe('it holds a lookbehind');
    expect(linearMatchable('^[a-z]+$', 'u')).toBe(true);
    expect(linearMatchable('^a{1,6000}$', 'u')).toMatch(/more than \d+ states/);
  });

  it('builds at once a huge count of a group that matches only the empty word (no state to charge to the cap)', () => {
    // Unrolled, `(?:){n}` adds no state per copy: n steps, up to 2^53, before this was bounded.
    const started = Date.now();
    agree('^(?:){4000000000}a(?:a{0}){9007199254740991}$', ['a', '', 'aa']);
    agree('^(a|a)*(?:(?:){100000000}){100000000}$', ['aaaa', 'aab']);
    // A safety bound for a denial-of-service test: unbounded, this takes minutes.
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
