/**
 * Turns an operation and the caller's parameters into a URL, a `Cookie` header and header
 * parameters (the body is request-body.ts's). Nothing here talks to the network.
 */
import { listedIn, ParameterStyleError, parameterText, querystringText, styledCookiePairs, styledHeaderText, styledPathText, styledQueryPairs, type ParameterWire } from '@bank-data-sharing/wire';
import { RequestError } from './errors.js';
import type { ApiInfo } from './types.js';

/**
 * Writes a listed parameter in its style (`@bank-data-sharing/wire`'s parameter-serialize.ts),
 * reporting a value no form carries as the client reports every request it cannot send: a
 * `RequestError` naming the operation.
 */
function inStyle<T>(operationId: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof ParameterStyleError) throw new RequestError(`${operationId}: ${error.message}`);
    throw error;
  }
}

/** Parameters as a generated method receives them (see `ParamsOf`). */
export interface RequestParams {
  path?: Readonly<Record<string, unknown>>;
  query?: Readonly<Record<string, unknown>>;
  headers?: Readonly<Record<string, unknown>>;
  cookies?: Readonly<Record<string, unknown>>;
  body?: unknown;
  contentType?: string;
}

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

/** A path template as every call fills it: literal text already encoded, and its parameters. */
interface PathTemplate {
  /** The literal pieces, one more than `parameters`: the text before, between and after them. */
  readonly literals: readonly string[];
  readonly parameters: ReadonlyArray<{
    readonly name: string;
    /** The parameter is a whole segment (`/{id}/`, `/{id}` at the end): it cannot be `.` or `..`. */
    readonly wholeSegment: boolean;
  }>;
}

/** Templates are the generated operations' own, a fixed set: each is read once, not per call. */
const templates = new Map<string, PathTemplate>();

function pathTemplate(template: string): PathTemplate {
  let known = templates.get(template);
  if (known === undefined) {
    const parts = template.split(/(\{[^}]+\})/);
    const literals = parts.filter((_, i) => i % 2 === 0).map((part) => part.replace(NOT_IN_PATH, (c) => encodeURIComponent(c)));
    const parameters = literals.slice(1).map((next, k) => ({
      name: parts[2 * k + 1]!.slice(1, -1),
      // URLs remove the dot segments `.` and `..`.
      wholeSegment: literals[k]!.endsWith('/') && (next.startsWith('/') || (next === '' && k + 2 === literals.length)),
    }));
    known = { literals, parameters };
    templates.set(template, known);
  }
  return known;
}

/**
 * Fills `{name}` segments, percent-encoding each value (listed parameters in their style,
 * see `inStyle`); literal text that is not valid in a path (`#`, `?`, spaces) is encoded too.
 */
export function fillPath(template: string, values: Readonly<Record<string, unknown>> | undefined, operationId: string, wire?: readonly ParameterWire[]): string {
  const styled = listedIn(wire, 'path');
  const { literals, parameters } = pathTemplate(template);
  let out = literals[0]!;
  parameters.forEach(({ name, wholeSegment }, k) => {
    const value = values?.[name];
    if (value === undefined || value === null || value === '') throw new RequestError(`${operationId}: path parameter "${name}" is required`);
    const parameter = styled?.get(name);
    const filled = parameter ? inStyle(operationId, () => styledPathText(parameter, value)) : encodeURIComponent(parameterText(value));
    if (wholeSegment && (filled === '.' || filled === '..')) throw new RequestError(`${operationId}: path parameter "${name}" is the segment "${filled}", which URLs remove`);
    out += filled + literals[k + 1]!;
  });
  return out;
}

/**
 * Query string in the OpenAPI default style (`form`, exploded: arrays repeat the name); listed
 * parameters in their own style (see `inStyle`).
 */
export function queryString(values: Readonly<Record<string, unknown>> | undefined, wire?: readonly ParameterWire[], operationId = ''): string {
  if (!values) return '';
  // OpenAPI 3.2 `in: querystring`: the whole query string is the one value, in its media type.
  const whole = listedIn(wire, 'querystring')?.values().next().value;
  if (whole !== undefined) return `?${inStyle(operationId, () => querystringText(whole, values))}`;
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
    if (parameter) pairs.push(...inStyle(operationId, () => styledQueryPairs(parameter, value)));
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
      return parameter ? inStyle(operationId, () => styledCookiePairs(parameter, v)) : [`${k}=${encodeURIComponent(parameterText(v))}`];
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
    out[name] = parameter && value !== undefined && value !== null ? inStyle(operationId, () => styledHeaderText(parameter, value)) : value;
  }
  return out;
}
