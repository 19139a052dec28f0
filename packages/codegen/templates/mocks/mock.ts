/**
 * Mock responses of an API's operations: a declared status, one of its media types, headers
 * and a body, made from the schemas (or the spec's own examples) and checked by the generated
 * validators before they are returned. Needs nothing but zod and the validators, so it works
 * in a browser, in MSW handlers, in a mock server and in unit tests alike.
 */
import type { z } from 'zod';
import { seededRandom, seedOf } from './random.js';
import { SampleError, sampleValid, type JsonNodeSampler, type MockNode, type SampleContext } from './sample.js';
import { sampleJsonSchema } from './json-schema-sample.js';
import { type HintVocabulary } from './hints.js';
import { fileOf } from './media-files.js';

export { SampleError } from './sample.js';

/** What the generator writes of one media type of a response. */
export interface MockContent {
  schema?: MockNode;
  /** A sequence's item (OpenAPI 3.2 `itemSchema`): the body is a few such items. */
  itemSchema?: MockNode;
  /** The spec's examples by name (`example` alone is named `example`). */
  examples: Readonly<Record<string, unknown>>;
}

export interface MockHeader {
  name: string;
  required: boolean;
  schema: MockNode;
}

export interface MockResponseModel {
  headers: readonly MockHeader[];
  content: Readonly<Record<string, MockContent>>;
}

/** The data the generator writes beside the validators: every schema as an IR node. */
export interface MockModel {
  /** The words of name hints: this API family's for its own files (set by the generator), else any domain's. */
  hints?: HintVocabulary;
  schemas: Readonly<Record<string, MockNode>>;
  examples: Readonly<Record<string, readonly unknown[]>>;
  operations: Readonly<Record<string, { responses: Readonly<Record<string, MockResponseModel>> }>>;
}

interface Parseable {
  safeParse(value: unknown): { success: boolean; error?: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> } };
}

/** The validators' description of an operation, as far as mocks read it. */
export interface OperationSchemasLike {
  readonly operationId: string;
  readonly responses: { readonly [status: string]: { readonly headers: unknown; readonly content: { readonly [contentType: string]: unknown } } };
}

type Responses<Op extends OperationSchemasLike> = Op['responses'];
/** A declared status key of the operation, as written (`'200'`, `'4XX'`, `'default'`). */
export type StatusKey<Op extends OperationSchemasLike> = keyof Responses<Op> & string;

type StatusNumber<S extends string> = S extends `${infer N extends number}` ? N : number;
type Input<T> = T extends z.ZodType ? z.input<T> : unknown;
type HeaderText<H> = H extends z.ZodType ? { [K in keyof z.input<H>]?: string } : Record<string, string>;

type JsonKey<K> = K extends `${string}/json` | `${string}/json;${string}` | `${string}+json` | `${string}+json;${string}` ? K : never;
/** The media types a mock answers with when none is asked for: the JSON ones where there are some (as `chooseContentType`). */
type DefaultContentType<K> = [JsonKey<K>] extends [never] ? K : JsonKey<K>;
type ContentKeys<R> = R extends { readonly content: infer C } ? keyof C & string : never;
/** The media types of the statuses `S` of `Op`. */
export type ContentTypeOf<Op extends OperationSchemasLike, S extends string = StatusKey<Op>> = { [K in StatusKey<Op> & S]: ContentKeys<Responses<Op>[K]> }[StatusKey<Op> & S];

/** Media types whose mock is a file's bytes (images, PDF): what media-files.ts builds. */
type FileKey<K> = K extends `image/${string}` | 'application/pdf' | `application/pdf;${string}` ? K : never;
/** The body of media type `K`: the schema's input, or for a file type the file's bytes. */
type BodyOf<K, S> = [FileKey<K>] extends [never] ? Input<S> : Input<S> | Uint8Array;

type ResultOfStatus<S extends string, R, Wanted> = R extends { readonly headers: infer H; readonly content: infer C }
  ? [keyof C] extends [never]
    ? { status: StatusNumber<S>; statusKey: S; contentType: undefined; headers: HeaderText<H>; body: undefined }
    : {
        [K in keyof C & string]: K extends ([Wanted] extends [never] ? DefaultContentType<keyof C & string> : Wanted)
          ? { status: StatusNumber<S>; statusKey: S; contentType: K; headers: HeaderText<H>; body: BodyOf<K, C[K]> }
          : never;
      }[keyof C & string]
  : never;

