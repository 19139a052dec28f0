/**
 * Reads parameters that travel as more than one plain text (parameter-wire.ts has the forms)
 * from the raw path segments, query string, headers and cookies into the values the
 * validators check. Members and items stay text here; the validators decode numbers and
 * booleans by the schema. What does not read in its style is a `ParameterStyleError`.
 */
import { bodyKind } from './content-negotiation.js';
import { ParameterStyleError, type ParameterWire } from './parameter-wire.js';
import { cookieParts, decodeFormText, type HeaderMap } from './request-input.js';
import { parseJsonSafely, UnsafeInputError } from './safe-json.js';

/** The raw request parts, before any percent-decoding. */
export interface RawParameters {
  /** Path parameters as captured from the path (still percent-encoded). */
  readonly path: Readonly<Record<string, string>>;
  /** The query string without `?`. */
  readonly query: string;
  /** Headers by lower-case name (Node's `IncomingHttpHeaders` is one). */
  readonly headers: HeaderMap;
  readonly cookie: string | undefined;
}

/** The location maps the validators check, updated in place with the parsed parameters. */
export interface ParameterMaps {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  cookies: Record<string, unknown>;
}

type Pair = readonly [name: string, rawValue: string];
type Decode = (text: string) => string;

/** Query text: `+` is a space (HTML form encoding, as URLSearchParams reads it). */
function queryDecoder(parameter: ParameterWire): Decode {
  return (text) => {
    const decoded = decodeFormText(text);
    if (decoded === undefined) throw new ParameterStyleError(parameter, 'not valid percent-encoding');
    return decoded;
  };
}

function percentDecode(parameter: ParameterWire, text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ParameterStyleError(parameter, 'not valid percent-encoding');
  }
}

/** `a,1,b,2` → `{ a: '1', b: '2' }`. */
function pairsToObject(parameter: ParameterWire, parts: readonly string[], decode: Decode): Record<string, string> {
  if (parts.length % 2 !== 0) throw new ParameterStyleError(parameter, `an object in style ${parameter.style} is name,value pairs; got ${parts.length} items`);
  const out: Record<string, string> = {};
  for (let i = 0; i < parts.length; i += 2) defineMember(parameter, out, decode(parts[i]!), decode(parts[i + 1]!));
  return out;
}

/** `a=1`, `b=2` → `{ a: '1', b: '2' }`. */
function assignmentsToObject(parameter: ParameterWire, parts: readonly string[], decode: Decode): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 0) throw new ParameterStyleError(parameter, `an exploded object in style ${parameter.style} is name=value members; got "${part}"`);
    defineMember(parameter, out, decode(part.slice(0, eq)), decode(part.slice(eq + 1)));
  }
  return out;
}

function defineMember(parameter: ParameterWire, target: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') throw new ParameterStyleError(parameter, 'member name "__proto__" is not allowed');
  if (Object.prototype.hasOwnProperty.call(target, name)) throw new ParameterStyleError(parameter, `member "${name}" is given twice`);
  target[name] = value;
}

/**
 * An array or object sent as empty text (`color=`, `.`, `;color`, an empty header): an object
 * with no members, and a list of one empty item (the client sends `[]` as no parameter at all,
 * and `['']` as this text).
 */
function emptyOf(parameter: ParameterWire): unknown[] | Record<string, never> {
  return parameter.shape === 'array' ? [''] : {};
}

/** A value in the `simple` form (paths and headers), or after a label/matrix prefix. */
function simpleValue(parameter: ParameterWire, text: string, decode: Decode, itemSeparator: string): unknown {
  if (parameter.contentType !== undefined) return contentValue(parameter, decode(text));
  if (parameter.shape === 'primitive') return decode(text);
  if (text === '') return emptyOf(parameter);
  // Non-exploded objects are name,value pairs in every style; the rest split on the style's separator.
  const parts = text.split(parameter.shape === 'object' && !parameter.explode ? ',' : itemSeparator);
  if (parameter.shape === 'array') return parts.map(decode);
  return parameter.explode ? assignmentsToObject(parameter, parts, decode) : pairsToObject(parameter, parts, decode);
}

/**
 * A `content`-encoded value: JSON text is parsed with the limits bodies have (depth, no
 * `__proto__` member); other media types keep the text.
 */
function contentValue(parameter: ParameterWire, text: string): unknown {
  if (bodyKind(parameter.contentType!) !== 'json') return text;
  try {
    return parseJsonSafely(text);
  } catch (error) {
    if (!(error instanceof UnsafeInputError)) throw error;
    const why = error.message.startsWith('malformed JSON') ? '' : `: ${error.message}`;
    throw new ParameterStyleError(parameter, `not valid JSON (content ${parameter.contentType})${why}`);
  }
}

/**
 * The value of an OpenAPI 3.2 `querystring` parameter: the whole query string (without `?`),
 * percent-decoded and read by its media type (JSON text is parsed). Undefined when it is empty.
 */
