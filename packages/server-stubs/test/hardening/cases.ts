/**
 * Requests for the bad-input suite: for each operation, a valid request built from the
 * validators' `operations` entry (method, path parameters, query, headers, body media
 * types), then broken one way at a time.
 *
 * Whether a broken request is still valid is decided by the same generated validators the
 * router uses (the "oracle"): a request whose parts the spec rejects must be refused (4xx),
 * one it accepts must succeed (2xx). Breakages below the level of parameters (malformed
 * JSON, media types, `__proto__`, sizes, nesting, percent-encoding, methods, paths) state
 * their own expectation.
 */
import { SignJWT } from 'jose';
import type { z } from 'zod';
import { compilePaths, matchPath, type OperationSchemas } from '../../src/runtime/index.js';

type CompiledPath = ReturnType<typeof compilePaths>[number];
import type { Prng } from './prng.js';
import { core, defOf, getAt, REMOVE, sampleString, sampleValid, setAt, stringFacts, type JsonPath, type LeafInfo, type Sample } from './schema-sample.js';

export type Version = 'v2.2' | 'v2.1';

/** A request exactly as it goes on the wire. */
export interface WireRequest {
  method: string;
  /** Path and query, already encoded (or deliberately mis-encoded). */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Send the body with chunked transfer encoding instead of Content-Length. */
  chunked?: boolean;
}

export const KINDS = [
  'valid',
  'wrong-type',
  'missing-required',
  'datetime-offset',
  'max-length',
  'unknown-enum',
  'extra-property',
  'repeated-param',
  'header',
  'auth',
  'accept',
  'malformed-json',
  'content-type',
  'proto',
  'oversized',
  'deep-nesting',
  'percent-encoding',
  'method',
  'path',
  'signed-body',
  'body-on-get',
] as const;
export type Kind = (typeof KINDS)[number];

export interface Case {
  /** `v2.2 GetAccounts #17` */
  id: string;
  version: Version;
  op: OperationSchemas;
  kind: Kind;
  /** What was broken, in words (for the failure report). */
  detail: string;
  request: WireRequest;
  /** `success`: must be answered 2xx; `reject`: must be answered 4xx; `any`: either. */
  expect: 'success' | 'reject' | 'any';
  /** When known: the statuses that are right for this case. */
  statuses?: readonly number[];
  /** The path or method was broken: 404 and 405 are acceptable even where the operation does not declare them. */
  routing: boolean;
  /** Why the oracle says the request is invalid (for the report). */
  reasons?: string[];
}

/** Keys and clock for signed request bodies. */
export interface SigningEnv {
  tppPrivate: CryptoKey;
  /** A key the server does not know. */
  otherPrivate: CryptoKey;
  nowSeconds: number;
}

interface ModelBody {
  /** The spec media type the body is sent as. */
  contentType: string;
  kind: 'json' | 'jwt';
  /** The JSON form (for `jwt`: the `message` claim). */
  value: unknown;
  sample: Sample;
  /** The schema `value` is judged by (for `jwt`: the claims schema, judged with the claims). */
  schema: z.ZodType;
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  /** How the token is signed (`jwt` only). */
  signer?: 'tpp' | 'other' | 'none' | 'hs256';
}

/** A request as a set of parts, before rendering. */
export interface Model {
  op: OperationSchemas;
  prefix: string;
  path: Record<string, string>;
  query: Array<[string, string]>;
  headers: Record<string, string>;
  body?: ModelBody;
}

const DATE_TIME_VARIANTS = [
  '2025-03-14T09:30:00-00:00',
  '2025-03-14T09:30:00-00:00',
  '2025-03-14T09:30:00+0400',
  '2025-03-14T09:30:00+04',
  '2025-03-14T09:30:00',
  '2025-03-14 09:30:00Z',
  '2025-03-14t09:30:00z',
  '2025-02-30T09:30:00Z',
  '2025-03-14T24:00:00Z',
  '2025-03-14T09:60:00Z',
  '2025-03-14T09:30:00-13:00',
  '2025-03-14T09:30:00+24:00',
  '2025-03-14T09:30:00.Z',
  '2025-03-14T09:30:00,5Z',
  '20250314T093000Z',
  '2025-03-14T09:30:00Z ',
  '',
  // Valid encodings of instants: any offset, fractions of any precision.
  '2025-03-14T09:30:00.123456789+00:00',
  '2025-03-14T09:30:00-12:00',
  '2024-02-29T23:59:59Z',
];

const WRONG_TEXT = ['', 'maybe', '12345', 'null', '[]', '{}', 'TRUE', '1', '0', 'yes', '-1', '1e3', 'NaN', ' true', 'tomorrow', '2025-13-01'];
const WRONG_JSON: readonly unknown[] = [123, -1, 1.5, true, false, null, [], {}, 'x', '', [1, 2], { a: 1 }];

/** A version-4 UUID from the seeded generator. */
export function seededUuid(rng: Prng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = '89ab'[rng.int(0, 3)]!;
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  return defOf(core(schema)).shape ?? {};
}

function optionalMember(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
}

/** A text value a parameter schema (decoding text) accepts. */
function sampleParam(schema: z.ZodType, rng: Prng, name: string): string {
  for (const text of rng.shuffle(['true', 'false', '1', '2', '10'])) if (schema.safeParse(text).success && core(schema) !== schema) return text;
  return sampleString(core(schema), rng, [name]);
}

