/**
 * A request the mock accepts, for any operation: path parameters, the required query
 * parameters, headers and cookies, credentials and a body, generated from the schemas (or
 * the spec's parameter examples) and checked by the generated validators. It gives the
 * start-up `curl` line, and tests a request per operation.
 */
import type { OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
import { styledCookiePairs, styledHeaderText, styledPathText, styledQueryPairs } from '@bank-data-sharing/wire';
import { parameterWire } from '../emit/validators/parameter-wire.js';
import { credentialsFor } from './credentials.js';
import type { LoadedApi } from './load-api.js';
import type { Checkable, SampleContext } from './loaded-modules.js';
import { signForMock } from './signed-bodies.js';

/** One request, ready to send. */
export interface SampledRequest {
  readonly operation: string;
  readonly method: string;
  /** Path and query below the API's prefix, percent-encoded. */
  readonly target: string;
  /** Lower-case names. */
  readonly headers: Record<string, string>;
  /** The body as sent, with its media type in `headers['content-type']`. */
  readonly body?: string;
}

export interface SampleRequestOptions {
  seed?: number;
  /** Dates are made near this time. */
  now?: number;
}

/** Tries per part of the request before keeping a value the validators refuse. */
const ATTEMPTS = 12;

/**
 * A valid request to operation `name` of a loaded API.
 *
 * @example
 * const req = sampleRequest(loaded, 'ListAccounts');
 * await fetch(`${url}${req.target}`, { method: req.method, headers: req.headers, body: req.body });
 */
export function sampleRequest(loaded: LoadedApi, name: string, options: SampleRequestOptions = {}): SampledRequest {
  const op = loaded.api.operations.find((o) => o.name === name);
  const schemas = loaded.validators.operations[name];
  if (!op || !schemas) throw new Error(`no operation named ${JSON.stringify(name)}`);
  const now = options.now ?? Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const seed = options.seed ?? 1;
  const jsonSampler = loaded.validators.jsonSchemas === undefined ? undefined : loaded.mockRuntime.jsonNodeSampler(loaded.validators.jsonSchemas)(now);
  const context = (label: string, attempt: number): SampleContext => ({
    schemas: loaded.model.schemas,
    random: loaded.random.seededRandom(seed).fork(`${name}\u0000${label}\u0000${attempt}`),
    now,
    direction: 'request',
    ...(jsonSampler ? { json: jsonSampler } : {}),
  });
  const sample = (node: SchemaNode, label: string, attempt: number, check: (value: unknown) => string | undefined = () => undefined, attempts = 6) =>
    loaded.sample.sampleValid(node, context(label, attempt), check, attempts);

  // Typed values, checked by the validators (they decode text, and take typed values as they are).
  const part = (location: ParameterIR['in'], check: Checkable): Map<ParameterIR, unknown> => {
    const params = op.parameters.filter((p) => p.in === location && (p.required || location === 'path'));
    let values = new Map<ParameterIR, unknown>();
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      values = new Map();
      for (const param of params) {
        const example = attempt === 0 ? param.examples[0] : undefined;
        values.set(param, example !== undefined ? example.value : sample(param.schema, `${location}:${param.name}`, attempt));
      }
      const keyed = Object.fromEntries([...values].map(([param, value]) => [location === 'header' ? param.name.toLowerCase() : param.name, value]));
      if (check.safeParse(keyed).success) break;
    }
    return values;
  };

  // On the wire as the client writes them: the wire model's serializers, by style and explode.
  const components = new Map(loaded.api.schemas.map((s) => [s.name, s.schema]));
  const wire = (param: ParameterIR) => parameterWire(param, components);
  const credentials = credentialsFor(op.security, loaded.api.securitySchemes);
  const pathValues = new Map([...part('path', schemas.request.path)].map(([param, value]) => [param.name, styledPathText(wire(param), value)]));
  const queryPairs = [...part('query', schemas.request.query)].flatMap(([param, value]) => styledQueryPairs(wire(param), value));
  for (const [key, value] of Object.entries(credentials.query)) for (const v of [value].flat()) queryPairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(v)}`);
  const headers: Record<string, string> = {};
  for (const [param, value] of part('header', schemas.request.headers)) headers[param.name.toLowerCase()] = styledHeaderText(wire(param), value);
  for (const [key, value] of Object.entries(credentials.headers)) headers[key.toLowerCase()] = [value].flat().join(',');
  const cookiePairs = [...part('cookie', schemas.request.cookies)].flatMap(([param, value]) => styledCookiePairs(wire(param), value));
  for (const [key, value] of Object.entries(credentials.cookies)) cookiePairs.push(`${key}=${[value].flat().join(',')}`);
  if (cookiePairs.length > 0) headers.cookie = cookiePairs.join('; ');

  const path = op.path.replace(/\{([^}]+)\}/g, (_m, param: string) => pathValues.get(param) ?? '');
  const queryText = queryPairs.join('&');
  const body = requestBody(op, schemas.request.body?.content ?? {}, (node, check, attempt) => sample(node, 'body', attempt, check, 24), loaded);
  if (body) headers['content-type'] = body.contentType;
  return { operation: name, method: op.method.toUpperCase(), target: `${path}${queryText ? `?${queryText}` : ''}`, headers, ...(body ? { body: body.text } : {}) };
}

type BodySampler = (node: SchemaNode, check: (value: unknown) => string | undefined, attempt: number) => unknown;

/**
 * A body for the operation: JSON where it takes JSON, else a form, else a signed body (made
 * with the mock's shared secret). None for other media types, or when there is no schema.
 */
function requestBody(op: OperationIR, content: Readonly<Record<string, Checkable>>, sample: BodySampler, loaded: LoadedApi): { contentType: string; text: string } | undefined {
  const kind = loaded.runtime.bodyKind;
  const media =
    op.requestBody?.content.find((m) => kind(m.contentType) === 'json') ??
    op.requestBody?.content.find((m) => kind(m.contentType) === 'form') ??
    op.requestBody?.content.find((m) => kind(m.contentType) === 'jwt');
  const check = media ? content[media.contentType] : undefined;
  if (!media?.schema || !check) return undefined;
  const problem = (value: unknown) => {
    const result = check.safeParse(value);
    return result.success ? undefined : (result.error?.issues[0]?.message ?? 'refused');
  };
  if (kind(media.contentType) === 'jwt') {
    // The claims must be in date for the signature check: the times are set here, not sampled.
    const inDate = (value: unknown) => {
      const now = Math.floor(Date.now() / 1000);
      if (value === null || typeof value !== 'object') return value;
      const claims = value as Record<string, unknown>;
      return { ...claims, iss: typeof claims.iss === 'string' ? claims.iss : 'mock-client', nbf: now, iat: now, exp: now + 300 };
    };
    let claims: unknown = {};
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const candidate = inDate(sample(media.schema, () => undefined, attempt));
      claims = candidate;
      if (problem(candidate) === undefined) break;
    }
    return { contentType: media.contentType, text: signForMock(claims !== null && typeof claims === 'object' ? (claims as Record<string, unknown>) : {}) };
  }
  const value = sample(media.schema, problem, 0);
  if (kind(media.contentType) === 'form') {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      for (const item of Array.isArray(v) ? v : [v]) form.append(k, typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
    }
    return { contentType: media.contentType, text: form.toString() };
  }
  return { contentType: media.contentType, text: JSON.stringify(value) };
}