/**
 * What a mock returns for the statuses `S` of `Op` and the media types `C` (when asked for;
 * else the JSON ones where there are some): status, media type, header text and body, typed by
 * the response.
 */
export type MockResult<Op extends OperationSchemasLike, S extends string = StatusKey<Op>, C extends string = never> = {
  [K in StatusKey<Op> & S]: ResultOfStatus<K, Responses<Op>[K], C>;
}[StatusKey<Op> & S];

/** Every body `Op` may answer with for statuses `S` (and media types `C`). */
export type MockBody<Op extends OperationSchemasLike, S extends string = StatusKey<Op>, C extends string = never> = MockResult<Op, S, C>['body'];

/** A deep partial: objects member by member, arrays and scalars whole. */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

export interface MockOptions<Op extends OperationSchemasLike, S extends StatusKey<Op> = StatusKey<Op>, C extends ContentTypeOf<Op, S> = never> {
  /** A declared status key as written (`'200'`, `'4XX'`, `'default'`) or a number; the first 2xx when absent. */
  status?: S | number;
  /** One of the status's media types; JSON first when absent. */
  contentType?: C;
  /** Same seed, same answer. Default 1. */
  seed?: number;
  /** The spec's example of this name, instead of generated data. */
  example?: string;
  /** Take the spec's examples where they validate, generated data elsewhere. Default: generated data. */
  preferExamples?: boolean;
  /** Merged into the body member by member (arrays and scalars replace); checked like the rest. */
  overrides?: DeepPartial<MockBody<Op, S, C>>;
  /** Return a body the overrides made invalid instead of throwing. */
  allowInvalid?: boolean;
  /** Dates are made near this time (default: the start of today, UTC, so a day's answers are the same). */
  now?: number | Date;
}

export type MockFunction<Op extends OperationSchemasLike> = <S extends StatusKey<Op> = StatusKey<Op>, C extends ContentTypeOf<Op, S> = never>(
  options?: MockOptions<Op, S, C>,
) => MockResult<Op, S, C>;

/** Mocks of every operation of an API, keyed by the operation's one name. */
export type Mocks<Ops extends { readonly [name: string]: OperationSchemasLike }> = { readonly [K in keyof Ops]: MockFunction<Ops[K]> };

/** A mock that cannot be made: the operation, the status and media type, and what went wrong. */
export class MockError extends Error {
  constructor(
    message: string,
    readonly issues: readonly string[] = [],
  ) {
    super(issues.length > 0 ? `${message}\n${issues.map((i) => `  - ${i}`).join('\n')}` : message);
    this.name = 'MockError';
  }
}

export interface CreateMocksInput<Ops> {
  /** The validators' `operations`: what each answer is checked against. */
  operations: Ops;
  /** The validators' `schemas` (by exact name): a `oneOf` value another variant accepts is made again. */
  schemas?: { readonly [name: string]: unknown };
  model: MockModel;
  /** Samples the schemas of the JSON Schema runtime (present when the API has some). */
  json?: (now: number) => JsonNodeSampler;
}

const DAY = 86_400_000;

/** `mocks`: one function per operation, typed by the validators' operations. */
export function createMocks<Ops extends { readonly [name: string]: OperationSchemasLike }>(input: CreateMocksInput<Ops>): Mocks<Ops> {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(input.operations)) {
    out[name] = (options: MockOptions<OperationSchemasLike, string, string> = {}) => mockResponse({ input, name, options });
  }
  return out as Mocks<Ops>;
}

interface MockCall {
  input: CreateMocksInput<{ readonly [name: string]: OperationSchemasLike }>;
  name: string;
  options: MockOptions<OperationSchemasLike, string, string>;
}