export function bodyKindOf(contentType: string): 'json' | 'jwt' | 'other' {
  const essence = contentType.split(';')[0]!.trim().toLowerCase();
  if (essence === 'application/jwt') return 'jwt';
  if (essence === 'application/json' || essence.endsWith('+json')) return 'json';
  return 'other';
}

/** Success media types the router can produce (it has a signing key, so `application/jwt` too). */
export function successTypes(op: OperationSchemas): string[] {
  return [
    ...new Set(
      Object.entries(op.responses)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, r]) => Object.keys(r.content)),
    ),
  ];
}

/** A valid request for `op`, parts chosen by `rng`. */
export function validModel(op: OperationSchemas, prefix: string, rng: Prng, env: SigningEnv): Model {
  const path: Record<string, string> = {};
  for (const [name, schema] of Object.entries(shapeOf(op.request.path))) path[name] = sampleParam(schema, rng, name);
  const query: Array<[string, string]> = [];
  for (const [name, schema] of Object.entries(shapeOf(op.request.query))) {
    if (optionalMember(schema) && !rng.chance(0.6)) continue;
    query.push([name, sampleParam(schema, rng, name)]);
  }
  const headers: Record<string, string> = { authorization: `Bearer hardening-${rng.int(1, 9)}` };
  for (const [name, schema] of Object.entries(shapeOf(op.request.headers))) {
    if (!optionalMember(schema) || rng.chance(0.5)) headers[name] = name === 'x-fapi-interaction-id' ? seededUuid(rng) : sampleParam(schema, rng, name);
  }
  const types = successTypes(op);
  const accept = rng.pick<string | undefined>([undefined, '*/*', ...types]);
  if (accept !== undefined) headers['accept'] = accept;

  let body: ModelBody | undefined;
  const content = op.request.body?.content;
  if (content) {
    const choices = Object.keys(content).filter((t) => bodyKindOf(t) !== 'other');
    const contentType = rng.pick(choices);
    const schema = content[contentType]!;
    if (bodyKindOf(contentType) === 'jwt') {
      const messageSchema = shapeOf(schema)['message'];
      if (!messageSchema) throw new Error(`${op.operationId}: the ${contentType} schema has no message claim`);
      const sample = sampleValid(messageSchema, rng);
      const claims: Record<string, unknown> = { iss: 'tpp-hardening', nbf: env.nowSeconds - 10, exp: env.nowSeconds + 600 };
      if (rng.chance(0.5)) claims['iat'] = env.nowSeconds - 5;
      body = { contentType, kind: 'jwt', value: sample.value, sample, schema, claims, header: { alg: 'ES256' }, signer: 'tpp' };
    } else {
      const sample = sampleValid(schema, rng);
      body = { contentType, kind: 'json', value: sample.value, sample, schema };
    }
  }
  return { op, prefix, path, query, headers, ...(body ? { body } : {}) };
}

/** Query parameters as the router decodes them (a repeated name becomes an array). */
export function queryObject(pairs: Iterable<[string, string]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const existing = out[name];
    out[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

function issues(result: { success: boolean; error?: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> } }, where: string): string[] {
  if (result.success) return [];
  return (result.error?.issues ?? []).slice(0, 3).map((i) => `${where} ${i.path.map(String).join('.')}: ${i.message}`);
}

/** Why the spec refuses the request (empty: the spec accepts it). The oracle. */
export function judge(m: Model, env: SigningEnv): string[] {
  const reasons: string[] = [];
  const auth = m.headers['authorization'];
  if (auth === undefined || !/^bearer +\S+ *$/i.test(auth.trim())) reasons.push('no valid bearer token');
  reasons.push(...issues(m.op.request.path.safeParse(m.path), 'path'));
  if (m.query.some(([name]) => name === '__proto__')) reasons.push('query name __proto__');
  reasons.push(...issues(m.op.request.query.safeParse(queryObject(m.query)), 'query'));
  reasons.push(...issues(m.op.request.headers.safeParse(m.headers), 'header'));
  const spec = m.op.request.body;
  if (spec?.required && !m.body) reasons.push('required body missing');
  if (m.body?.kind === 'json') reasons.push(...issues(m.body.schema.safeParse(m.body.value), 'body'));
  if (m.body?.kind === 'jwt') {
    const claims = { ...m.body.claims, message: m.body.value };
    reasons.push(...issues(m.body.schema.safeParse(claims), 'claims'));
    const c = m.body.claims ?? {};
    if (m.body.signer !== 'tpp') reasons.push(`signed by ${m.body.signer}`);
    if (typeof c['exp'] !== 'number' || c['exp'] < env.nowSeconds - 30) reasons.push('exp missing or past');
    if (typeof c['nbf'] !== 'number' || c['nbf'] > env.nowSeconds + 30) reasons.push('nbf missing or future');
    if (typeof c['iss'] !== 'string') reasons.push('iss missing');
  }
  return reasons;
}

function b64(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

async function signBody(body: ModelBody, env: SigningEnv): Promise<string> {
  const claims = { ...body.claims, message: body.value } as Record<string, unknown>;
  switch (body.signer) {
    case 'none':
      return `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`;
    case 'hs256':
      return new SignJWT(claims as never).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('a-shared-secret-of-thirty-two-bytes!'));
    default: {
      const header = body.header ?? {};
      // jose refuses to sign an unknown `crit` member unless told it is understood.
      const crit = Array.isArray(header['crit']) ? Object.fromEntries((header['crit'] as string[]).map((name) => [name, true])) : undefined;
      return new SignJWT(claims as never)
        .setProtectedHeader({ ...header, alg: 'ES256' })
        .sign(body.signer === 'other' ? env.otherPrivate : env.tppPrivate, crit ? { crit } : undefined);
    }
  }
}

function renderPath(m: Model, encode: (value: string) => string = encodeURIComponent): string {
  return m.prefix + m.op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encode(m.path[name] ?? ''));
}

