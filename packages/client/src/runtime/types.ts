/**
 * Type helpers that turn a generated validator operation (`operations.<operationId>` of
 * `@bank-data-sharing/validators/<version>`) into what a client method takes and returns.
 *
 * They read zod's `_zod.input` / `_zod.output` members structurally instead of importing
 * zod, so the runtime works with whichever copy of zod the validators were built against.
 */
import type { FormLayout, ParameterWire } from '@bank-data-sharing/wire';

/** The part of a zod schema the runtime uses. */
export interface SchemaLike {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: { issues: readonly IssueLike[] } };
}

/** One zod issue, as much of it as error messages need. */
export interface IssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** One response of an operation: its header schema and a schema per content type. */
export interface ResponseSpec {
  readonly headers: SchemaLike;
  readonly content: Readonly<Record<string, SchemaLike>>;
}

/**
 * A request body: whether it is required, a schema per content type, and for form media types
 * how each member travels (`encoding`, see `@bank-data-sharing/wire`'s form-layout.ts).
 */
export interface BodySpec {
  readonly required: boolean;
  readonly content: Readonly<Record<string, SchemaLike>>;
  readonly encoding?: Readonly<Record<string, FormLayout>>;
}

/** The shape of `operations.<operationId>` in the generated validators. */
export interface OperationSpec {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly request: {
    readonly path: SchemaLike;
    readonly query: SchemaLike;
    readonly headers: SchemaLike;
    readonly cookies: SchemaLike;
    readonly body: BodySpec | undefined;
    /** Parameters that travel as more than one plain text (styles, arrays, objects, content). */
    readonly parameters?: readonly ParameterWire[];
  };
  readonly responses: Readonly<Record<string, ResponseSpec>>;
}

/** `api` of the generated validators: what the spec file says about itself. */
export interface ApiInfo {
  readonly title: string;
  readonly version: string;
  readonly pathPrefix: string;
  readonly servers: readonly string[];
}

/** What a schema accepts (zod's `z.input`). */
export type Input<S> = S extends { _zod: { input: infer I } } ? I : unknown;
/** What a schema produces (zod's `z.output`). */
export type Output<S> = S extends { _zod: { output: infer O } } ? O : unknown;

/** Flattens intersections so editors show one object. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** Like `Simplify`, but also expands each member of a union (editors then show plain objects). */
export type Expand<T> = T extends infer O ? { [K in keyof O]: O[K] } : never;

/** Drops index signatures (loose objects carry `[k: string]: unknown`), keeping declared keys. */
export type KnownKeys<T> = {
  [K in keyof T as string extends K ? never : number extends K ? never : symbol extends K ? never : K]: T[K];
};

type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

type ShapeOf<S> = S extends { shape: infer Shape } ? Shape : {};

/**
 * What a caller sends for one parameter. Numbers and booleans travel as text, so their
 * schemas decode text and accept `unknown`; for those the decoded type is what callers write.
 */
type SentValue<S> = unknown extends Input<S> ? Output<S> : Input<S>;

/** One parameter location (path, query, headers or cookies) as a plain object type. */
export type ParamGroup<S> = Expand<{
  [K in keyof KnownKeys<Input<S>>]: K extends keyof ShapeOf<S> ? SentValue<ShapeOf<S>[K]> : KnownKeys<Input<S>>[K];
}>;

/**
 * Headers the client always supplies itself: a caller may still give them (`content-length`
 * excepted: the transport writes it from the body, and drops a caller's).
 */
export type AutoHeader = 'authorization' | 'x-fapi-interaction-id' | 'accept' | 'content-type' | 'content-length';

type OptionalKeys<T, K extends PropertyKey> = Simplify<Omit<T, K> & Partial<Pick<T, Extract<keyof T, K>>>>;

/** `{ name: G }` when G has required members, `{ name?: G }` when none, nothing when empty. */
type Group<Name extends string, G> = [keyof G] extends [never]
  ? {}
  : [RequiredKeys<G>] extends [never]
    ? { [P in Name]?: G }
    : { [P in Name]: G };

/** `application/jwt` (with or without parameters), compared case-insensitively. */
export type IsJwt<CT> = CT extends string
  ? Lowercase<CT> extends 'application/jwt' | `application/jwt;${string}`
    ? true
    : false
  : false;

/**
 * A media type whose body is sent as bytes: not JSON, a form or text (`application/octet-stream`,
 * `image/png`, ...). Its schema (a binary string) describes the bytes, not a JavaScript value.
 */
export type IsBinary<CT> = CT extends string
  ? Lowercase<CT> extends
      | `${string}json${string}`
      | `application/jwt${string}`
      | `application/x-www-form-urlencoded${string}`
      | `multipart/${string}`
      | `text/${string}`
    ? false
    : true
  : false;

/**
 * A signed body is either the claims to sign (with `signRequest`) or a compact JWS already
 * signed; a binary one may be given as bytes.
 */