export function querystringValue(parameter: ParameterWire, rawQuery: string): unknown {
  if (rawQuery === '') return undefined;
  return contentValue(parameter, percentDecode(parameter, rawQuery));
}

function pathValue(parameter: ParameterWire, raw: string): unknown {
  const decode: Decode = (text) => percentDecode(parameter, text);
  if (parameter.contentType !== undefined || parameter.style === 'simple') return simpleValue(parameter, raw, decode, ',');
  if (parameter.style === 'label') {
    if (!raw.startsWith('.')) throw new ParameterStyleError(parameter, 'style label starts with "."');
    return simpleValue(parameter, raw.slice(1), decode, parameter.explode ? '.' : ',');
  }
  if (parameter.style === 'matrix') return matrixValue(parameter, raw, decode);
  throw new ParameterStyleError(parameter, `style ${parameter.style} is not a path style`);
}

/** `;name=value` (or `;name` for empty text); exploded arrays repeat `;name=`, objects are `;k=v`. */
function matrixValue(parameter: ParameterWire, raw: string, decode: Decode): unknown {
  if (!raw.startsWith(';')) throw new ParameterStyleError(parameter, 'style matrix starts with ";"');
  const parts = raw.slice(1).split(';');
  if (parameter.shape === 'object' && parameter.explode) return assignmentsToObject(parameter, parts, decode);
  const values = parts.map((part) => {
    const eq = part.indexOf('=');
    const name = decode(eq < 0 ? part : part.slice(0, eq));
    if (name !== parameter.name) throw new ParameterStyleError(parameter, `style matrix names the parameter (";${parameter.name}="); got "${name}"`);
    return eq < 0 ? '' : part.slice(eq + 1);
  });
  if (parameter.shape === 'array' && parameter.explode) return values.map(decode);
  if (values.length !== 1) throw new ParameterStyleError(parameter, `given ${values.length} times; style matrix without explode gives it once`);
  return simpleValue(parameter, values[0]!, decode, ',');
}

/** Raw `name=value` pairs of a query string, names decoded, values still encoded. */
function queryPairs(query: string, decodeName: (text: string) => string): Pair[] {
  const out: Pair[] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    out.push([decodeName(eq < 0 ? part : part.slice(0, eq)), eq < 0 ? '' : part.slice(eq + 1)]);
  }
  return out;
}

const DELIMITER: Record<string, RegExp> = {
  form: /,/,
  spaceDelimited: /%20|\+| /i,
  pipeDelimited: /\|/,
};

/**
 * An object sent as pairs of its own (`c[R]=100`, or `R=100` exploded), each member named by
 * `memberOf` its pair's name; the pairs' names are consumed. Undefined when none was sent.
 */
function objectOfPairs(parameter: ParameterWire, members: readonly Pair[], memberOf: (name: string) => string, decode: Decode): { value: unknown; consumed: string[] } {
  if (members.length === 0) return { value: undefined, consumed: [] };
  const out: Record<string, string> = {};
  for (const [name, raw] of members) defineMember(parameter, out, memberOf(name), decode(raw));
  return { value: out, consumed: members.map(([name]) => name) };
}

/** Members of a form-exploded object: pairs no declared parameter names and no other parameter took. */
function explodedMembers(parameter: ParameterWire, pairs: readonly Pair[], claimed: ReadonlySet<string>, decode: Decode): { value: unknown; consumed: string[] } {
  return objectOfPairs(parameter, pairs.filter(([name]) => !claimed.has(name)), (name) => name, decode);
}

/** An object whose members are names of their own in the query or the Cookie header. */
function takesOwnNames(parameter: ParameterWire): boolean {
  return parameter.shape === 'object' && parameter.explode && parameter.contentType === undefined && (parameter.style === 'form' || parameter.in === 'cookie');
}

/**
 * The query value of one parameter, and the names it consumed (deepObject members,
 * form-exploded object members). `claimed`: names other parameters declare or consumed.
 */
function queryValue(parameter: ParameterWire, pairs: readonly Pair[], claimed: ReadonlySet<string>): { value: unknown; consumed: string[] } {
  const decode = queryDecoder(parameter);
  if (takesOwnNames(parameter)) return explodedMembers(parameter, pairs, claimed, decode);
  const own = pairs.filter(([name]) => name === parameter.name).map(([, raw]) => raw);
  if (parameter.contentType !== undefined) {
    if (own.length > 1) throw new ParameterStyleError(parameter, `given ${own.length} times; a content parameter is given once`);
    return { value: own.length === 0 ? undefined : contentValue(parameter, decode(own[0]!)), consumed: [] };
  }
  if (parameter.style === 'deepObject') {
    if (parameter.shape !== 'object') throw new ParameterStyleError(parameter, 'style deepObject carries only objects');
    const prefix = `${parameter.name}[`;
    const members = pairs.filter(([name]) => name.startsWith(prefix) && name.endsWith(']'));
    return objectOfPairs(parameter, members, (name) => name.slice(prefix.length, -1), decode);
  }
  if (own.length === 0) return { value: undefined, consumed: [] };
  // Exploded arrays repeat the name in every query style (spaceDelimited and pipeDelimited too).
  if (parameter.shape === 'array' && parameter.explode) return { value: own.map(decode), consumed: [] };
  if (parameter.shape === 'primitive') return { value: own.length === 1 ? decode(own[0]!) : own.map(decode), consumed: [] };
  if (own.length > 1) throw new ParameterStyleError(parameter, `given ${own.length} times; style ${parameter.style} without explode gives it once`);
  const separator = DELIMITER[parameter.style];
  if (separator === undefined) throw new ParameterStyleError(parameter, `style ${parameter.style} is not a query style`);
  if (own[0] === '') return { value: emptyOf(parameter), consumed: [] };
  const parts = own[0]!.split(separator);
  return { value: parameter.shape === 'array' ? parts.map(decode) : pairsToObject(parameter, parts, decode), consumed: [] };
}

