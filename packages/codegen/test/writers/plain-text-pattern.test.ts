/**
 * Which patterns let a writer skip the scan for escapes. A wrong "true" would write a quote
 * or a control character unescaped, so every pattern read as plain is also tried on strings
 * that need escaping: none may match.
 */
import { describe, expect, it } from 'vitest';
import { patternWritesPlainText } from '../../src/emit/validators/plain-text-pattern.js';

const PLAIN = ['^[A-Z]{3}$', '^\\d{1,13}\\.\\d{1,5}$', '^(a|b)$', '^[\\w\\-.]+$', '^[#-[]+$', '^[A-Za-z0-9_~-]+$', '^[a-zé]{2}$', '^(?:[0-9]{2}-){2}[0-9]{2}$', '^\\bword\\b$'];
const NOT_PLAIN = [
  '^[ -~]+$', // holds " and \
  '^[!-~]$',
  '^.*$',
  '^[^"]*$',
  '^\\s+$',
  '^a|b$', // not anchored as a whole
  '^[\\\\]$',
  '^[\\b]$', // a backspace
  '^(?=a)a$',
  '^\\$[.\\[].*',
  '^[a-z\\u0022]$',
  '^\\p{L}+$',
  '[A-Z]{3}', // not anchored
  '^"quoted"$',
  '^(a)\\1$',
  '^\\t$',
];
const NEEDS_ESCAPE = ['"', '\\', '\n', '\u0000', '\u001f', '\ud800', 'A"', 'a\\b', '"""'];

describe('patterns whose strings JSON writes as they are', () => {
  it('reads plain patterns as plain, and no escape-needing string matches them', () => {
    for (const source of PLAIN) {
      expect([source, patternWritesPlainText(source)]).toStrictEqual([source, true]);
      const pattern = new RegExp(source, 'u');
      for (const text of NEEDS_ESCAPE) for (const s of [text, `${text}${text}`]) expect([source, s, pattern.test(s)]).toStrictEqual([source, s, false]);
    }
  });

  it('reads the others as not plain, conservatively', () => {
    for (const source of NOT_PLAIN) expect([source, patternWritesPlainText(source)]).toStrictEqual([source, false]);
  });
});