type BodyValue<CT, S> = IsJwt<CT> extends true ? Input<S> | string : IsBinary<CT> extends true ? Input<S> | Uint8Array | ArrayBuffer | Blob : Input<S>;

type BodyVariants<C, Required extends boolean> = {
  [CT in keyof C]: Required extends true
    ? { contentType?: CT; body: BodyValue<CT, C[CT]> }
    : { contentType?: CT; body?: BodyValue<CT, C[CT]> };
}[keyof C];

type BodyParams<B> = B extends { readonly content: infer C; readonly required: infer R }
  ? [keyof C] extends [never]
    ? {}
    : BodyVariants<C, R extends true ? true : false>
  : {};

/**
 * What a client method takes: parameters grouped by where they travel, plus the body.
 *
 * @example
 * type P = ParamsOf<typeof operations.GetAccountsAccountIdTransactions>;
 * // { path: { AccountId: string }; query?: { fromBookingDateTime?: string; ... }; headers?: {...} }
 */
export type ParamsOf<Op extends OperationSpec> = Expand<
  Group<'path', ParamGroup<Op['request']['path']>> &
    Group<'query', ParamGroup<Op['request']['query']>> &
    Group<'headers', OptionalKeys<ParamGroup<Op['request']['headers']>, AutoHeader>> &
    Group<'cookies', ParamGroup<Op['request']['cookies']>> &
    BodyParams<Op['request']['body']>
>;

/** `"200"` → `200`; ranges (`2XX`) and `default` → `number`. */
export type StatusOf<K> = K extends `${infer N extends number}` ? N : number;

/**
 * What a caller receives for one content type: for a signed (`application/jwt`) body whose
 * claims carry `message`, the message itself, i.e. the same type as the JSON form.
 */
export type Received<CT, S> = IsJwt<CT> extends true ? (Output<S> extends { message: infer M } ? M : Output<S>) : Output<S>;

/** Facts every decoded response carries, whatever its status. */
export interface ResponseFacts {
  /** `x-fapi-interaction-id` of the response (equal to the one sent, or the call fails). */
  interactionId: string | undefined;
  /** The URL that was fetched. */
  url: string;
  /** Present when the body was a verified JWS: its protected header and claims other than `message`. */
  signature?: { protectedHeader: Record<string, unknown>; claims: Record<string, unknown> };
}

type ResultFor<K, R> = R extends { readonly content: infer C; readonly headers: infer H }
  ? [keyof C] extends [never]
    ? { status: StatusOf<K>; contentType: undefined; body: undefined; headers: Output<H> } & ResponseFacts
    : {
        [CT in keyof C]: { status: StatusOf<K>; contentType: CT; body: Received<CT, C[CT]>; headers: Output<H> } & ResponseFacts;
      }[keyof C]
  : never;

type SuccessKey<Op extends OperationSpec> = Extract<keyof Op['responses'], `2${string}`>;

/** Every documented response of an operation, as a union discriminated by `status` and `contentType`. */
export type ResponseOf<Op extends OperationSpec> = {
  [K in keyof Op['responses']]: ResultFor<K, Op['responses'][K]>;
}[keyof Op['responses']];

/** A result the spec does not describe (an operation with no documented 2xx response). */
export interface UndocumentedResult extends ResponseFacts {
  status: number;
  contentType: string | undefined;
  body: unknown;
  headers: Record<string, unknown>;
}

/**
 * What a client method resolves to: the 2xx responses of the operation (other statuses
 * throw `ApiError`), discriminated by `status` and `contentType`.
 */
export type ResultOf<Op extends OperationSpec> = [SuccessKey<Op>] extends [never]
  ? UndocumentedResult
  : { [K in SuccessKey<Op>]: ResultFor<K, Op['responses'][K]> }[SuccessKey<Op>];

type IsErrorKey<K> = K extends `1${string}` | `2${string}` | `3${string}` ? false : true;

/**
 * The error bodies (4XX, 5XX, `default`) an operation declares: what `ApiError.body` holds for
 * its calls when the answer matched its declaration.
 *
 * @example
 * if (error instanceof ApiError) { const body = error.body as ErrorBodyOf<typeof operations.findPets>; }
 */
export type ErrorBodyOf<Op extends OperationSpec> = {
  [K in keyof Op['responses']]: IsErrorKey<K> extends true ? ResultFor<K, Op['responses'][K]>['body'] : never;
}[keyof Op['responses']];

/** The body type of a method's successful results. */
export type BodyOf<Op extends OperationSpec> = ResultOf<Op>['body'];

/** Security requirements of an operation as the spec states them (alternatives; scheme → scopes). */
export type SecurityRequirements = ReadonlyArray<Readonly<Record<string, readonly string[]>>>;

/** What the generated client tells the runtime about an operation beyond its validators. */
export interface OperationMeta {
  security: SecurityRequirements;
}