/** Header text: no percent-encoding; list items may have optional whitespace around commas (RFC 9110). */
function headerValue(parameter: ParameterWire, header: string | readonly string[] | undefined): unknown {
  if (header === undefined) return undefined;
  const text = typeof header === 'string' ? header : header.join(', ');
  return simpleValue(parameter, text, (t) => t.trim(), ',');
}

/** Raw `name=value` pairs of a Cookie header (`cookieParts`), names percent-decoded where they decode. */
function cookiePairs(header: string | undefined): Pair[] {
  if (!header) return [];
  const out: Pair[] = [];
  for (const [name, value] of cookieParts(header)) {
    let decodedName = name;
    try {
      decodedName = decodeURIComponent(name);
    } catch {
      // Not percent-encoding: the name as sent.
    }
    out.push([decodedName, value]);
  }
  return out;
}

function cookieValue(parameter: ParameterWire, pairs: readonly Pair[], claimed: ReadonlySet<string>): { value: unknown; consumed: string[] } {
  // OpenAPI 3.2's `cookie` style sends values as written (RFC 6265), never percent-encoded.
  const decode: Decode = parameter.style === 'cookie' ? (text) => text : (text) => percentDecode(parameter, text);
  if (takesOwnNames(parameter)) return explodedMembers(parameter, pairs, claimed, decode);
  const own = pairs.filter(([name]) => name === parameter.name).map(([, raw]) => raw);
  if (own.length === 0) return { value: undefined, consumed: [] };
  if (parameter.shape === 'array' && parameter.explode && parameter.contentType === undefined) return { value: own.map(decode), consumed: [] };
  return { value: simpleValue(parameter, own[0]!, decode, ','), consumed: [] };
}

function put(target: Record<string, unknown>, name: string, value: unknown): void {
  if (value === undefined) delete target[name];
  else target[name] = value;
}

/**
 * Puts a query or cookie parameter's value in its map. The names it consumed (object members
 * sent under names of their own) leave the map and are claimed, so no later object takes them.
 */
function settle(target: Record<string, unknown>, claimed: Set<string>, name: string, read: { value: unknown; consumed: readonly string[] }): void {
  for (const member of read.consumed) {
    delete target[member];
    claimed.add(member);
  }
  put(target, name, read.value);
}

/** Query or cookie names a form-exploded object cannot take: every declared one. */
export interface DeclaredNames {
  readonly query: ReadonlySet<string>;
  readonly cookie: ReadonlySet<string>;
}

/** A query name as sent; one that is not valid percent-encoding is kept as sent (no parameter has it). */
function lenientQueryName(text: string): string {
  return decodeFormText(text) ?? text;
}

/**
 * Parses every listed parameter from `raw` into `maps` (replacing the plain text the maps
 * held for it; names an object consumed are removed). Objects whose members are names of
 * their own come last, so they take only what no other parameter took. Throws
 * `ParameterStyleError`.
 */
export function applyParameterStyles(parameters: readonly ParameterWire[], raw: RawParameters, maps: ParameterMaps, declared: DeclaredNames): void {
  let query: Pair[] | undefined;
  let cookies: Pair[] | undefined;
  const claimed = { query: new Set(declared.query), cookie: new Set(declared.cookie) };
  const ordered = [...parameters.filter((p) => !takesOwnNames(p)), ...parameters.filter(takesOwnNames)];
  for (const parameter of ordered) {
    switch (parameter.in) {
      case 'path': {
        const text = raw.path[parameter.name];
        if (text !== undefined) put(maps.path, parameter.name, pathValue(parameter, text));
        break;
      }
      case 'query': {
        query ??= queryPairs(raw.query, lenientQueryName);
        settle(maps.query, claimed.query, parameter.name, queryValue(parameter, query, claimed.query));
        break;
      }
      case 'header': {
        const name = parameter.name.toLowerCase();
        put(maps.headers, name, headerValue(parameter, raw.headers[name]));
        break;
      }
      case 'cookie': {
        cookies ??= cookiePairs(raw.cookie);
        settle(maps.cookies, claimed.cookie, parameter.name, cookieValue(parameter, cookies, claimed.cookie));
        break;
      }
    }
  }
}
