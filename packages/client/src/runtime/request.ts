/**
 * Turns an operation and the caller's parameters into a URL and a body. Nothing here
 * talks to the network.
 */
import { RequestError } from './errors.js';
import { describeValue, encodeMultipart, encodeUrlEncoded, type FormLayout } from './form-encode.js';
import { defaultRequestContentType, isFormType, isJsonType, isJwtType, isMultipartType, isTextType, mediaTypeOf } from './media-types.js';
import type { ApiInfo } from './types.js';
import { listedIn, styledCookiePairs, styledHeaderText, styledPathText, styledQueryPairs, parameterText, type ParameterWire } from './parameters.js';

/** Parameters as a generated method receives them (see `ParamsOf`). */
export interface RequestParams {
  path?: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, unknown>>;
  headers?: Readonly<Record<string, unknown>>;
  cookies?: Readonly<Record<string, unknown>>;
  body?: unknown;
  contentType?: string;
}

/** Signs the claims of a signed request body (`application/jwt`) and returns a compact JWS. */
export type RequestSigner = (claims: Readonly<Record<string, unknown>>, context: { operationId: string }) => Promise<string>;

/**
 * The base URL requests go to: `baseUrl` as given; else `origin` + the spec's path prefix;
 * else the spec's first server when it is absolute.
 */
export function resolveBaseUrl(api: ApiInfo, options: { baseUrl?: string; origin?: string }): string {
  if (options.baseUrl !== undefined) return options.baseUrl.replace(/\/+$/, '');
  if (options.origin !== undefined) return `${options.origin.replace(/\/+$/, '')}${api.pathPrefix}`;
  const absolute = api.servers.find((s) => /^https?:\/\//i.test(s));
  if (absolute !== undefined) return absolute.replace(/\/+$/, '');
  throw new RequestError(
    `${api.title} ${api.version}: the spec's server is a path (${api.pathPrefix || '/'}), so the client needs \`baseUrl\` or \`origin\``,
  );
}

/** Characters a path template's literal text cannot carry as they are (`#` would start a fragment). */
const NOT_IN_PATH = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g;

/**
 * Fills `{name}` segments, percent-encoding each value (listed parameters in their style,
 * parameters.ts); literal text that is not valid in a path (`#`, `?`, spaces) is encoded too.
 */
export function fillPath(template: string, values: Readonly<Record<string, unknown>> | undefined, operationId: string, wire?: readonly ParameterWire[]): string {
  const styled = listedIn(wire, 'path');
  const parts = template.split(/(\{[^}]+\})/);
  return parts
    .map((part, i) => {
      if (i % 2 === 0) return part.replace(NOT_IN_PATH, (c) => encodeURIComponent(c));
      const name = part.slice(1, -1);
      const value = values?.[name];
      if (value === undefined || value === null || value === '') throw new RequestError(`${operationId}: path parameter "${name}" is required`);
      const parameter = styled?.get(name);
      const filled = parameter ? styledPathText(parameter, value, operationId) : encodeURIComponent(parameterText(value));
      // URLs remove the dot segments `.` and `..`: a parameter that is a whole segment cannot be one.
      const next = parts[i + 1]!;
      const wholeSegment = parts[i - 1]!.endsWith('/') && (next.startsWith('/') || (next === '' && i + 2 >= parts.length));
      if (wholeSegment && (filled === '.' || filled === '..')) throw new RequestError(`${operationId}: path parameter "${name}" is the segment "${filled}", which URLs remove`);
      return filled;
    })
    .join('');
}

/**
 * Query string in the OpenAPI default style (`form`, exploded: arrays repeat the name); listed
 * parameters in their own style (parameters.ts).
 */
