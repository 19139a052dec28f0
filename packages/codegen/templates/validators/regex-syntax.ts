/**
 * ECMA-262 pattern syntax read into a small tree: what the mocks' sampler builds strings from
 * and what the linear matcher compiles into an automaton. One reader, so that both see a
 * pattern the same way.
 *
 * The real RegExp has accepted the pattern before it is read here (with the `u` flag where the
 * pattern is valid with it, as the validators compile it), so the reader follows the grammar
 * without re-checking every rule; without the `u` flag it reads the legacy forms of Annex B.
 */

/** The pattern holds a form this reader does not know (it throws rather than guess). */
export class PatternSyntaxError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`pattern ${JSON.stringify(pattern)}: ${reason}`);
    this.name = 'PatternSyntaxError';
  }
}

export type Range = readonly [number, number];

/** Part of a character set: ranges known here, or a set only the real RegExp can decide. */
export type CharPart = { kind: 'ranges'; ranges: Range[]; size: number; preferred?: number[] } | { kind: 'test'; source: string };

export type Node =
  | { type: 'seq'; items: Node[] }
  | { type: 'alt'; options: Node[] }
  | { type: 'literal'; cp: number }
  | { type: 'set'; parts: CharPart[]; source?: string }
  | { type: 'group'; index: number | undefined; body: Node }
  | { type: 'repeat'; body: Node; min: number; max: number; captures: number[] }
  | { type: 'backref'; index: number | undefined; name: string | undefined }
  | { type: 'anchor'; kind: 'start' | 'end' | 'boundary' | 'notBoundary' }
  | { type: 'look'; behind: boolean; negative: boolean; body: Node };

const DIGIT: Range[] = [[0x30, 0x39]];
export const WORD: Range[] = [
  [0x41, 0x5a],
  [0x61, 0x7a],
  [0x30, 0x39],
  [0x5f, 0x5f],
];
const SPACE: Range[] = [
  [0x20, 0x20],
  [0x09, 0x0d],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

function rangesPart(ranges: Range[]): CharPart {
  return { kind: 'ranges', ranges, size: ranges.reduce((sum, [from, to]) => sum + Math.max(0, to - from + 1), 0) };
}

/** `\d \w \s` are fixed sets; their negations are left to the real RegExp. */
function classEscapeSet(letter: string): CharPart {
  switch (letter) {
    case 'd':
      return rangesPart(DIGIT);
    case 'w':
      return rangesPart(WORD);
    case 's':
      return rangesPart(SPACE);
    default:
      return { kind: 'test', source: `\\${letter}` };
  }
}

/** Capturing groups and whether any has a name: both change how escapes read (Annex B). */
function scanGroups(source: string): { count: number; named: boolean } {
  let count = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') {
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
    } else if (c === '(') {
      if (source[i + 1] !== '?') count++;
      else if (source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
        count++;
        named = true;
      }
    }
  }
  return { count, named };
}

const CONTROL_ESCAPES = new Map([
  ['t', 9],
  ['n', 10],
  ['v', 11],
  ['f', 12],
  ['r', 13],
]);
const QUANTIFIER = /\{(\d+)(?:(,)(\d*))?\}/y;
const HEX2 = /[0-9a-fA-F]{2}/y;
const HEX4 = /[0-9a-fA-F]{4}/y;
const isOctal = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '7';
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isControlLetter = (c: string | undefined): boolean => c !== undefined && /^[A-Za-z]$/.test(c);

/**
 * A recursive-descent reader of ECMA-262 pattern syntax. The real RegExp has accepted the
 * pattern already, so the reader follows the grammar without re-checking every rule; with the
 * u flag off it reads the legacy forms of Annex B (`\-`, `]`, octal escapes, `[\w-x]`).
 */
export class Parser {
  readonly groups = new Map<number, Extract<Node, { type: 'group' }>>();
  readonly names = new Map<string, number[]>();
  private pos = 0;
  private opened = 0;
  private readonly totalGroups: number;
  private readonly hasNames: boolean;

  constructor(
    private readonly source: string,
    private readonly unicode: boolean,
  ) {
    const scan = scanGroups(source);
    this.totalGroups = scan.count;
    this.hasNames = scan.named;
  }

