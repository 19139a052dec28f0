/**
 * A request the mock accepts, for any operation: path parameters, the required query
 * parameters, headers and cookies, credentials and a body, generated from the schemas (or
 * the spec's parameter examples) and checked by the generated validators. It gives the
 * start-up `curl` line, tests a request per operation, and is where `codegen test` starts
 * from: the request is first made as typed parts (`sampleRequestParts`), which a test can
 * change in one place, then written on the wire (`serializeRequest`).
 */
import type { OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
import { encodeUrlEncoded, formParts, querystringText, sequenceEncodingOf, sequenceFormat, sequenceItemOf, sequenceWriter, styledCookiePairs, styledHeaderText, styledPathText, styledQueryPairs, type FormLayout } from '@bank-data-sharing/wire';
import { parameterWire } from '../ir/parameter-wire.js';
import { credentialsFor, type RequestCredentials } from './credentials.js';
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

/** A parameter's value: typed (written in its style), or text already as it goes on the wire. */
export type PartValue = { readonly value: unknown } | { readonly raw: string };

/** The body: a typed value written in its media type, or text sent as it is. */
export type BodyPart = { readonly contentType: string; readonly value: unknown } | { readonly contentType: string; readonly raw: string };

/** A request before it is written: what a test changes in one place. */
export interface RequestParts {
  readonly operation: string;
  /** By parameter name as declared (a header's name in any case). */
  readonly path: Readonly<Record<string, PartValue>>;
  readonly query: Readonly<Record<string, PartValue>>;
  readonly header: Readonly<Record<string, PartValue>>;
  readonly cookie: Readonly<Record<string, PartValue>>;
  readonly credentials: RequestCredentials;
  readonly body?: BodyPart;
  /** Sent last, over everything else (lower-case names). */
  readonly extraHeaders?: Readonly<Record<string, string>>;
}

export interface SampleRequestOptions {
  seed?: number;
  /** Dates are made near this time. */
  now?: number;
  /** Also give optional parameters a value, each with even odds (default false). */
  optional?: boolean;
  /** Use the spec's parameter examples where it has them (default true). */
  examples?: boolean;
  /** A value to use for a parameter instead of a generated one (undefined: generate). */
  known?: (param: ParameterIR) => unknown;
  /** Credentials to send (default: the mock's, for the operation's first security alternative). */
  credentials?: RequestCredentials;
  /** The request media type to write the body in, where the operation takes it (default: JSON, then form, multipart, signed). */
  contentType?: string;
}

/** Tries per part of the request before keeping a value the validators refuse. */
const ATTEMPTS = 12;

type Location = ParameterIR['in'];
const LOCATIONS: readonly Location[] = ['path', 'query', 'header', 'cookie'];

/** The operation and its generated schemas, or an error naming what is missing. */
export function operationOf(loaded: LoadedApi, name: string): OperationIR {
  const op = loaded.api.operations.find((o) => o.name === name);
  if (!op || !loaded.validators.operations[name]) throw new Error(`no operation named ${JSON.stringify(name)}`);
  return op;
}

/**
 * A valid request to operation `name` of a loaded API.
 *
 * @example
 * const req = sampleRequest(loaded, 'ListAccounts');
 * await fetch(`${url}${req.target}`, { method: req.method, headers: req.headers, body: req.body });
 */
export function sampleRequest(loaded: LoadedApi, name: string, options: SampleRequestOptions = {}): SampledRequest {
  return serializeRequest(loaded, sampleRequestParts(loaded, name, options));
}

/**
 * A sampled request as a generated client takes it: the parameters by place, typed, and the
 * body with its media type. Credentials are left to the client's `credentials` option.
 */
export interface SampledCallInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  headers?: Record<string, unknown>;
  cookies?: Record<string, unknown>;
  body?: unknown;
  contentType?: string;
}

/** `parts` as a client's call input (a raw part, which only invalid requests have, as its text). */
export function callInputOf(parts: RequestParts): SampledCallInput {
  const values = (place: Readonly<Record<string, PartValue>>): Record<string, unknown> | undefined => {
    const entries = Object.entries(place);
    return entries.length === 0 ? undefined : Object.fromEntries(entries.map(([name, part]) => [name, 'value' in part ? part.value : part.raw]));
  };
  const input: SampledCallInput = {};
  const path = values(parts.path);
  const query = values(parts.query);
  const headers = values(parts.header);
  const cookies = values(parts.cookie);
  if (path) input.path = path;
  if (query) input.query = query;
  if (headers) input.headers = headers;
  if (cookies) input.cookies = cookies;
  if (parts.body) {
    input.body = 'value' in parts.body ? parts.body.value : parts.body.raw;
    input.contentType = parts.body.contentType;
  }
  return input;
}