function mockResponse({ input, name, options }: MockCall): unknown {
  const operation = input.operations[name]!;
  const model = input.model.operations[name];
  if (!model) throw new MockError(`${name}: the mocks were generated without this operation; regenerate them`);
  const statusKey = chooseStatus(name, Object.keys(operation.responses), options.status);
  const declared = operation.responses[statusKey]!;
  const response = model.responses[statusKey]!;
  const status = statusNumber(statusKey, options.status, Object.keys(operation.responses));
  const contentType = chooseContentType(name, statusKey, Object.keys(declared.content), options.contentType);
  const now = typeof options.now === 'number' ? options.now : options.now instanceof Date ? options.now.getTime() : Math.floor(Date.now() / DAY) * DAY;
  const seed = options.seed ?? 1;
  const where = `${name} ${statusKey}${contentType ? ` ${contentType}` : ''}`;
  const context = (label: string): SampleContext => ({
    schemas: input.model.schemas,
    examples: input.model.examples,
    random: seededRandom(seedOf(seed, name, statusKey, contentType ?? '', label)),
    now,
    direction: 'response',
    ...(input.model.hints ? { hints: input.model.hints } : {}),
    ...(options.preferExamples ? { preferExamples: true } : {}),
    ...(input.json ? { json: input.json(now) } : {}),
    ...(input.schemas ? { accepts: acceptsBy(input.schemas) } : {}),
  });
  const headers = mockHeaders({ where, response, check: declared.headers as Parseable, context: context('headers') });
  if (contentType === undefined) return { status, statusKey, contentType, headers, body: undefined };
  const check = declared.content[contentType] as Parseable;
  const content = response.content[contentType]!;
  if (content.itemSchema) return { status, statusKey, contentType, headers, body: mockItems(where, content, content.itemSchema, itemCheckOf(check), options, context, partTypesOf(check)) };
  // An image or a PDF is a file a viewer opens, not a string its schema happens to accept: the
  // smallest valid one, unless an example is asked for by name.
  const file = options.example === undefined && options.overrides === undefined && isPlainFileSchema(content.schema) ? fileOf(contentType) : undefined;
  if (file !== undefined) return { status, statusKey, contentType, headers, body: file };
  let body = chosenExample({ where, content, check, options });
  if (body === undefined) {
    if (!content.schema) body = undefined;
    else body = sampleBody(where, content.schema, context('body'), check);
  }
  if (options.overrides !== undefined) {
    body = mergeOverrides(body, options.overrides);
    const issues = issuesOf(check, body);
    if (issues.length > 0 && !options.allowInvalid) throw new MockError(`${where}: the overrides make the body invalid (pass allowInvalid: true to send it anyway)`, issues);
  }
  return { status, statusKey, contentType, headers, body };
}

/** No schema, or a string that says nothing of its text (`format: binary` or none): bytes of any file fit. */
function isPlainFileSchema(schema: MockNode | undefined): boolean {
  if (schema === undefined) return true;
  if (schema.kind !== 'string') return false;
  const format = schema.format ?? schema.annotatedFormat;
  return (format === undefined || format === 'binary') && !schema.enum && !schema.patterns && schema.minLength === undefined && schema.maxLength === undefined;
}

/** How many items a sequence's mock holds. */
const SEQUENCE_MOCK_ITEMS = 3;

/** The item schema the validators keep on a sequence's schema (`seq.sequence`). */
function itemCheckOf(check: Parseable): Parseable {
  const bag = (check as unknown as { _zod?: { bag?: Record<string, unknown> } })._zod?.bag;
  return (bag?.['bdsSequenceItem'] as Parseable | undefined) ?? check;
}

/** The media types each part of a positional multipart sequence (`multipart/mixed`) is declared in, by position. */
interface PartTypes {
  prefix: ReadonlyArray<string | undefined>;
  rest: string | undefined;
}

/** The part encodings the validators keep beside the item schema (`seq.sequence`), if any. */
function partTypesOf(check: Parseable): PartTypes | undefined {
  const bag = (check as unknown as { _zod?: { bag?: Record<string, unknown> } })._zod?.bag;
  const encoding = bag?.['bdsSequenceEncoding'] as { prefixEncoding?: ReadonlyArray<{ contentType?: string }>; itemEncoding?: { contentType?: string } } | undefined;
  if (!encoding) return undefined;
  return { prefix: (encoding.prefixEncoding ?? []).map((e) => e.contentType), rest: encoding.itemEncoding?.contentType };
}

/**
 * Why a part of `contentType` cannot carry `value`: JSON types carry any value, `text/*` a
 * string, other types bytes. The items must be writable, not only valid.
 */