  parse(): Node {
    const root = this.disjunction();
    if (this.pos < this.source.length) this.unsupported(`unexpected ${JSON.stringify(this.source[this.pos])}`);
    return root;
  }

  private unsupported(what: string): never {
    throw new PatternSyntaxError(this.source, `${what} at offset ${this.pos} is not supported`);
  }

  private at(text: string): boolean {
    return this.source.startsWith(text, this.pos);
  }

  private eat(text: string): boolean {
    if (!this.at(text)) return false;
    this.pos += text.length;
    return true;
  }

  private expect(text: string): void {
    if (!this.eat(text)) this.unsupported(`expected ${JSON.stringify(text)}`);
  }

  /** One character of the pattern: a code point with the u flag, a code unit without. */
  private readChar(): number {
    const cp = this.unicode ? this.source.codePointAt(this.pos)! : this.source.charCodeAt(this.pos);
    this.pos += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private disjunction(): Node {
    const options = [this.alternative()];
    while (this.eat('|')) options.push(this.alternative());
    return options.length === 1 ? options[0]! : { type: 'alt', options };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.pos < this.source.length && !this.at('|') && !this.at(')')) items.push(this.term());
    return items.length === 1 ? items[0]! : { type: 'seq', items };
  }

  private term(): Node {
    const groupsBefore = this.opened;
    const start = this.pos;
    const atom = this.atom();
    // The set as written: the linear matcher asks the real RegExp which characters it holds.
    if (atom.type === 'set') atom.source = this.source.slice(start, this.pos);
    if (atom.type === 'anchor') return atom;
    const bounds = this.quantifier();
    if (!bounds) return atom;
    const captures: number[] = [];
    for (let index = groupsBefore + 1; index <= this.opened; index++) captures.push(index);
    return { type: 'repeat', body: atom, min: bounds.min, max: bounds.max, captures };
  }

  private quantifier(): { min: number; max: number } | undefined {
    let bounds: { min: number; max: number };
    const c = this.source[this.pos];
    if (c === '*') bounds = { min: 0, max: Infinity };
    else if (c === '+') bounds = { min: 1, max: Infinity };
    else if (c === '?') bounds = { min: 0, max: 1 };
    else if (c === '{') {
      QUANTIFIER.lastIndex = this.pos;
      const match = QUANTIFIER.exec(this.source);
      // Without the u flag a `{` that starts no quantifier is a literal brace.
      if (!match) return undefined;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.pos += match[0].length - 1;
      bounds = { min, max };
    } else return undefined;
    this.pos++;
    // Lazy or greedy, the set of matching strings is the same.
    this.eat('?');
    return bounds;
  }

  private atom(): Node {
    const c = this.source[this.pos];
    switch (c) {
      case '^':
        this.pos++;
        return { type: 'anchor', kind: 'start' };
      case '$':
        this.pos++;
        return { type: 'anchor', kind: 'end' };
      case '(':
        return this.group();
      case '.':
        this.pos++;
        return { type: 'set', parts: [{ kind: 'test', source: '.' }] };
      case '[':
        return this.characterClass();
      case '\\':
        return this.atomEscape();
      default:
        return { type: 'literal', cp: this.readChar() };
    }
  }

  private group(): Node {
    this.expect('(');
    let node: Node;
    if (this.eat('?:')) {
      node = { type: 'group', index: undefined, body: this.disjunction() };
    } else if (this.at('?=') || this.at('?!') || this.at('?<=') || this.at('?<!')) {
      const behind = this.source[this.pos + 1] === '<';
      this.pos += behind ? 2 : 1;
      const negative = this.source[this.pos] === '!';
      this.pos++;
      node = { type: 'look', behind, negative, body: this.disjunction() };
    } else if (this.eat('?<')) {
      const end = this.source.indexOf('>', this.pos);
      if (end < 0) this.unsupported('an unterminated group name');
      const name = this.source.slice(this.pos, end);
      this.pos = end + 1;
      const index = ++this.opened;
      this.names.set(name, [...(this.names.get(name) ?? []), index]);
      node = this.capture(index);
    } else if (this.at('?')) {
      return this.unsupported(`the group syntax "(${this.source.slice(this.pos, this.pos + 2)}"`);
    } else {
      node = this.capture(++this.opened);
    }
    this.expect(')');
    return node;
  }