/** A valid request to operation `name`, as typed parts (see `serializeRequest`). */
export function sampleRequestParts(loaded: LoadedApi, name: string, options: SampleRequestOptions = {}): RequestParts {
  const op = operationOf(loaded, name);
  const schemas = loaded.validators.operations[name]!;
  const now = options.now ?? Math.floor(Date.now() / 86_400_000) * 86_400_000;
  const seed = options.seed ?? 1;
  const useExamples = options.examples ?? true;
  const jsonSampler = loaded.validators.jsonSchemas === undefined ? undefined : loaded.mockRuntime.jsonNodeSampler(loaded.validators.jsonSchemas)(now);
  const random = loaded.random.seededRandom(seed);
  const context = (label: string, attempt: number): SampleContext => ({
    schemas: loaded.model.schemas,
    random: random.fork(`${name}\u0000${label}\u0000${attempt}`),
    now,
    direction: 'request',
    ...(jsonSampler ? { json: jsonSampler } : {}),
  });
  const sample = (node: SchemaNode, label: string, attempt: number, check: (value: unknown) => string | undefined = () => undefined, attempts = 6) =>
    loaded.sample.sampleValid(node, context(label, attempt), check, attempts);
  const chooser = random.fork(`${name}\u0000optional`);

  // Typed values, checked by the validators (they decode text, and take typed values as they are).
  const part = (location: Location, check: Checkable): Record<string, PartValue> => {
    const params = op.parameters.filter((p) => p.in === location && (p.required || location === 'path' || (options.optional === true && chooser.next() < 0.5)));
    let values: Record<string, PartValue> = {};
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      values = {};
      for (const param of params) {
        const known = attempt === 0 ? options.known?.(param) : undefined;
        const example = attempt === 0 && useExamples ? param.examples[0] : undefined;
        const value = known !== undefined ? known : example !== undefined ? example.value : sample(param.schema, `${location}:${param.name}`, attempt);
        // null has no text of its own in a path, query, header or cookie (the client leaves such a
        // parameter out, and "null" would arrive as that string): an optional one is left out.
        if (value === null && !param.required) continue;
        values[param.name] = { value };
      }
      const sendable = Object.values(values).every((v) => !('value' in v) || (v.value !== null && (location !== 'path' || carriesText(v.value))));
      if (sendable && check.safeParse(typedObject(location, values)).success) break;
    }
    return values;
  };

  // OpenAPI 3.2 `in: querystring` (JSON): one value is the whole query, checked as the query part.
  const wholeQuery = (check: Checkable): Record<string, PartValue> => {
    const whole = querystringParameter(op)!;
    let value: unknown;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const example = attempt === 0 && useExamples ? whole.examples[0] : undefined;
      value = example !== undefined ? example.value : sample(whole.schema, `querystring:${whole.name}`, attempt);
      if (check.safeParse(value).success) break;
    }
    return { [whole.name]: { value } };
  };

  const checks = schemas.request;
  const body = requestBody(op, checks.body?.content ?? {}, (node, check, attempt) => sample(node, 'body', attempt, check, 24), loaded, options.contentType);
  return {
    operation: name,
    path: part('path', checks.path),
    query: querystringParameter(op) ? wholeQuery(checks.query) : part('query', checks.query),
    header: part('header', checks.headers),
    cookie: part('cookie', checks.cookies),
    credentials: options.credentials ?? credentialsFor(op.security, loaded.api.securitySchemes),
    ...(body ? { body } : {}),
  };
}

/** The operation's OpenAPI 3.2 `querystring` parameter (JSON: the generator reads a form one as query parameters). */
export function querystringParameter(op: OperationIR): ParameterIR | undefined {
  return op.parameters.find((p) => p.in === 'querystring');
}

/** The query part as the validators check it: the whole value of a `querystring` parameter, else the typed object. */
export function typedQuery(op: OperationIR, values: Readonly<Record<string, PartValue>>): unknown {
  const whole = querystringParameter(op);
  if (!whole) return typedObject('query', values);
  const part = values[whole.name];
  return part === undefined ? undefined : 'raw' in part ? part.raw : part.value;
}

