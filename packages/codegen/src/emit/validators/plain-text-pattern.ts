/**
 * Whether every string a `pattern` accepts is written by JSON.stringify as `"` + string + `"`:
 * no quote, backslash, control character or surrogate. The writers skip the scan for escapes
 * on strings the check found to match such a pattern.
 *
 * The reading is conservative: a pattern anchored at both ends (`^...$`, no top-level `|`)
 * made only of literal characters that need no escape, `\d`, `\w`, escaped punctuation,
 * groups, quantifiers, and classes (not negated) whose every character and range avoids what
 * JSON escapes. Anything else (`.`, `\s`, `[^...]`, `\p{...}`, `\u...`, lookarounds,
 * backreferences) answers false, which only costs the scan.
 */

/** Printable characters JSON writes as they are, bar the two it escapes. */
function plainCode(code: number): boolean {
  return code >= 0x20 && code !== 0x22 && code !== 0x5c && (code < 0xd800 || code > 0xdfff);
}

/** A range of code points JSON writes as they are. */
function plainRange(from: number, to: number): boolean {
  if (from > to) return false;
  if (from < 0x20) return false;
  const holds = (c: number) => from <= c && c <= to;
  return !holds(0x22) && !holds(0x5c) && !(from <= 0xdfff && to >= 0xd800);
}

/** Escapes of one punctuation character (a literal): `\.`, `\-`, `\/`, ... but not `\\` or `\"`. */
const ESCAPED_LITERAL = /^[!#$%&'()*+,\-./:;<=>?@[\]^_`{|}~]$/;

/** Reads a class body from `i` (after `[`); the index after `]`, or -1 when it is not plain. */
function readClass(source: string, start: number): number {
  let i = start;
  if (source[i] === '^') return -1;
  while (i < source.length && source[i] !== ']') {
    let code: number;
    if (source[i] === '\\') {
      const next = source[i + 1];
      if (next === undefined) return -1;
      if (next === 'd' || next === 'w') {
        i += 2;
        continue;
      }
      if (!ESCAPED_LITERAL.test(next)) return -1;
      code = next.codePointAt(0)!;
      i += 2;
    } else {
      code = source.codePointAt(i)!;
      i += code > 0xffff ? 2 : 1;
    }
    if (source[i] === '-' && source[i + 1] !== ']' && source[i + 1] !== undefined) {
      // A range: its other end is a plain character (no escapes, to keep the reading simple).
      const end = source.codePointAt(i + 1)!;
      if (end === 0x5c || !plainRange(code, end)) return -1;
      i += end > 0xffff ? 3 : 2;
      continue;
    }
    if (!plainCode(code)) return -1;
  }
  return i < source.length ? i + 1 : -1;
}

export function patternWritesPlainText(source: string): boolean {
  if (!source.startsWith('^') || !source.endsWith('$') || source.endsWith('\\$')) return false;
  let depth = 0;
  for (let i = 1; i < source.length - 1; ) {
    const c = source[i]!;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) return false;
      if (next !== 'd' && next !== 'w' && next !== 'b' && next !== 'B' && !ESCAPED_LITERAL.test(next)) return false;
      i += 2;
    } else if (c === '[') {
      const after = readClass(source, i + 1);
      if (after < 0) return false;
      i = after;
    } else if (c === '(') {
      if (source[i + 1] === '?' && source[i + 2] !== ':') return false;
      depth++;
      i += source[i + 1] === '?' ? 3 : 1;
    } else if (c === ')') {
      depth--;
      if (depth < 0) return false;
      i++;
    } else if (c === '|') {
      if (depth === 0) return false;
      i++;
    } else if (c === '.') {
      return false;
    } else if ('*+?{},^$'.includes(c) || /[0-9]/.test(c)) {
      // Quantifiers and their bounds; inner anchors are assertions.
      i++;
    } else {
      const code = source.codePointAt(i)!;
      if (!plainCode(code)) return false;
      i += code > 0xffff ? 2 : 1;
    }
  }
  return depth === 0;
}