function renderQuery(pairs: ReadonlyArray<[string, string]>): string {
  return pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** The wire form of a model. */
export async function render(m: Model, env: SigningEnv): Promise<WireRequest> {
  const headers = { ...m.headers };
  let body: Buffer | undefined;
  if (m.body) {
    const text = m.body.kind === 'jwt' ? await signBody(m.body, env) : JSON.stringify(m.body.value);
    body = Buffer.from(text, 'utf8');
    headers['content-type'] = m.body.contentType;
  }
  return { method: m.op.method.toUpperCase(), target: renderPath(m) + renderQuery(m.query), headers, ...(body ? { body } : {}) };
}

function clone(m: Model): Model {
  return {
    ...m,
    path: { ...m.path },
    query: m.query.map(([k, v]) => [k, v] as [string, string]),
    headers: { ...m.headers },
    ...(m.body ? { body: { ...m.body, value: structuredClone(m.body.value), ...(m.body.claims ? { claims: { ...m.body.claims } } : {}) } } : {}),
  };
}

/** What a mutation produced: a changed model (judged by the oracle) or raw bytes with their own expectation. */
type Mutation =
  | { model: Model; detail: string; statuses?: readonly number[]; routing?: boolean; expect?: Case['expect'] }
  | { raw: WireRequest; detail: string; expect: Case['expect']; statuses?: readonly number[]; routing?: boolean };

interface MutationContext {
  model: Model;
  rng: Prng;
  env: SigningEnv;
  /** Methods some operation defines on this path template. */
  methodsOnPath: ReadonlySet<string>;
  /** Every path template of the API, compiled (to build paths that match none). */
  templates: readonly CompiledPath[];
  /** `http://127.0.0.1:<port>` of the server under test. */
  origin: string;
}

type Mutator = (ctx: MutationContext) => Promise<Mutation | undefined> | Mutation | undefined;

function bodyLeaves(m: Model, filter: (leaf: LeafInfo) => boolean): LeafInfo[] {
  if (!m.body) return [];
  return m.body.sample.leaves.filter((leaf) => getAt(m.body!.value, leaf.path) !== undefined && filter(leaf));
}

function paramEntries(m: Model): Array<{ where: 'path' | 'query' | 'header'; name: string; schema: z.ZodType }> {
  const out: Array<{ where: 'path' | 'query' | 'header'; name: string; schema: z.ZodType }> = [];
  for (const [name, schema] of Object.entries(shapeOf(m.op.request.path))) out.push({ where: 'path', name, schema });
  for (const [name, schema] of Object.entries(shapeOf(m.op.request.query))) out.push({ where: 'query', name, schema });
  for (const [name, schema] of Object.entries(shapeOf(m.op.request.headers))) out.push({ where: 'header', name, schema });
  return out;
}

function setParam(m: Model, where: 'path' | 'query' | 'header', name: string, value: string | undefined): void {
  if (where === 'path') m.path[name] = value ?? '';
  else if (where === 'header') {
    if (value === undefined) delete m.headers[name];
    else m.headers[name] = value;
  } else {
    m.query = m.query.filter(([k]) => k !== name);
    if (value !== undefined) m.query.push([name, value]);
  }
}

function withBodyValue(m: Model, path: JsonPath, value: unknown): Model {
  const next = clone(m);
  next.body!.value = setAt(next.body!.value, path, value);
  return next;
}

/** Replaces the body text, keeping the request otherwise as rendered. */
async function rawBody(ctx: MutationContext, text: string | Buffer, contentType: string | undefined, extra: Record<string, string> = {}): Promise<WireRequest> {
  const wire = await render(ctx.model, ctx.env);
  const headers = { ...wire.headers, ...extra };
  delete headers['content-type'];
  if (contentType !== undefined) headers['content-type'] = contentType;
  return { ...wire, headers, body: Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8') };
}

function jsonBodyType(op: OperationSchemas): string | undefined {
  return Object.keys(op.request.body?.content ?? {}).find((t) => bodyKindOf(t) === 'json');
}

const MUTATORS: Record<Exclude<Kind, 'valid'>, Mutator> = {
  'wrong-type': ({ model, rng }) => {
    const leaves = bodyLeaves(model, (l) => l.kind !== 'other');
    const query = Object.keys(shapeOf(model.op.request.query));
    if (leaves.length > 0 && (query.length === 0 || rng.chance(0.6))) {
      const leaf = rng.pick(leaves);
      const current = getAt(model.body!.value, leaf.path);
      const value = rng.pick(WRONG_JSON.filter((v) => typeof v !== typeof current));
      return { model: withBodyValue(model, leaf.path, value), detail: `body ${leaf.path.join('.')} = ${JSON.stringify(value)}` };
    }
    if (model.body && rng.chance(0.3)) {
      const value = rng.pick<unknown>([null, [], 'x', 0, true]);
      return { model: withBodyValue(model, [], value), detail: `whole body = ${JSON.stringify(value)}` };
    }
    if (query.length === 0) {
      const next = clone(model);
      const header = rng.pick(['x-fapi-auth-date', 'x-fapi-interaction-id']);
      const value = rng.pick(WRONG_TEXT);
      next.headers[header] = value;
      return { model: next, detail: `header ${header} = ${JSON.stringify(value)}` };
    }
    const name = rng.pick(query);
    const value = rng.pick(WRONG_TEXT);
    const next = clone(model);
    setParam(next, 'query', name, value);
    return { model: next, detail: `query ${name} = ${JSON.stringify(value)}` };
  },

  'missing-required': ({ model, rng }) => {
    const options: Array<() => Mutation | undefined> = [
      () => {
        const next = clone(model);
        delete next.headers['authorization'];
        return { model: next, detail: 'no Authorization header', statuses: [401] };
      },
    ];
    const requiredQuery = Object.entries(shapeOf(model.op.request.query)).filter(([, s]) => !optionalMember(s));
    if (requiredQuery.length > 0) {
      options.push(() => {
        const [name] = rng.pick(requiredQuery);
        const next = clone(model);
        setParam(next, 'query', name, undefined);
        return { model: next, detail: `required query ${name} left out`, statuses: [400] };
      });
    }
    if (model.body) {
      options.push(() => {
        const next = clone(model);
        delete next.body;
        delete next.headers['content-type'];
        return { model: next, detail: 'required body left out', statuses: [400] };
      });
      const objects = model.body.sample.objects.filter((o) => o.required.length > 0 && getAt(model.body!.value, o.path) !== undefined);
      if (objects.length > 0) {
        options.push(() => {
          const o = rng.pick(objects);
          const key = rng.pick(o.required);
          return { model: withBodyValue(model, [...o.path, key], REMOVE), detail: `body ${[...o.path, key].join('.')} left out` };
        });
      }
      if (model.body.kind === 'jwt') {
        options.push(() => {
          const next = clone(model);
          const claim = rng.pick(['exp', 'nbf', 'iss']);
          delete next.body!.claims![claim];
          return { model: next, detail: `claim ${claim} left out`, statuses: [400] };
        });
      }
    }
    return rng.pick(options)();
  },

  'datetime-offset': ({ model, rng }) => {
    const params = paramEntries(model).filter((p) => defOf(core(p.schema)).type === 'string' && stringFacts(core(p.schema)).dateTime);
    const leaves = bodyLeaves(model, (l) => l.kind === 'string' && l.facts?.dateTime === true);
    if (params.length === 0 && leaves.length === 0) return undefined;
    const value = rng.pick(DATE_TIME_VARIANTS);
    if (leaves.length > 0 && (params.length === 0 || rng.chance(0.5))) {
      const leaf = rng.pick(leaves);
      return { model: withBodyValue(model, leaf.path, value), detail: `body ${leaf.path.join('.')} = ${JSON.stringify(value)}` };
    }
    const p = rng.pick(params);
    const next = clone(model);
    setParam(next, p.where, p.name, value);
    return { model: next, detail: `${p.where} ${p.name} = ${JSON.stringify(value)}` };
  },

  'max-length': ({ model, rng }) => {
    const params = paramEntries(model).filter((p) => defOf(core(p.schema)).type === 'string' && stringFacts(core(p.schema)).maxLength !== undefined);
    const leaves = bodyLeaves(model, (l) => l.kind === 'string' && l.facts?.maxLength !== undefined);
    if (params.length === 0 && leaves.length === 0) return undefined;
    const boundary = rng.chance(0.2); // exactly maxLength: valid
    if (leaves.length > 0 && (params.length === 0 || rng.chance(0.5))) {
      const leaf = rng.pick(leaves);
      const length = leaf.facts!.maxLength! + (boundary ? 0 : 1);
      return { model: withBodyValue(model, leaf.path, 'm'.repeat(length)), detail: `body ${leaf.path.join('.')} of ${length} characters (maxLength ${leaf.facts!.maxLength})` };
    }
    const p = rng.pick(params);
    const max = stringFacts(core(p.schema)).maxLength!;
    const next = clone(model);
    setParam(next, p.where, p.name, 'm'.repeat(max + (boundary ? 0 : 1)));
    return { model: next, detail: `${p.where} ${p.name} of ${max + (boundary ? 0 : 1)} characters (maxLength ${max})` };
  },

  'unknown-enum': ({ model, rng }) => {
    const leaves = bodyLeaves(model, (l) => l.kind === 'enum');
    if (leaves.length === 0) return undefined;
    const leaf = rng.pick(leaves);
    const known = String(getAt(model.body!.value, leaf.path));
    const value = rng.pick([`${known}X`, known.toLowerCase(), known.toUpperCase(), 'Unknown', '', ` ${known}`, `${known} `]);
    return { model: withBodyValue(model, leaf.path, value), detail: `body ${leaf.path.join('.')} = ${JSON.stringify(value)} (enum)` };
  },

  'extra-property': ({ model, rng }) => {
    const objects = model.body?.sample.objects.filter((o) => {
      const v = getAt(model.body!.value, o.path);
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    });
    const where = rng.pick<'body' | 'query' | 'header'>(objects && objects.length > 0 ? ['body', 'body', 'query', 'header'] : ['query', 'header']);
    const next = clone(model);
    if (where === 'body') {
      const o = rng.pick(objects!);
      const key = rng.pick(['Unexpected', 'extra', '$ref', 'constructor', 'toString', 'data']);
      next.body!.value = setAt(next.body!.value, [...o.path, key], rng.pick<unknown>([1, 'x', {}, null]));
      return { model: next, detail: `body ${[...o.path, key].join('.')} added (${o.strict ? 'closed' : 'open'} object)` };
    }
    if (where === 'query') {
      const name = rng.pick(['unknownParam', 'page', 'page-size', 'constructor', 'toString', 'fields']);
      next.query.push([name, rng.pick(['1', 'x', ''])]);
      return { model: next, detail: `query ${name} added` };
    }
    const name = rng.pick(['x-extra-header', 'x-fapi-financial-id', 'x-forwarded-for', 'x-request-id']);
    next.headers[name] = 'extra';
    return { model: next, detail: `header ${name} added` };
  },

  'repeated-param': ({ model, rng }) => {
    const names = Object.keys(shapeOf(model.op.request.query));
    const next = clone(model);
    if (names.length === 0) {
      next.query.push(['unknownParam', '1'], ['unknownParam', '2']);
      return { model: next, detail: 'unknown query parameter repeated' };
    }
    const name = rng.pick(names);
    const value = next.query.find(([k]) => k === name)?.[1] ?? sampleParam(shapeOf(model.op.request.query)[name]!, rng, name);
    setParam(next, 'query', name, value);
    next.query.push([name, value]);
    return { model: next, detail: `query ${name} sent twice` };
  },

  header: ({ model, rng }) => {
    const next = clone(model);
    const choice = rng.pick([
      ['x-fapi-interaction-id', 'not-a-uuid'],
      ['x-fapi-interaction-id', '0F8FAD5B-D9CB-469F-A165-70867728950E'],
      ['x-fapi-interaction-id', '0f8fad5bd9cb469fa16570867728950e'],
      ['x-fapi-interaction-id', '{0f8fad5b-d9cb-469f-a165-70867728950e}'],
      ['x-fapi-interaction-id', ''],
      ['x-fapi-auth-date', 'yesterday'],
      ['x-fapi-auth-date', '2025-03-14T09:30:00Z'],
      ['x-fapi-auth-date', 'Tue, 11 Mar 2025 10:00:00 PST'],
      ['x-fapi-auth-date', 'Tue, 11 Mar 2025 10:00:00 GMT'],
      ['x-fapi-customer-ip-address', 'not an address'],
      ['x-customer-user-agent', 'u'.repeat(6000)],
    ] as const);
    next.headers[choice[0]] = choice[1];
    return { model: next, detail: `header ${choice[0]} = ${JSON.stringify(choice[1].slice(0, 60))}` };
  },

  auth: ({ model, rng }) => {
    const next = clone(model);
    const value = rng.pick(['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'Token abc', 'bearer lower-case-scheme', 'BEARER upper', 'Bearer\tx', '']);
    next.headers['authorization'] = value;
    const valid = /^bearer +\S+ *$/i.test(value);
    return { model: next, detail: `Authorization: ${JSON.stringify(value)}`, ...(valid ? {} : { statuses: [401] }) };
  },

  accept: ({ model, rng }) => {
    const next = clone(model);
    const offered = successTypes(model.op);
    const value = rng.pick(['text/html', 'application/xml', 'image/png, text/*', 'application/jwt', 'application/*', '*/*', 'application/json;q=0, application/jwt;q=0']);
    next.headers['accept'] = value;
    const refused = ['text/html', 'application/xml', 'image/png, text/*', 'application/json;q=0, application/jwt;q=0'].includes(value) || (value === 'application/jwt' && !offered.includes('application/jwt'));
    if (refused && offered.length > 0) return { model: next, detail: `Accept: ${value}`, statuses: [406], expect: 'reject' };
    return { model: next, detail: `Accept: ${value}` };
  },

  'malformed-json': async (ctx) => {
    const type = jsonBodyType(ctx.model.op);
    if (!type || !ctx.model.body) return undefined;
    const valid = JSON.stringify(ctx.model.body.kind === 'json' ? ctx.model.body.value : {});
    const text = ctx.rng.pick<string | Buffer>([
      valid.slice(0, Math.max(1, Math.floor(valid.length / 2))),
      '{',
      '{"Data":}',
      "{'Data':1}",
      '{"a":1,}',
      `${valid}garbage`,
      'NaN',
      Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]),
      'null',
      '"just a string"',
      '[]',
    ]);
    if (ctx.rng.chance(0.1)) {
      // RFC 8259 §8.1: a parser MAY ignore a leading byte order mark. Either answer is right.
      return { raw: await rawBody(ctx, `\uFEFF${valid}`, type), detail: 'valid JSON after a UTF-8 byte order mark', expect: 'any' };
    }
    return { raw: await rawBody(ctx, text, type), detail: `body ${JSON.stringify(String(text).slice(0, 40))} as ${type}`, expect: 'reject', statuses: [400] };
  },

  'content-type': async (ctx) => {
    const { model, rng } = ctx;
    if (!model.body) return undefined;
    const declares415 = model.op.responses['415'] !== undefined;
    const unsupported = declares415 ? [415] : [400];
    const text = model.body.kind === 'json' ? JSON.stringify(model.body.value) : (await render(model, ctx.env)).body!.toString('utf8');
    const choice = rng.pick([
      ['text/plain', unsupported],
      ['application/xml', unsupported],
      ['application/x-www-form-urlencoded', unsupported],
      ['multipart/form-data; boundary=x', unsupported],
      [undefined, unsupported],
      ['application/jsonx', unsupported],
      ['application/vnd.api+json', undefined],
      ['application/json; charset=utf-16', undefined],
      ['application/json; charset=latin1', undefined],
      ['APPLICATION/JSON', undefined],
      ['application/jwt', undefined],
      ['gzip', unsupported],
    ] as const);
    const [type, statuses] = choice;
    if (type === 'gzip') {
      return { raw: await rawBody(ctx, text, model.body.contentType, { 'content-encoding': 'gzip' }), detail: 'Content-Encoding: gzip (body not compressed)', expect: 'reject', statuses: unsupported };
    }
    if (type === 'APPLICATION/JSON') {
      // The same media type in capitals: valid where JSON is accepted and the body is JSON.
      const ok = jsonBodyType(model.op) !== undefined && model.body.kind === 'json';
      return { raw: await rawBody(ctx, text, type), detail: 'Content-Type: APPLICATION/JSON', expect: ok ? 'success' : 'reject' };
    }
    const accepted = type !== undefined && Object.keys(model.op.request.body!.content).some((t) => t.split(';')[0]!.trim() === type.split(';')[0]!.trim());
    const expect: Case['expect'] = accepted && bodyKindOf(type) === model.body.kind && !type.includes('charset=') ? 'success' : 'reject';
    return { raw: await rawBody(ctx, text, type), detail: `Content-Type: ${type ?? '(none)'} for a ${model.body.kind} body`, expect, ...(statuses ? { statuses } : {}) };
  },

  proto: async (ctx) => {
    const { model, rng } = ctx;
    const type = jsonBodyType(model.op);
    if (!type || !model.body || rng.chance(0.25)) {
      const next = clone(model);
      const name = rng.pick(['__proto__', '__proto__[polluted]', 'constructor[prototype][polluted]']);
      next.query.push([name, 'yes']);
      const wire = await render(next, ctx.env);
      const rejected = name === '__proto__';
      return { raw: wire, detail: `query name ${name}`, expect: rejected ? 'reject' : 'success', ...(rejected ? { statuses: [400] } : {}) };
    }
    const value = model.body.kind === 'json' ? model.body.value : {};
    const inner = JSON.stringify(value).slice(1);
    const sep = inner === '}' ? '' : ',';
    const text = rng.pick([
      `{"__proto__":{"polluted":"yes"}${sep}${inner}`,
      `{"\\u005f_proto__":{"polluted":"yes"}${sep}${inner}`,
      `{"Data":{"__proto__":{"polluted":"yes"}}}`,
      `{"Data":[{"__proto__":{"polluted":"yes"}}]}`,
      `{"constructor":{"prototype":{"polluted":"yes"}}${sep}${inner}`,
      `{"__proto__":null}`,
    ]);
    return { raw: await rawBody(ctx, text, type), detail: `body ${text.slice(0, 60)}`, expect: 'reject', statuses: [400] };
  },

  oversized: async (ctx) => {
    const { model, rng } = ctx;
    if (!model.body) {
      const choice = rng.pick(['query', 'header', 'get-body']);
      const next = clone(model);
      if (choice === 'query') {
        next.query.push(['padding', 'p'.repeat(6000)]);
        return { model: next, detail: 'query of 6000 characters (unknown parameter)' };
      }
      if (choice === 'header') {
        next.headers['x-customer-user-agent'] = 'u'.repeat(8000);
        return { model: next, detail: 'x-customer-user-agent of 8000 characters' };
      }
      const wire = await render(model, ctx.env);
      return { raw: { ...wire, headers: { ...wire.headers, 'content-type': 'application/json' }, body: Buffer.from(`{"pad":"${'p'.repeat(300_000)}"}`) }, detail: 'GET with a 300 kB body (ignored)', expect: 'success' };
    }
    const type = model.body.contentType;
    const big = model.body.kind === 'json' ? `{"Data":{"Status":"Revoked"},"pad":"${'p'.repeat(300_000)}"}` : `${'a'.repeat(150_000)}.${'b'.repeat(150_000)}.c`;
    const wire = await rawBody(ctx, big, type);
    const chunked = rng.chance(0.5);
    return { raw: { ...wire, ...(chunked ? { chunked: true } : {}) }, detail: `body of ${big.length} bytes${chunked ? ', chunked' : ''}`, expect: 'reject', statuses: [model.op.responses['413'] === undefined ? 400 : 413] };
  },

  'deep-nesting': async (ctx) => {
    const type = jsonBodyType(ctx.model.op);
    if (!type || !ctx.model.body) return undefined;
    // The deepest stays under the 256 KiB body limit, so that it is the depth check that answers.
    const depth = ctx.rng.pick([65, 100, 1000, 20_000]);
    const text = ctx.rng.chance(0.5) ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    return { raw: await rawBody(ctx, text, type), detail: `JSON nested ${depth} levels`, expect: 'reject', statuses: [400] };
  },

  'percent-encoding': async (ctx) => {
    const { model, rng } = ctx;
    const bad = rng.pick(['%E0%A4%A', '%ZZ', '%', 'abc%2', '%C3%28', '%FF', '%u0041', '%%30']);
    const names = Object.keys(model.path);
    const wire = await render(model, ctx.env);
    const q = wire.target.indexOf('?');
    const pathPart = q < 0 ? wire.target : wire.target.slice(0, q);
    const queryPart = q < 0 ? '' : wire.target.slice(q);
    if (rng.chance(0.35)) {
      // In the query: the router decodes leniently, then validates.
      const target = `${pathPart}${queryPart === '' ? '?' : `${queryPart}&`}extra=${bad}`;
      return { raw: { ...wire, target }, detail: `query extra=${bad}`, expect: 'any' };
    }
    if (names.length > 0) {
      const name = rng.pick(names);
      const target = renderPath(model, (v) => (v === model.path[name] ? bad : encodeURIComponent(v))) + queryPart;
      return { raw: { ...wire, target }, detail: `path parameter ${name} = ${bad}`, expect: 'reject', statuses: [400] };
    }
    const segments = model.op.path.split('/');
    const target = `${model.prefix}${segments.map((s, i) => (i === 1 ? `${s.slice(0, 2)}${bad}${s.slice(2)}` : s)).join('/')}${queryPart}`;
    return { raw: { ...wire, target }, detail: `literal segment broken by ${bad}`, expect: 'reject', statuses: [404], routing: true };
  },

  method: async (ctx) => {
    const { model, rng, methodsOnPath } = ctx;
    const wire = await render(model, ctx.env);
    if (model.op.method === 'get' && rng.chance(0.3)) return { raw: { ...wire, method: 'HEAD' }, detail: 'HEAD instead of GET', expect: 'success' };
    const others = ['PUT', 'DELETE', 'POST', 'PATCH', 'OPTIONS'].filter((m) => !methodsOnPath.has(m));
    if (others.length === 0) return undefined;
    const method = rng.pick(others);
    return { raw: { ...wire, method }, detail: `${method} on a path that does not define it`, expect: 'reject', statuses: [405], routing: true };
  },

  path: async (ctx) => {
    const { model, rng } = ctx;
    const wire = await render(model, ctx.env);
    const q = wire.target.indexOf('?');
    const pathPart = q < 0 ? wire.target : wire.target.slice(0, q);
    const queryPart = q < 0 ? '' : wire.target.slice(q);
    const choice = rng.pick(['suffix', 'suffix', 'trailing-slash', 'case', 'case', 'double-slash', 'dot-segment', 'absolute-form', 'encoded-prefix']);
    switch (choice) {
      case 'absolute-form':
        // RFC 9112 §3.2.2: a server MUST accept the absolute form of the request target.
        return { raw: { ...wire, target: `${ctx.origin}${wire.target}` }, detail: 'request target in absolute form (http://host/path)', expect: 'success' };
      case 'encoded-prefix': {
        // RFC 3986 §6.2.2.2: `%2D` and `-` are the same character (unreserved).
        const target = wire.target.replace('account-information', 'account%2Dinformation');
        return { raw: { ...wire, target }, detail: 'prefix with an unreserved character percent-encoded (%2D)', expect: 'success' };
      }
      case 'suffix': {
        // A segment that makes the path match no template at all (not another operation's).
        const suffix = ['/no-such-resource', '/no-such-resource/x', '/x/y/z/w'].find((s) => !matchPath(ctx.templates, `${pathPart.slice(model.prefix.length)}${s}`));
        if (suffix === undefined) return undefined;
        return { raw: { ...wire, target: `${pathPart}${suffix}${queryPart}` }, detail: `unknown trailing segments ${suffix}`, expect: 'reject', statuses: [404], routing: true };
      }
      case 'trailing-slash':
        return { raw: { ...wire, target: `${pathPart}/${queryPart}` }, detail: 'trailing slash', expect: 'success' };
      case 'case': {
        const local = pathPart.slice(model.prefix.length);
        return { raw: { ...wire, target: `${model.prefix}${local.replace(/[a-z]/, (c) => c.toUpperCase())}${queryPart}` }, detail: 'literal segment in other case', expect: 'reject', statuses: [404], routing: true };
      }
      case 'double-slash':
        return { raw: { ...wire, target: `${model.prefix}/${pathPart.slice(model.prefix.length)}${queryPart}` }, detail: 'double slash after the prefix', expect: 'any', routing: true };
      default:
        return { raw: { ...wire, target: `${model.prefix}/./${pathPart.slice(model.prefix.length + 1)}${queryPart}` }, detail: 'dot segment after the prefix', expect: 'any', routing: true };
    }
  },

  'signed-body': async (ctx) => {
    const { model, rng, env } = ctx;
    if (model.body?.kind !== 'jwt') {
      const jwtType = Object.keys(model.op.request.body?.content ?? {}).find((t) => bodyKindOf(t) === 'jwt');
      if (!jwtType) return undefined;
      // Send a JSON body as if it were signed: not a compact JWS.
      return { raw: await rawBody(ctx, '{"Data":{"Status":"Revoked"}}', jwtType), detail: 'JSON text sent as application/jwt', expect: 'reject', statuses: [400] };
    }
    const next = clone(model);
    const body = next.body!;
    const choice = rng.pick(['none', 'other', 'hs256', 'exp-past', 'nbf-future', 'extra-claim', 'garbage', 'text', 'crit', 'exp-text', 'aud']);
    switch (choice) {
      case 'none':
      case 'other':
      case 'hs256':
        body.signer = choice;
        return { model: next, detail: `signed: ${choice}`, statuses: [400] };
      case 'exp-past':
        body.claims!['exp'] = env.nowSeconds - 3600;
        return { model: next, detail: 'exp an hour ago', statuses: [400] };
      case 'nbf-future':
        body.claims!['nbf'] = env.nowSeconds + 3600;
        return { model: next, detail: 'nbf in an hour', statuses: [400] };
      case 'extra-claim':
        body.claims!['jti'] = 'extra';
        return { model: next, detail: 'extra claim jti', statuses: [400] };
      case 'exp-text':
        body.claims!['exp'] = String(env.nowSeconds + 600);
        return { model: next, detail: 'exp as text', statuses: [400] };
      case 'aud':
        body.claims!['aud'] = ['lfi-hardening'];
        return { model: next, detail: 'aud present (allowed)' };
      case 'crit':
        body.header = { crit: ['x-unknown'], 'x-unknown': 1 };
        return { raw: await render(next, env), detail: 'unknown crit header parameter', expect: 'reject', statuses: [400] };
      case 'garbage':
        return { raw: await rawBody(ctx, 'a.b.c', body.contentType), detail: 'token a.b.c', expect: 'reject', statuses: [400] };
      default:
        return { raw: await rawBody(ctx, 'not a token at all', body.contentType), detail: 'plain text as a token', expect: 'reject', statuses: [400] };
    }
  },

  'body-on-get': async (ctx) => {
    const { model, rng } = ctx;
    if (model.op.request.body) return undefined;
    const wire = await render(model, ctx.env);
    const text = rng.pick(['{"a":1}', '{', '{"__proto__":{"polluted":"yes"}}', '[[[[[[]]]]]]']);
    return { raw: { ...wire, headers: { ...wire.headers, 'content-type': rng.pick(['application/json', 'text/plain']) }, body: Buffer.from(text) }, detail: `GET with body ${text} (ignored)`, expect: 'success' };
  },
};

/** How often each kind is drawn (kinds that do not apply to an operation are redrawn). */
const WEIGHTS: ReadonlyArray<readonly [number, Kind]> = [
  [14, 'valid'],
  [8, 'wrong-type'],
  [6, 'missing-required'],
  [7, 'datetime-offset'],
  [6, 'max-length'],
  [5, 'unknown-enum'],
  [5, 'extra-property'],
  [3, 'repeated-param'],
  [5, 'header'],
  [4, 'auth'],
  [4, 'accept'],
  [6, 'malformed-json'],
  [6, 'content-type'],
  [5, 'proto'],
  [3, 'oversized'],
  [4, 'deep-nesting'],
  [6, 'percent-encoding'],
  [4, 'method'],
  [4, 'path'],
  [6, 'signed-body'],
  [3, 'body-on-get'],
];

/**
 * `count` cases for one operation: valid requests and broken ones, drawn by `rng`.
 *
 * @example
 * const cases = await casesFor('v2.2', operations.GetAccounts, prefix, 150, rng.fork('GetAccounts'), env, methods);
 */
export async function casesFor(
  version: Version,
  op: OperationSchemas,
  prefix: string,
  count: number,
  rng: Prng,
  env: SigningEnv,
  methodsOnPath: ReadonlySet<string>,
  templates: readonly string[],
  origin: string,
): Promise<Case[]> {
  const compiled = compilePaths(templates);
  const out: Case[] = [];
  let guard = 0;
  while (out.length < count && guard++ < count * 20) {
    const model = validModel(op, prefix, rng, env);
    const kind = rng.weighted(WEIGHTS);
    const id = `${version} ${op.operationId} #${out.length + 1}`;
    if (kind === 'valid') {
      const reasons = judge(model, env);
      if (reasons.length > 0) throw new Error(`${id}: the valid request builder made an invalid request: ${reasons.join('; ')}`);
      out.push({ id, version, op, kind, detail: 'valid request', request: await render(model, env), expect: 'success', routing: false });
      continue;
    }
    const mutation = await MUTATORS[kind]({ model, rng, env, methodsOnPath, templates: compiled, origin });
    if (!mutation) continue;
    if ('raw' in mutation) {
      out.push({ id, version, op, kind, detail: mutation.detail, request: mutation.raw, expect: mutation.expect, routing: mutation.routing ?? false, ...(mutation.statuses ? { statuses: mutation.statuses } : {}) });
      continue;
    }
    const reasons = judge(mutation.model, env);
    out.push({
      id,
      version,
      op,
      kind,
      detail: mutation.detail,
      request: await render(mutation.model, env),
      expect: mutation.expect ?? (reasons.length > 0 ? 'reject' : 'success'),
      routing: mutation.routing ?? false,
      ...(mutation.statuses && reasons.length > 0 ? { statuses: mutation.statuses } : {}),
      ...(reasons.length > 0 ? { reasons } : {}),
    });
  }
  return out;
}