  private capture(index: number): Node {
    const group: Extract<Node, { type: 'group' }> = { type: 'group', index, body: { type: 'seq', items: [] } };
    this.groups.set(index, group);
    group.body = this.disjunction();
    return group;
  }

  private characterClass(): Node {
    const start = this.pos;
    this.expect('[');
    const negated = this.eat('^');
    const ranges: Range[] = [];
    const tests: CharPart[] = [];
    const add = (atom: number | CharPart): void => {
      if (typeof atom === 'number') ranges.push([atom, atom]);
      else if (atom.kind === 'ranges') ranges.push(...atom.ranges);
      else tests.push(atom);
    };
    while (!this.at(']')) {
      if (this.pos >= this.source.length) this.unsupported('an unterminated character class');
      const first = this.classAtom();
      if (this.at('-') && this.pos + 1 < this.source.length && this.source[this.pos + 1] !== ']') {
        this.pos++;
        const last = this.classAtom();
        if (typeof first === 'number' && typeof last === 'number') {
          ranges.push([first, last]);
        } else {
          // Annex B: a class escape at either end makes the dash a literal (`[\w-.]`).
          add(first);
          add(0x2d);
          add(last);
        }
      } else add(first);
    }
    this.expect(']');
    if (negated) return { type: 'set', parts: [{ kind: 'test', source: this.source.slice(start, this.pos) }] };
    const parts: CharPart[] = ranges.length > 0 ? [rangesPart(ranges), ...tests] : tests;
    return { type: 'set', parts };
  }

  private classAtom(): number | CharPart {
    if (!this.eat('\\')) return this.readChar();
    const c = this.source[this.pos];
    if (c !== undefined && 'dDwWsS'.includes(c)) {
      this.pos++;
      return classEscapeSet(c);
    }
    if ((c === 'p' || c === 'P') && this.unicode) return this.property();
    if (c === 'b') {
      this.pos++;
      return 0x08;
    }
    if (c === 'c') {
      const next = this.source[this.pos + 1];
      // Annex B also takes digits and `_` after `\c` inside a class.
      if (isControlLetter(next) || (!this.unicode && (isDigit(next) || next === '_'))) {
        this.pos += 2;
        return next!.charCodeAt(0) % 32;
      }
      return 0x5c;
    }
    if (isDigit(c)) {
      if (this.unicode || c === '8' || c === '9') {
        this.pos++;
        return this.unicode ? 0 : c!.charCodeAt(0);
      }
      return this.legacyOctal();
    }
    return this.characterEscape();
  }

  private atomEscape(): Node {
    this.expect('\\');
    const c = this.source[this.pos];
    if (c === 'b' || c === 'B') {
      this.pos++;
      return { type: 'anchor', kind: c === 'b' ? 'boundary' : 'notBoundary' };
    }
    if (c !== undefined && 'dDwWsS'.includes(c)) {
      this.pos++;
      return { type: 'set', parts: [classEscapeSet(c)] };
    }
    if ((c === 'p' || c === 'P') && this.unicode) return { type: 'set', parts: [this.property()] };
    if (c === 'k' && (this.unicode || this.hasNames)) {
      this.pos++;
      this.expect('<');
      const end = this.source.indexOf('>', this.pos);
      if (end < 0) this.unsupported('an unterminated group reference');
      const name = this.source.slice(this.pos, end);
      this.pos = end + 1;
      return { type: 'backref', index: undefined, name };
    }
    if (isDigit(c)) return this.decimalEscape();
    if (c === 'c' && !isControlLetter(this.source[this.pos + 1])) {
      // Annex B: `\c` without a letter is a backslash, and the `c` reads as itself next.
      return { type: 'literal', cp: 0x5c };
    }
    return { type: 'literal', cp: this.characterEscape() };
  }

