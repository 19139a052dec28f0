/**
 * Serializes parameters that travel as more than one plain text: the OpenAPI 3.0/3.1 styles
 * (`simple`, `label`, `matrix`, `form`, `spaceDelimited`, `pipeDelimited`, `deepObject`) with
 * and without `explode`, for arrays and objects; `content`-encoded values (JSON text);
 * `allowReserved`. The forms are parameter-wire.ts's; parameter-parse.ts reads exactly these
 * forms back.
 *
 * What no form can carry unambiguously is refused here with a `ParameterStyleError` naming
 * the parameter, rather than sent to arrive as another value:
 * - header items and members (headers are not percent-encoded) holding the `,` delimiter,
 *   characters a header cannot carry, or leading/trailing whitespace (HTTP drops it);
 * - `spaceDelimited` items holding a space (an encoded space is the delimiter itself);
 * - object members that are not primitives (no style nests), and `deepObject` for non-objects;
 * - null items and members (their text "null" would read back as that string);
 * - exploded `label` items and members holding `.`, the delimiter (`%2E` is the same
 *   character to URLs: RFC 3986 normalization decodes it);
 * - path segments that are `.` or `..` (URLs remove them; the client's request.ts refuses those).
 * Other delimiters inside values are percent-encoded, so they read back as data. Empty arrays
 * and objects are sent as nothing (RFC 6570: undefined).
 */
import { isHeaderText } from './header-text.js';
import { ParameterStyleError, type ParameterWire } from './parameter-wire.js';

function fail(parameter: ParameterWire, rule: string): never {
  throw new ParameterStyleError(parameter, rule);
}

/** A parameter value as text: dates as RFC 3339, objects (content parameters) as JSON. */
export function parameterText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function contentText(parameter: ParameterWire, value: unknown): string {
  return /[/+]json\s*(;|$)/i.test(parameter.contentType!) ? JSON.stringify(value) : parameterText(value);
}

/** Reserved characters `allowReserved` sends as they are; `&`, `#` and `+` never (they would end or change the value). */
const KEPT_RESERVED = /%(3A|2F|3F|5B|5D|40|24|2C|3B|3D)/gi;

/** Percent-encodes one piece of a value; `delimiter` (when given) stays encoded even with `allowReserved`. */
function encoder(parameter: ParameterWire, delimiter?: string): (value: string) => string {
  if (!parameter.allowReserved) return encodeURIComponent;
  const keep = (match: string): string => {
    const char = decodeURIComponent(match);
    return char === delimiter ? match : char;
  };
  return (value) => encodeURIComponent(value).replace(KEPT_RESERVED, keep);
}

/** Items of an array parameter as text. */
function itemsOf(parameter: ParameterWire, value: unknown): string[] {
  if (!Array.isArray(value)) fail(parameter, 'expected an array');
  return value.map((item, i) => {
    if (item === null || item === undefined) fail(parameter, `item ${i} is ${String(item)}, which no style can carry`);
    if (typeof item === 'object' && !(item instanceof Date)) fail(parameter, 'array items must be primitives (no style nests)');
    return parameterText(item);
  });
}

/** Members of an object parameter as [name, text] pairs, absent members left out. */
function membersOf(parameter: ParameterWire, value: unknown): Array<[string, string]> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(parameter, 'expected an object');
  const out: Array<[string, string]> = [];
  for (const [name, member] of Object.entries(value)) {
    if (member === undefined) continue;
    if (member === null) fail(parameter, `member "${name}" is null, which no style can carry`);
    if (typeof member === 'object' && !(member instanceof Date)) fail(parameter, `member "${name}" must be a primitive (no style nests)`);
    out.push([name, parameterText(member)]);
  }
  return out;
}

/** The text of a path segment's parameter (`blue`, `.blue`, `;color=blue`...). */
function pathText(parameter: ParameterWire, value: unknown): string {
  const enc = encoder(parameter);
  if (parameter.contentType !== undefined) return enc(contentText(parameter, value));
  const { style, explode, name } = parameter;
  const assign = (key: string, v: string): string => (v === '' ? `;${key}` : `;${key}=${v}`);
  if (style === 'label' && explode && parameter.shape !== 'primitive') refuseDots(parameter, value);
  if (parameter.shape === 'array') {
    const items = itemsOf(parameter, value).map(enc);
    if (style === 'label') return `.${items.join(explode ? '.' : ',')}`;
    if (style === 'matrix') return explode ? items.map((item) => assign(enc(name), item)).join('') : assign(enc(name), items.join(','));
    return items.join(',');
  }
  if (parameter.shape === 'object') {
    const members = membersOf(parameter, value).map(([k, v]) => [enc(k), enc(v)] as const);
    const flat = members.flat().join(',');
    if (style === 'label') return `.${explode ? members.map(([k, v]) => `${k}=${v}`).join('.') : flat}`;
    if (style === 'matrix') return explode ? members.map(([k, v]) => `;${k}=${v}`).join('') : assign(enc(name), flat);
    return explode ? members.map(([k, v]) => `${k}=${v}`).join(',') : flat;
  }
  const single = enc(parameterText(value));
  if (style === 'label') return `.${single}`;
  if (style === 'matrix') return assign(enc(name), single);
  return single;
}

function refuseDots(parameter: ParameterWire, value: unknown): void {
  const pieces = Array.isArray(value) ? value.map(parameterText) : membersOf(parameter, value).flat();
  if (pieces.some((p) => p.includes('.'))) fail(parameter, 'an exploded label item or member cannot hold ".", the delimiter (URLs read %2E as ".")');
}