/** The typed values of one location, keyed as the validators key them (headers in lower case). */
export function typedObject(location: Location, values: Readonly<Record<string, PartValue>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, part] of Object.entries(values)) out[location === 'header' ? name.toLowerCase() : name] = 'raw' in part ? part.raw : part.value;
  return out;
}

/**
 * The request on the wire, as the generated client writes it: each parameter in its style
 * (the wire model's serializers), credentials where their schemes say, the body in its
 * media type (a signed body with `options.sign`, else with the mock's shared secret).
 */
export function serializeRequest(loaded: LoadedApi, parts: RequestParts, options: { sign?: (claims: Record<string, unknown>) => string } = {}): SampledRequest {
  const op = operationOf(loaded, parts.operation);
  const components = new Map(loaded.api.schemas.map((s) => [s.name, s.schema]));
  const params = new Map(LOCATIONS.map((location) => [location, new Map(op.parameters.filter((p) => p.in === location).map((p) => [p.name, p]))]));
  const wireOf = (location: Location, name: string) => {
    const param = params.get(location)!.get(name);
    return param ? parameterWire(param, components) : undefined;
  };

  const pathValues = new Map<string, string>();
  for (const [name, part] of Object.entries(parts.path)) {
    const wire = wireOf('path', name);
    pathValues.set(name, 'raw' in part || !wire ? rawText(part) : styledPathText(wire, part.value));
  }
  const queryPairs: string[] = [];
  const whole = querystringParameter(op);
  for (const [name, part] of Object.entries(parts.query)) {
    if (whole && name === whole.name) {
      queryPairs.push('raw' in part ? part.raw : querystringText(parameterWire(whole, components), part.value));
      continue;
    }
    const wire = wireOf('query', name);
    if ('raw' in part || !wire) queryPairs.push(`${encodeURIComponent(name)}=${rawText(part)}`);
    else queryPairs.push(...styledQueryPairs(wire, part.value));
  }
  for (const [key, value] of Object.entries(parts.credentials.query)) for (const v of [value].flat()) queryPairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(v)}`);
  const headers: Record<string, string> = {};
  for (const [name, part] of Object.entries(parts.header)) {
    const wire = wireOf('header', name);
    headers[name.toLowerCase()] = 'raw' in part || !wire ? rawText(part) : styledHeaderText(wire, part.value);
  }
  for (const [key, value] of Object.entries(parts.credentials.headers)) headers[key.toLowerCase()] = [value].flat().join(',');
  const cookiePairs: string[] = [];
  for (const [name, part] of Object.entries(parts.cookie)) {
    const wire = wireOf('cookie', name);
    if ('raw' in part || !wire) cookiePairs.push(`${name}=${rawText(part)}`);
    else cookiePairs.push(...styledCookiePairs(wire, part.value));
  }
  for (const [key, value] of Object.entries(parts.credentials.cookies)) cookiePairs.push(`${key}=${[value].flat().join(',')}`);
  if (cookiePairs.length > 0) headers.cookie = cookiePairs.join('; ');

  const path = op.path.replace(/\{([^}]+)\}/g, (_m, param: string) => pathValues.get(param) ?? '');
  const queryText = queryPairs.join('&');
  const body = parts.body ? bodyText(loaded, parts.operation, parts.body, options.sign ?? signForMock) : undefined;
  if (body) headers['content-type'] = body.contentType;
  for (const [key, value] of Object.entries(parts.extraHeaders ?? {})) headers[key.toLowerCase()] = value;
  return { operation: parts.operation, method: op.method.toUpperCase(), target: `${path}${queryText ? `?${queryText}` : ''}`, headers, ...(body ? { body: body.text } : {}) };
}

/**
 * Whether a path parameter's value writes any text: an empty string, array or object writes
 * none (or only a style's prefix, the segment "." of label style), which no URL can carry.
 */
function carriesText(value: unknown): boolean {
  if (value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

function rawText(part: PartValue): string {
  return 'raw' in part ? part.raw : String(part.value);
}

type BodySampler = (node: SchemaNode, check: (value: unknown) => string | undefined, attempt: number) => unknown;

/** The body kinds a request can be made in, in the order they are preferred. */
export const BODY_KINDS = ['json', 'form', 'multipart', 'jwt'] as const;

/**
 * A body for the operation: JSON where it takes JSON, else a form, else multipart, else a
 * signed body (made with the mock's shared secret). None for other media types, or when
 * there is no schema.
 */
function requestBody(op: OperationIR, content: Readonly<Record<string, Checkable>>, sample: BodySampler, loaded: LoadedApi, preferred?: string): BodyPart | undefined {
  const kind = loaded.runtime.bodyKind;
  let media = preferred === undefined ? undefined : op.requestBody?.content.find((m) => m.contentType === preferred && m.schema !== undefined);
  for (const wanted of BODY_KINDS) media ??= op.requestBody?.content.find((m) => kind(m.contentType) === wanted && m.schema !== undefined);
  if (!media) return sequenceBody(op, content, sample);
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
    return { contentType: media.contentType, value: claims };
  }
  return { contentType: media.contentType, value: sample(media.schema, problem, 0) };
}

/** How many items a sampled sequence body holds. */
const SEQUENCE_ITEMS = 3;

/** A sequence body (OpenAPI 3.2 `itemSchema`, e.g. JSON Lines) of a few valid items, where the operation takes one. */
function sequenceBody(op: OperationIR, content: Readonly<Record<string, Checkable>>, sample: BodySampler): BodyPart | undefined {
  const media = op.requestBody?.content.find((m) => m.itemSchema !== undefined && sequenceFormat(m.contentType) !== undefined);
  const check = media ? sequenceItemOf<Checkable>(content[media.contentType]) : undefined;
  if (!media?.itemSchema || !check) return undefined;
  const problem = (value: unknown) => {
    const result = check.safeParse(value);
    return result.success ? undefined : (result.error?.issues[0]?.message ?? 'refused');
  };
  return { contentType: media.contentType, value: Array.from({ length: SEQUENCE_ITEMS }, (_, i) => sample(media.itemSchema!, problem, i)) };
}

/** A fixed boundary: the same request, the same bytes. */
const BOUNDARY = 'bds-codegen-boundary-7MA4YWxkTrZu0gW';

/** The body's text and the `Content-Type` it goes with. */
function bodyText(loaded: LoadedApi, operation: string, body: BodyPart, sign: (claims: Record<string, unknown>) => string): { contentType: string; text: string } {
  if ('raw' in body) return { contentType: body.contentType, text: body.raw };
  const kind = loaded.runtime.bodyKind(body.contentType);
  const value = body.value;
  const format = sequenceFormat(body.contentType);
  if (format !== undefined && Array.isArray(value)) {
    // Each item in the format (for multipart/mixed, a part in its declared encoding, under the fixed boundary).
    const schema = (loaded.validators.operations[operation]?.request.body as { content?: Record<string, unknown> } | undefined)?.content?.[body.contentType];
    const writer = sequenceWriter(format, body.contentType, { encoding: sequenceEncodingOf(schema), boundary: BOUNDARY });
    const pieces = [...value.map((item) => writer.item(item)), writer.end()];
    return { contentType: writer.contentType, text: pieces.map((piece) => (typeof piece === 'string' ? piece : new TextDecoder().decode(piece))).join('') };
  }
  if (kind === 'jwt') return { contentType: body.contentType, text: sign(value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {}) };
  const layouts = (loaded.validators.operations[operation]?.request.body as { encoding?: Record<string, FormLayout> } | undefined)?.encoding;
  const layout = layouts?.[body.contentType];
  if (kind === 'form') return { contentType: body.contentType, text: encodeUrlEncoded(value ?? {}, layout, body.contentType) };
  if (kind === 'multipart') {
    const lines: string[] = [];
    for (const [name, part] of formParts(value ?? {}, layout, body.contentType)) {
      const file = typeof part !== 'string';
      lines.push(`--${BOUNDARY}`, `Content-Disposition: form-data; name="${name.replace(/"/g, '%22')}"${file ? '; filename="blob"' : ''}`);
      if (file) lines.push('Content-Type: application/octet-stream');
      lines.push('', file ? '' : part);
    }
    lines.push(`--${BOUNDARY}--`, '');
    return { contentType: `${body.contentType.split(';')[0]}; boundary=${BOUNDARY}`, text: lines.join('\r\n') };
  }
  return { contentType: body.contentType, text: JSON.stringify(value) };
}