  private decimalEscape(): Node {
    if (this.source[this.pos] === '0' && (this.unicode || !isDigit(this.source[this.pos + 1]))) {
      this.pos++;
      return { type: 'literal', cp: 0 };
    }
    let end = this.pos;
    while (isDigit(this.source[end])) end++;
    const index = Number(this.source.slice(this.pos, end));
    if (this.unicode || (this.source[this.pos] !== '0' && index <= this.totalGroups)) {
      this.pos = end;
      return { type: 'backref', index, name: undefined };
    }
    // Annex B: a number past the last group is an octal escape, or `\8` / `\9` as themselves.
    if (this.source[this.pos] === '8' || this.source[this.pos] === '9') return { type: 'literal', cp: this.readChar() };
    return { type: 'literal', cp: this.legacyOctal() };
  }

  /** `\0` to `\377`: three octal digits at most, two when the first is 4-7 (the value stays a byte). */
  private legacyOctal(): number {
    let value = Number(this.source[this.pos]);
    this.pos++;
    const maxDigits = value <= 3 ? 3 : 2;
    for (let n = 1; n < maxDigits && isOctal(this.source[this.pos]); n++) {
      value = value * 8 + Number(this.source[this.pos]);
      this.pos++;
    }
    return value;
  }

  /** The escapes that name one character; the position is just past the backslash. */
  private characterEscape(): number {
    const c = this.source[this.pos];
    const control = c === undefined ? undefined : CONTROL_ESCAPES.get(c);
    if (control !== undefined) {
      this.pos++;
      return control;
    }
    if (c === 'c') {
      this.pos += 2;
      return this.source.charCodeAt(this.pos - 1) % 32;
    }
    if (c === 'x') {
      HEX2.lastIndex = this.pos + 1;
      const hex = HEX2.exec(this.source);
      if (hex) {
        this.pos += 3;
        return parseInt(hex[0], 16);
      }
    }
    if (c === 'u') {
      const cp = this.unicodeEscape();
      if (cp !== undefined) return cp;
    }
    if (this.pos >= this.source.length) this.unsupported('a pattern ending in a backslash');
    // An identity escape: the character itself (`\.`, `\-`, and without the u flag `\a`).
    return this.readChar();
  }

  /** `\uXXXX`, a surrogate pair of those, or `\u{...}` with the u flag. */
  private unicodeEscape(): number | undefined {
    if (this.unicode && this.source[this.pos + 1] === '{') {
      const end = this.source.indexOf('}', this.pos);
      const cp = parseInt(this.source.slice(this.pos + 2, end), 16);
      this.pos = end + 1;
      return cp;
    }
    const lead = this.hex4(this.pos + 1);
    if (lead === undefined) return undefined;
    this.pos += 5;
    if (this.unicode && lead >= 0xd800 && lead <= 0xdbff && this.at('\\u')) {
      const trail = this.hex4(this.pos + 2);
      if (trail !== undefined && trail >= 0xdc00 && trail <= 0xdfff) {
        this.pos += 6;
        return 0x10000 + ((lead - 0xd800) << 10) + (trail - 0xdc00);
      }
    }
    return lead;
  }

  private hex4(at: number): number | undefined {
    HEX4.lastIndex = at;
    const hex = HEX4.exec(this.source);
    return hex ? parseInt(hex[0], 16) : undefined;
  }

  /** `\p{...}` / `\P{...}`: kept as source, decided by the real RegExp. */
  private property(): CharPart {
    const start = this.pos - 1;
    this.pos++;
    const end = this.source.indexOf('}', this.pos);
    if (end < 0) this.unsupported('an unterminated property escape');
    this.pos = end + 1;
    return { kind: 'test', source: this.source.slice(start, this.pos) };
  }
}

/** Whether every way through the node meets `^` before any character. */
export function startsWithCaret(node: Node): boolean {
  switch (node.type) {
    case 'anchor':
      return node.kind === 'start';
    case 'seq':
      return node.items.length > 0 && startsWithCaret(node.items[0]!);
    case 'alt':
      return node.options.every(startsWithCaret);
    case 'group':
      return startsWithCaret(node.body);
    default:
      return false;
  }
}

/** Whether `\b` sees a word character: ASCII letters, digits and `_` (no `i` flag, so no case folding). */
export function isWordChar(cp: number): boolean {
  return (cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a) || cp === 0x5f;
}