/** Fills one `{name}` of a path template with a listed parameter. */
export function styledPathText(parameter: ParameterWire, value: unknown): string {
  const out = pathText(parameter, value);
  if (out === '') fail(parameter, 'serializes to empty text, which no path segment can carry');
  return out;
}

const QUERY_DELIMITER: Record<string, string> = { form: ',', spaceDelimited: '%20', pipeDelimited: '|' };

/** The `name=value` pairs (already encoded) of a query's listed parameter, to join with `&`. */
export function styledQueryPairs(parameter: ParameterWire, value: unknown): string[] {
  const { style, explode } = parameter;
  const name = encodeURIComponent(parameter.name);
  if (parameter.contentType !== undefined) return [`${name}=${encoder(parameter)(contentText(parameter, value))}`];
  if (style === 'deepObject') {
    if (parameter.shape !== 'object') fail(parameter, 'style deepObject carries only objects');
    const enc = encoder(parameter);
    return membersOf(parameter, value).map(([k, v]) => `${name}[${encodeURIComponent(k)}]=${enc(v)}`);
  }
  const delimiter = QUERY_DELIMITER[style];
  if (delimiter === undefined) fail(parameter, `style ${style} is not a query style`);
  const delimited = !explode && parameter.shape !== 'primitive';
  const enc = encoder(parameter, delimited && style === 'form' ? ',' : undefined);
  const checkSpaces = (pieces: string[]): string[] => {
    if (style === 'spaceDelimited' && delimited && pieces.some((p) => p.includes(' '))) {
      fail(parameter, 'a spaceDelimited item cannot hold a space (the encoded space is the delimiter)');
    }
    return pieces;
  };
  if (parameter.shape === 'array') {
    const items = checkSpaces(itemsOf(parameter, value));
    if (items.length === 0) return [];
    return explode ? items.map((item) => `${name}=${enc(item)}`) : [`${name}=${items.map(enc).join(delimiter)}`];
  }
  if (parameter.shape === 'object') {
    const members = membersOf(parameter, value);
    if (members.length === 0) return [];
    if (explode) return members.map(([k, v]) => `${encodeURIComponent(k)}=${enc(v)}`);
    return [`${name}=${checkSpaces(members.flat()).map(enc).join(delimiter)}`];
  }
  return [`${name}=${enc(parameterText(value))}`];
}

/** A header's value in style `simple` (not percent-encoded: what cannot be sent is refused). */
export function styledHeaderText(parameter: ParameterWire, value: unknown): string {
  const piece = (t: string, what: string, delimiters: string): string => {
    if (!isHeaderText(t)) fail(parameter, `${what} "${t}" cannot travel in a header (control or non-Latin-1 characters, or whitespace at an end)`);
    for (const d of delimiters) if (t.includes(d)) fail(parameter, `${what} "${t}" holds "${d}", the delimiter of style simple; headers are not percent-encoded`);
    return t;
  };
  if (parameter.contentType !== undefined) return piece(contentText(parameter, value), 'the value', '');
  if (parameter.shape === 'array') return itemsOf(parameter, value).map((item) => piece(item, 'item', ',')).join(',');
  if (parameter.shape === 'object') {
    const members = membersOf(parameter, value).map(([k, v]) => [piece(k, 'member name', parameter.explode ? ',=' : ','), piece(v, 'member value', ',')] as const);
    return parameter.explode ? members.map(([k, v]) => `${k}=${v}`).join(',') : members.flat().join(',');
  }
  return piece(parameterText(value), 'the value', '');
}

/**
 * The whole query string (without `?`) of an OpenAPI 3.2 `querystring` parameter: its value
 * in its media type (JSON text), percent-encoded.
 */
export function querystringText(parameter: ParameterWire, value: unknown): string {
  return encodeURIComponent(contentText(parameter, value));
}

/**
 * RFC 6265 cookie-octets, less the `,` that separates list items: what OpenAPI 3.2's `cookie`
 * style can send, since it escapes nothing (a value needing escapes must be given escaped).
 */
const COOKIE_TEXT = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

function cookieText(parameter: ParameterWire): (text: string) => string {
  return (text) => {
    if (!COOKIE_TEXT.test(text)) fail(parameter, `"${text}" cannot travel in style cookie, which escapes nothing: give it already escaped (no whitespace, quotes, commas, semicolons or backslashes)`);
    return text;
  };
}

/** The `name=value` pairs of a listed cookie parameter, to join with `; ` (styles `form` and `cookie`). */
export function styledCookiePairs(parameter: ParameterWire, value: unknown): string[] {
  const enc = parameter.style === 'cookie' ? cookieText(parameter) : encodeURIComponent;
  const name = parameter.name;
  if (parameter.contentType !== undefined) return [`${name}=${enc(contentText(parameter, value))}`];
  if (parameter.shape === 'array') {
    const items = itemsOf(parameter, value);
    if (items.length === 0) return [];
    return parameter.explode ? items.map((item) => `${name}=${enc(item)}`) : [`${name}=${items.map(enc).join(',')}`];
  }
  if (parameter.shape === 'object') {
    const members = membersOf(parameter, value);
    if (members.length === 0) return [];
    if (parameter.explode) return members.map(([k, v]) => `${enc(k)}=${enc(v)}`);
    return [`${name}=${members.flat().map(enc).join(',')}`];
  }
  return [`${name}=${enc(parameterText(value))}`];
}
