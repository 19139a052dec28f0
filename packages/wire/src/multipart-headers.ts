/**
 * The header block of one `multipart/mixed` part (RFC 2046 §5.1, RFC 5322 §2.2): names
 * lower-case, a repeated header's values joined by `, `, a folded line (opening with white
 * space) joined to the header before it by one space.
 *
 * Each header's value is kept as pieces and joined once at the end: joining and trimming the
 * whole value at every folded line, as a plain reading does, costs time quadratic in the
 * block's length (seconds for a block of a few hundred kilobytes of folded lines).
 */
import { HTTP_TOKEN } from './content-negotiation.js';

/** A header line that is not `name: value`; `line` is its start, for the message. */
export class HeaderLineError extends Error {
  constructor(readonly line: string) {
    super(`"${line.slice(0, 40)}" is not a header line`);
    this.name = 'HeaderLineError';
  }
}

/**
 * A value built by appending and trimming, in time linear in what was appended: the value is
 * `pieces[head..]` joined; trimming drops or shortens pieces at one end only.
 */
class Pieces {
  readonly #pieces: string[];
  #head = 0;

  constructor(first: string) {
    this.#pieces = [first];
  }

  append(...texts: string[]): void {
    this.#pieces.push(...texts);
  }

  /** As `String.prototype.trim` on the joined value: the same white space at either end. */
  trim(): void {
    const pieces = this.#pieces;
    while (this.#head < pieces.length) {
      const first = pieces[this.#head]!.trimStart();
      if (first !== '') {
        pieces[this.#head] = first;
        break;
      }
      this.#head++;
    }
    while (pieces.length > this.#head) {
      const last = pieces[pieces.length - 1]!.trimEnd();
      if (last !== '') {
        pieces[pieces.length - 1] = last;
        break;
      }
      pieces.pop();
    }
  }

  text(): string {
    return this.#pieces.slice(this.#head).join('');
  }
}

/**
 * The headers of a block (its lines separated by CRLF, without the blank line). Throws
 * `HeaderLineError` for a line that is neither `name: value` nor a folded continuation.
 *
 * @example
 * partHeaders('X-A: one\r\n two\r\nX-B: 1\r\nx-b: 2') // → { 'x-a': 'one two', 'x-b': '1, 2' }
 */
export function partHeaders(text: string): Record<string, string> {
  const values = new Map<string, Pieces>();
  let last: Pieces | undefined;
  for (const line of text.split('\r\n')) {
    // A line opening with white space continues the header before it (obsolete folding):
    // the value becomes `value + ' ' + line`, trimmed at both ends.
    if ((line.startsWith(' ') || line.startsWith('\t')) && last !== undefined) {
      last.append(' ', line.trim());
      last.trim();
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim().toLowerCase();
    if (!HTTP_TOKEN.test(name)) throw new HeaderLineError(line);
    const value = line.slice(colon + 1).trim();
    last = values.get(name);
    if (last === undefined) values.set(name, (last = new Pieces(value)));
    else last.append(', ', value);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of values) headers[name] = value.text();
  return headers;
}
