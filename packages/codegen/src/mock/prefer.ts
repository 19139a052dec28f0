/**
 * The `Prefer` request header (RFC 7240) as Prism's mock server reads it, so that teams
 * moving from Prism keep their habits: `code=404`, `example=name`, `dynamic=true|false`,
 * several in one header or in several, separated by commas.
 */

/** What a request prefers. Absent members leave the server's default. */
export interface MockPreferences {
  /** The status wanted: matched exactly, then by range (`4XX`), then `default`. */
  code?: number;
  /** The spec's example of this name. */
  example?: string;
  /** True: generated data; false: the spec's examples where they validate. */
  dynamic?: boolean;
}

/** A preference the mock understands, with a value it cannot take. */
export class PreferError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreferError';
  }
}

/** Splits on `sep` outside double quotes (a backslash inside quotes escapes the next character). */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  // Slices between separators, not a string grown a character at a time: a 1 MiB header is
  // read in a few milliseconds.
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && quoted && i + 1 < text.length) {
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === sep && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** A token or a quoted-string (RFC 9110 §5.6.4), unquoted. */
function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(.)/g, '$1');
  return v;
}

/**
 * The preferences of a `Prefer` header. Preferences it does not know (`return=minimal`,
 * `respond-async`) are ignored, as RFC 7240 §2 asks; of one named twice, the first counts.
 * A known one with a wrong value is a `PreferError` naming it.
 *
 * @example
 * parsePrefer('code=404, example="not found"') // { code: 404, example: 'not found' }
 */
export function parsePrefer(header: string | readonly string[] | undefined): MockPreferences {
  const text = Array.isArray(header) ? header.join(', ') : (header as string | undefined);
  const out: MockPreferences = {};
  if (text === undefined) return out;
  for (const entry of splitOutsideQuotes(text, ',')) {
    // Parameters after `;` qualify a preference; none of ours takes any.
    const [head = ''] = splitOutsideQuotes(entry, ';');
    const eq = head.indexOf('=');
    const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? '' : unquote(head.slice(eq + 1));
    if (name === 'code' && out.code === undefined) {
      if (!/^[1-5]\d\d$/.test(value)) throw new PreferError(`Prefer: code=${value} is not an HTTP status (use a number such as code=404)`);
      out.code = Number(value);
    } else if (name === 'example' && out.example === undefined) {
      if (value === '') throw new PreferError('Prefer: example= needs the name of one of the spec\'s examples');
      out.example = value;
    } else if (name === 'dynamic' && out.dynamic === undefined) {
      // A bare `dynamic` asks for it, as a flag would.
      const flag = eq < 0 ? 'true' : value.toLowerCase();
      if (flag !== 'true' && flag !== 'false') throw new PreferError(`Prefer: dynamic=${value} takes true or false`);
      out.dynamic = flag === 'true';
    }
  }
  return out;
}
