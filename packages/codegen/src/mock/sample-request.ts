/**
 * A request the mock accepts, for any operation: path parameters, the required query
 * parameters, headers and cookies, credentials and a body, generated from the schemas (or
 * the spec's parameter examples) and checked by the generated validators. It gives the
 * start-up `curl` line, and tests a request per operation.
 */
import type { OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
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

type Wire = string | string[];

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

  const part = (location: ParameterIR['in'], check: Checkable): Record<string, Wire> => {
    const params = op.parameters.filter((p) => p.in === location && (p.required || location === 'path'));
    let values: Record<string, Wire> = {};
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      values = {};
      for (const param of params) {
        const example = attempt === 0 ? param.examples[0] : undefined;
        const value = example !== undefined ? example.value : sample(param.schema, `${location}:${param.name}`, attempt);
        Object.assign(values, wireValues(param, value));
      }
      const keyed = location === 'header' ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k.toLowerCase(), v])) : values;
      if (check.safeParse(keyed).success) break;
    }
    return values;
  };

  const credentials = credentialsFor(op.security, loaded.api.securitySchemes);
  const pathValues = part('path', schemas.request.path);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...part('query', schemas.request.query), ...credentials.query })) {
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, v);
  }
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...part('header', schemas.request.headers), ...credentials.headers })) headers[key.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  const cookies = { ...part('cookie', schemas.request.cookies), ...credentials.cookies };
  if (Object.keys(cookies).length > 0) headers.cookie = Object.entries(cookies).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`).join('; ');

  const path = op.path.replace(/\{([^}]+)\}/g, (_m, param: string) => {
    const value = pathValues[param];
    return encodeURIComponent(Array.isArray(value) ? value.join(',') : (value ?? ''));
  });
  const queryText = query.toString();
  const body = requestBody(op, schemas.request.body?.content ?? {}, (node, check, attempt) => sample(node, 'body', attempt, check, 24), loaded);
  if (body) headers['content-type'] = body.contentType;
  return { operation: name, method: op.method.toUpperCase(), target: `${path}${queryText ? `?${queryText}` : ''}`, headers, ...(body ? { body: body.text } : {}) };
}

/** A parameter's value as it travels (OpenAPI 3 `style` and `explode`): its name(s) and text(s). */
function wireValues(param: ParameterIR, value: unknown): Record<string, Wire> {
  if (param.contentType !== undefined) return { [param.name]: JSON.stringify(value) };
  const text = (v: unknown) => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  if (Array.isArray(value)) {
    if (param.in === 'query' && param.explode && param.style === 'form') return { [param.name]: value.map(text) };
    const separator = param.style === 'spaceDelimited' ? ' ' : param.style === 'pipeDelimited' ? '|' : ',';
    return { [param.name]: value.map(text).join(separator) };
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (param.in === 'query' && param.style === 'deepObject') return Object.fromEntries(entries.map(([k, v]) => [`${param.name}[${k}]`, text(v)]));
    if (param.in === 'query' && param.explode) return Object.fromEntries(entries.map(([k, v]) => [k, text(v)]));
    return { [param.name]: entries.flatMap(([k, v]) => [k, text(v)]).join(',') };
  }
  return { [param.name]: text(value) };
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
