/**
 * Writing `multipart/mixed` (RFC 2046 §5.1) a part at a time, for a body whose parts are not
 * known up front. Each part is written with the delimiter after it, so a reader can hand it
 * out at once instead of waiting for the next part; `end()` then closes the body.
 */
import { HTTP_TOKEN } from './content-negotiation.js';
import { indexOfBytes, joinBytes, latin1Bytes } from './bytes.js';
import { isHeaderText } from './header-text.js';
import { isMultipartBoundary, MultipartMixedError } from './multipart-mixed-read.js';

const BOUNDARY_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A boundary of 32 random characters: content cannot guess it, so none holds it by design. */
export function newMultipartBoundary(): string {
  const random = new Uint8Array(28);
  const source = (globalThis as { crypto?: { getRandomValues?: (array: Uint8Array) => Uint8Array } }).crypto;
  if (typeof source?.getRandomValues === 'function') source.getRandomValues(random);
  else for (let i = 0; i < random.length; i++) random[i] = Math.floor(Math.random() * 256);
  let text = 'bds-';
  for (const byte of random) text += BOUNDARY_ALPHABET[byte % BOUNDARY_ALPHABET.length];
  return text;
}

/**
 * Writes the parts of one `multipart/mixed` body. Header names must be tokens and values
 * header text (no line break can slip in); a body holding the boundary is refused
 * (`MultipartMixedError`), which a random boundary makes all but impossible.
 *
 * @example
 * const writer = new MultipartMixedEncoder();
 * res.setHeader('content-type', writer.contentType());
 * res.write(writer.part({ 'Content-Type': 'text/plain' }, new TextEncoder().encode('hi')));
 * res.end(writer.end());
 */
export class MultipartMixedEncoder {
  readonly boundary: string;
  readonly #dashBoundary: Uint8Array;
  /** What ends every part: CRLF and the dash-boundary. */
  readonly #delimiter: Uint8Array;
  #parts = 0;
  #ended = false;

  constructor(boundary: string = newMultipartBoundary()) {
    if (!isMultipartBoundary(boundary)) throw new MultipartMixedError(`"${boundary}" is not a multipart boundary (1 to 70 characters of those RFC 2046 allows)`);
    this.boundary = boundary;
    this.#dashBoundary = latin1Bytes(`--${boundary}`);
    this.#delimiter = latin1Bytes(`\r\n--${boundary}`);
  }

  /** The body's Content-Type: `mediaType` (`multipart/mixed` by default) with the boundary. */
  contentType(mediaType = 'multipart/mixed'): string {
    return `${mediaType.trim()}; boundary=${/^[0-9A-Za-z'+_\-.]+$/.test(this.boundary) ? this.boundary : `"${this.boundary}"`}`;
  }

  /** How many parts were written. */
  get parts(): number {
    return this.#parts;
  }

  /** One part: its opening, `headers` in the order given, a blank line, `body`, and its delimiter. */
  part(headers: Readonly<Record<string, string>>, body: Uint8Array): Uint8Array {
    if (this.#ended) throw new MultipartMixedError('the body was already ended');
    const part = this.#parts + 1;
    let head = this.#parts === 0 ? `--${this.boundary}\r\n` : '\r\n';
    for (const [name, value] of Object.entries(headers)) {
      if (!HTTP_TOKEN.test(name)) throw new MultipartMixedError(`part ${part}: "${name}" is not a header name`, part);
      if (!isHeaderText(value)) throw new MultipartMixedError(`part ${part}: the value of header ${name} is not header text (a line break, or a character beyond Latin-1)`, part);
      head += `${name}: ${value}\r\n`;
    }
    if (indexOfBytes(body, this.#dashBoundary) >= 0) throw new MultipartMixedError(`part ${part}: its body holds the boundary`, part);
    this.#parts++;
    return joinBytes([latin1Bytes(`${head}\r\n`), body, this.#delimiter]);
  }

  /** The close delimiter (after the last part's delimiter, or alone for a body of no part). */
  end(): Uint8Array {
    if (this.#ended) return new Uint8Array(0);
    this.#ended = true;
    return latin1Bytes(this.#parts === 0 ? `--${this.boundary}--\r\n` : '--\r\n');
  }
}