function unfitFor(contentType: string | undefined, value: unknown): string | undefined {
  if (contentType === undefined) return undefined;
  const types = contentType.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const fits = types.some((t) => (t === '*/*' || isJsonEssence(t) ? !(value instanceof Uint8Array) : t.startsWith('text/') ? typeof value === 'string' : value instanceof Uint8Array));
  return fits ? undefined : `a ${contentType} part cannot carry it`;
}

/** The items of a sequence: the spec's example (of one item) where chosen, else generated ones, each valid. */
function mockItems(
  where: string,
  content: MockContent,
  itemSchema: MockNode,
  check: Parseable,
  options: MockOptions<OperationSchemasLike, string, string>,
  context: (label: string) => SampleContext,
  parts?: PartTypes,
): unknown[] {
  const example = chosenExample({ where, content, check, options });
  if (example !== undefined) return [example];
  return Array.from({ length: SEQUENCE_MOCK_ITEMS }, (_, i) => {
    const partType = parts ? (i < parts.prefix.length ? parts.prefix[i] : parts.rest) : undefined;
    const fitting: Parseable = {
      safeParse: (value) => {
        const unfit = unfitFor(partType, value);
        return unfit === undefined ? check.safeParse(value) : { success: false, error: { issues: [{ path: [], message: unfit }] } };
      },
    };
    return sampleBody(`${where} item ${i + 1}`, itemSchema, context(`item ${i + 1}`), fitting);
  });
}

function acceptsBy(schemas: { readonly [name: string]: unknown }): NonNullable<SampleContext['accepts']> {
  return (name, value) => {
    const schema = Object.prototype.hasOwnProperty.call(schemas, name) ? (schemas[name] as Parseable | undefined) : undefined;
    return schema ? schema.safeParse(value).success : undefined;
  };
}

function sampleBody(where: string, schema: MockNode, context: SampleContext, check: Parseable): unknown {
  try {
    return sampleValid(schema, context, (value) => issuesOf(check, value)[0]);
  } catch (error) {
    if (error instanceof SampleError) throw new MockError(`${where}: no valid body can be generated: ${error.message}`);
    throw error;
  }
}

/** The example the options name, or with `preferExamples` one that validates; undefined otherwise. */
function chosenExample({ where, content, check, options }: { where: string; content: MockContent; check: Parseable; options: MockOptions<OperationSchemasLike, string, string> }): unknown {
  const names = Object.keys(content.examples);
  if (options.example !== undefined) {
    if (!names.includes(options.example)) {
      throw new MockError(`${where}: no example named ${JSON.stringify(options.example)}${names.length > 0 ? ` (the spec names ${names.map((n) => JSON.stringify(n)).join(', ')})` : ' (the spec gives none here)'}`);
    }
    const value = structuredClone(content.examples[options.example]);
    const issues = issuesOf(check, value);
    if (issues.length > 0 && !options.allowInvalid) throw new MockError(`${where}: the spec's example ${JSON.stringify(options.example)} does not validate`, issues);
    return value;
  }
  if (!options.preferExamples) return undefined;
  for (const name of names) {
    const value = content.examples[name];
    if (issuesOf(check, value).length === 0) return structuredClone(value);
  }
  return undefined;
}

/** The declared response headers as text: required ones always, optional ones now and then. */
function mockHeaders({ where, response, check, context }: { where: string; response: MockResponseModel; check: Parseable; context: SampleContext }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const header of response.headers) {
    if (header.name.toLowerCase() === 'content-type') continue;
    if (!header.required && !context.random.chance(0.5)) continue;
    // Only the issues about this header count: the others are not made yet.
    const names = new Set([header.name, header.name.toLowerCase()]);
    const problem = (text: string) => issuesOf(check, { [header.name.toLowerCase()]: text }, (path) => names.has(String(path[0])))[0];
    try {
      const value = sampleValid(header.schema, context, (v) => problem(headerText(v)), 12);
      out[header.name] = headerText(value);
    } catch (error) {
      if (!(error instanceof SampleError)) throw error;
      if (header.required) throw new MockError(`${where}: no valid value for the response header ${header.name}: ${error.message}`);
    }
  }
  return out;
}

/** A header's text (OpenAPI `simple` style): arrays joined by commas, objects as name,value pairs. */
function headerText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(',');
  if (value !== null && typeof value === 'object') return Object.entries(value).flat().map(String).join(',');
  return String(value);
}