export function queryString(values: Readonly<Record<string, unknown>> | undefined, wire?: readonly ParameterWire[], operationId = ''): string {
  if (!values) return '';
  const styled = listedIn(wire, 'query');
  if (styled === undefined) {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined || value === null) continue;
      if (Array.isArray(value)) for (const item of value) search.append(name, parameterText(item));
      else search.append(name, parameterText(value));
    }
    const out = search.toString();
    return out === '' ? '' : `?${out}`;
  }
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    const parameter = styled.get(name);
    if (parameter) pairs.push(...styledQueryPairs(parameter, value, operationId));
    else for (const item of Array.isArray(value) ? value : [value]) pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(parameterText(item))}`);
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

export function buildUrl(baseUrl: string, template: string, params: RequestParams, operationId: string, wire?: readonly ParameterWire[]): string {
  return `${baseUrl}${fillPath(template, params.path, operationId, wire)}${queryString(params.query, wire, operationId)}`;
}

/** `Cookie` header from cookie parameters (listed ones in their style), or undefined when there are none. */
export function cookieHeader(values: Readonly<Record<string, unknown>> | undefined, wire?: readonly ParameterWire[], operationId = ''): string | undefined {
  if (!values) return undefined;
  const styled = listedIn(wire, 'cookie');
  const pairs = Object.entries(values)
    .filter(([, v]) => v !== undefined && v !== null)
    .flatMap(([k, v]) => {
      const parameter = styled?.get(k);
      return parameter ? styledCookiePairs(parameter, v, operationId) : [`${k}=${encodeURIComponent(parameterText(v))}`];
    });
  return pairs.length > 0 ? pairs.join('; ') : undefined;
}

/** Header parameters with the listed ones written in style `simple`; others as given. */
export function headerParameters(values: Readonly<Record<string, unknown>> | undefined, wire: readonly ParameterWire[] | undefined, operationId: string): Readonly<Record<string, unknown>> | undefined {
  const styled = listedIn(wire, 'header');
  if (!values || styled === undefined) return values;
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const parameter = styled.get(name.toLowerCase());
    out[name] = parameter && value !== undefined && value !== null ? styledHeaderText(parameter, value, operationId) : value;
  }
  return out;
}

export interface EncodedBody {
  contentType: string;
  body: string | Uint8Array | Blob | FormData;
}

function isBytes(value: unknown): value is Uint8Array | Blob | ArrayBuffer {
  return value instanceof Uint8Array || value instanceof ArrayBuffer || (typeof Blob !== 'undefined' && value instanceof Blob);
}

/** The members of a body object that are files or bytes (directly, or as items of a list). */
function binaryMembers(body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || isBytes(body)) return [];
  return Object.entries(body)
    .filter(([, member]) => isBytes(member) || (Array.isArray(member) && member.some(isBytes)))
    .map(([name]) => name);
}

/**
 * The declared content type to send a body in when the caller names none: one that can carry
 * its bytes or files (a binary type, multipart) before the JSON the default prefers, where
 * a Blob would become `{}`.
 */
function contentTypeFor(declared: readonly string[], body: unknown): string | undefined {
  if (isBytes(body)) {
    const binary = declared.find((type) => !isJsonType(type) && !isJwtType(type) && !isFormType(type) && !isMultipartType(type) && !isTextType(type));
    if (binary !== undefined) return binary;
  } else if (binaryMembers(body).length > 0) {
    const multipart = declared.find(isMultipartType);
    if (multipart !== undefined) return multipart;
  }
  return defaultRequestContentType(declared, body);
}

/** JSON has no bytes: a Blob would be sent as `{}` and a Uint8Array as an object of indexes. */
function refuseBinaryAsJson(value: unknown, contentType: string, operationId: string): void {
  if (isBytes(value)) throw new RequestError(`${operationId}: the body cannot be sent as ${contentType}: bytes have no JSON form (send them as a binary or multipart type)`);
  const [member] = binaryMembers(value);
  if (member !== undefined) throw new RequestError(`${operationId}: body member "${member}" cannot be sent as ${contentType}: a file or bytes have no JSON form (send it as multipart/form-data)`);
}

/** The form layout of `contentType`, matched as a media type (a caller may add `; charset=utf-8` or write other case). */
function layoutFor(encoding: Readonly<Record<string, FormLayout>> | undefined, contentType: string): FormLayout | undefined {
  if (encoding === undefined) return undefined;
  const wanted = mediaTypeOf(contentType);
  const declared = Object.keys(encoding).find((type) => mediaTypeOf(type) === wanted);
  return declared === undefined ? undefined : encoding[declared];
}

/**
 * Encodes the body in the content type chosen (by the caller or from the declared ones):
 * JSON, a signed JWT, form fields and multipart parts (by `encoding`, the body's form layouts
 * by media type), text, or bytes. A value the media type cannot carry is a `RequestError`.
 */
export async function encodeBody(
  declared: readonly string[],
  params: RequestParams,
  operationId: string,
  signer: RequestSigner | undefined,
  encoding?: Readonly<Record<string, FormLayout>>,
): Promise<EncodedBody | undefined> {
  if (params.body === undefined) return undefined;
  const contentType = params.contentType ?? contentTypeFor(declared, params.body);
  if (contentType === undefined) throw new RequestError(`${operationId}: the operation takes no request body`);
  const value = params.body;
  if (isJwtType(contentType)) {
    if (typeof value === 'string') return { contentType, body: value };
    if (!signer) throw new RequestError(`${operationId}: a signed body needs \`signRequest\` in the client options (or a compact JWS string)`);
    return { contentType, body: await signer(value as Record<string, unknown>, { operationId }) };
  }
  if (isJsonType(contentType)) {
    refuseBinaryAsJson(value, contentType, operationId);
    return { contentType, body: JSON.stringify(value) };
  }
  const context = { operationId, mediaType: contentType };
  if (isFormType(contentType)) {
    if (value instanceof URLSearchParams) return { contentType, body: value.toString() };
    return { contentType, body: encodeUrlEncoded(value, layoutFor(encoding, contentType), context) };
  }
  if (isMultipartType(contentType)) {
    if (value instanceof FormData) return { contentType, body: value };
    return { contentType, body: encodeMultipart(value, layoutFor(encoding, contentType), context) };
  }
  if (value instanceof FormData) return { contentType, body: value };
  if (isBytes(value)) return { contentType, body: value instanceof ArrayBuffer ? new Uint8Array(value) : value };
  if (typeof value === 'string') return { contentType, body: value };
  if (isTextType(contentType) && (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')) return { contentType, body: String(value) };
  const expected = isTextType(contentType) ? 'text (a string)' : 'bytes (Uint8Array, ArrayBuffer or Blob) or a string';
  throw new RequestError(`${operationId}: the body cannot be sent as ${contentType}: expected ${expected}, got ${describeValue(value)}`);
}