function issuesOf(check: Parseable, value: unknown, about: (path: readonly PropertyKey[]) => boolean = () => true): string[] {
  const result = check.safeParse(value);
  if (result.success) return [];
  return (result.error?.issues ?? []).filter((issue) => about(issue.path)).map((issue) => `${issue.path.length > 0 ? `/${issue.path.map(String).join('/')}` : '(the value)'}: ${issue.message}`);
}

/** Objects merge member by member; arrays, scalars and null replace. */
export function mergeOverrides(base: unknown, overrides: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(overrides)) return structuredClone(overrides);
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    out[key] = mergeOverrides(base[key], value);
  }
  return out;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The declared status key a request for `wanted` is answered with: a key as written, or a
 * number matched exactly, then by its range (`4XX`), then `default`; the first 2xx when absent.
 */
export function chooseStatus(name: string, keys: readonly string[], wanted: string | number | undefined): string {
  if (wanted === undefined) {
    const success = keys.find((k) => /^2/.test(k)) ?? keys.find((k) => k === 'default') ?? keys[0];
    if (success === undefined) throw new MockError(`${name}: the operation declares no response`);
    return success;
  }
  const text = String(wanted);
  const found = keys.find((k) => k === text) ?? (typeof wanted === 'number' || /^\d{3}$/.test(text) ? keys.find((k) => k.toUpperCase() === `${text[0]}XX`) ?? keys.find((k) => k === 'default') : undefined);
  if (found === undefined) throw new MockError(`${name}: status ${JSON.stringify(wanted)} is not declared (declared: ${keys.join(', ')})`);
  return found;
}

/** The number sent for a status key: itself, the asked number, or the range's first; `default` is 200 where nothing else succeeds, else 500. */
function statusNumber(key: string, wanted: string | number | undefined, keys: readonly string[]): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  if (typeof wanted === 'number' || (typeof wanted === 'string' && /^\d{3}$/.test(wanted))) return Number(wanted);
  if (/^[1-5]XX$/i.test(key)) return Number(key[0]) * 100;
  return keys.some((k) => /^2/.test(k)) ? 500 : 200;
}

/** JSON first (`application/json`, then any other JSON type), then the first declared. */
export function chooseContentType(name: string, status: string, types: readonly string[], wanted: string | undefined): string | undefined {
  if (wanted !== undefined) {
    const found = types.find((t) => t === wanted) ?? types.find((t) => essence(t) === essence(wanted));
    if (found === undefined) throw new MockError(`${name} ${status}: media type ${JSON.stringify(wanted)} is not declared (declared: ${types.join(', ') || 'none'})`);
    return found;
  }
  return types.find((t) => t === 'application/json') ?? types.find((t) => essence(t) === 'application/json') ?? types.find((t) => isJsonEssence(essence(t))) ?? types[0];
}

function essence(contentType: string): string {
  return contentType.split(';')[0]!.trim().toLowerCase();
}

/** JSON by its essence: the subtype `json` (`application/json`, `text/json`) or a `+json` suffix, as the runtimes read bodies. */
function isJsonEssence(type: string): boolean {
  const slash = type.indexOf('/');
  return slash > 0 && (type.slice(slash + 1) === 'json' || type.endsWith('+json'));
}

/** The validators' `jsonSchemas` (the JSON Schema runtime's table), as far as sampling reads it. */
export interface JsonSchemasLike {
  readonly table: Readonly<Record<string, unknown>>;
  readonly dialect: '3.0' | '3.1';
  /** Optional, so that validators made by an earlier generator still fit. */
  readonly dynamicScopes?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  check(pointer: string): (value: unknown) => boolean;
  directed(direction: 'request' | 'response', refuse: boolean): JsonSchemasLike;
}

/** Samples `json` nodes from their raw schemas, each candidate checked by the same runtime that validates them. */
export function jsonNodeSampler(schemas: JsonSchemasLike): (now: number) => JsonNodeSampler {
  return (now) => (node, random) => {
    const directed = node.mode ? schemas.directed(node.mode.direction, node.mode.refuse) : schemas;
    return sampleJsonSchema(node.pointer, {
      table: schemas.table,
      dialect: schemas.dialect,
      ...(schemas.dynamicScopes ? { dynamicScopes: schemas.dynamicScopes } : {}),
      random,
      now,
      ...(node.mode ? { direction: node.mode.direction } : {}),
      check: (pointer) => directed.check(pointer),
    });
  };
}
