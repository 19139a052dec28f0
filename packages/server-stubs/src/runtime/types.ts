/**
 * Types shared by the runtime and the generated stubs. The operation shapes are structural
 * descriptions of what `@bank-data-sharing/validators` emits, so any generated validators
 * module (for any spec) fits them without a cast.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ContentSchemas, FormEncodings, ParameterWire, ResponseSchemas } from '@bank-data-sharing/wire';
import type { z } from 'zod';

// The response shapes the error contract reads are `@bank-data-sharing/wire`'s; re-exported,
// as they always were, for the generated stubs and applications.
export type { ContentSchemas, ResponseSchemas };

export interface RequestSchemas {
  readonly path: z.ZodType;
  readonly query: z.ZodType;
  /** Keys are lower-case header names. */
  readonly headers: z.ZodType;
  readonly cookies: z.ZodType;
  readonly body: undefined | { readonly required: boolean; readonly content: ContentSchemas; readonly encoding?: FormEncodings };
  /** Parameters that travel as more than one plain text (styles, arrays, objects, content). */
  readonly parameters?: readonly ParameterWire[];
}

/** One entry of a validators module's `operations`. */
export interface OperationSchemas {
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
  readonly request: RequestSchemas;
  readonly responses: { readonly [status: string]: ResponseSchemas };
}

/** A validators module's `api`. */
export interface ApiInfo {
  readonly title: string;
  readonly version: string;
  readonly pathPrefix: string;
  readonly servers: readonly string[];
}

/** One security requirement: scheme name to the scopes it needs. All schemes of one requirement apply. */
export type SecurityRequirement = { readonly [scheme: string]: readonly string[] };

/** What the generator copies from the spec for each operation, as plain data. */
export interface OperationMeta {
  /** Alternatives: any one requirement satisfied is enough. Empty: no security. */
  readonly security: readonly SecurityRequirement[];
  /** `x-permissions`: the consent must grant at least one of these (section 4.3). Absent where the spec has none. */
  readonly permissions?: readonly string[];
}

/** The parts of a security scheme the runtime needs to find a credential. */
export interface SecuritySchemeMeta {
  /** `http`, `apiKey`, `oauth2`, `openIdConnect` or `mutualTLS`. */
  readonly type: string;
  /** For `http`: `bearer`, `basic`, ... */
  readonly scheme?: string;
  /** For `apiKey`: `header`, `query` or `cookie`. */
  readonly in?: string;
  /** For `apiKey`: the header, query or cookie name. */
  readonly name?: string;
}

/** Everything a generated `createRouter` hands to the runtime. */
export interface ApiDefinition {
  readonly api: ApiInfo;
  /** Keyed by each operation's name, which is also the key of its handler and of its `meta`. */
  readonly operations: { readonly [name: string]: OperationSchemas };
  readonly meta: { readonly [name: string]: OperationMeta };
  readonly securitySchemes: { readonly [name: string]: SecuritySchemeMeta };
}

/**
 * What the `authorize` hook says a credential grants. `scopes` are compared with the
 * operation's required scopes; `permissions` (when given) with its `x-permissions`.
 * Anything else is passed through to handlers as `request.auth`.
 */
export interface AuthGrant {
  readonly scopes: readonly string[];
  readonly permissions?: readonly string[];
  readonly [key: string]: unknown;
}

type IsJwt<K extends string> = K extends 'application/jwt' | `application/jwt;${string}` ? true : false;
type IsStructured<K extends string> = K extends
  | 'application/json'
  | `application/json;${string}`
  | `${string}+json`
  | `${string}+json;${string}`
  | 'application/x-www-form-urlencoded'
  | `application/x-www-form-urlencoded;${string}`
  | 'multipart/form-data'
  | `multipart/form-data;${string}`
  | `text/${string}`
  ? true
  : false;

/**
 * The JSON form carried by a signed body. Our specs describe `application/jwt` bodies by
 * their decoded claims (`{ iss, exp, nbf, aud?, iat?, message }`): handlers deal with the
 * `message`. Specs that describe the token as a plain string get the string.
 */
export type JwtMessage<T> = T extends string ? string : T extends { readonly message: infer M } ? M : T;

/**
 * True for the schema of a sequence (OpenAPI 3.2 `itemSchema`, the validators' `rt.sequence`):
 * its value is the items, one at a time. `any` and `unknown` schemas are not sequences.
 */
export type IsSequence<S extends z.ZodType> = [z.output<S>] extends [AsyncIterable<unknown>] ? (unknown extends z.output<S> ? false : true) : false;

type DecodedBody<K extends string, S> = S extends z.ZodType
  ? IsSequence<S> extends true
    ? z.output<S>
    : IsJwt<K> extends true
      ? JwtMessage<z.output<S>>
      : IsStructured<K> extends true
        ? z.output<S>
        : unknown
  : never;

type EncodedBody<K extends string, S> = S extends z.ZodType
  ? IsSequence<S> extends true
    ? z.input<S>
    : IsJwt<K> extends true
      ? JwtMessage<z.input<S>>
      : IsStructured<K> extends true
        ? z.input<S>
        : unknown
  : never;

type BodyUnion<C, Mode extends 'in' | 'out'> = {
  [K in keyof C & string]: Mode extends 'out' ? DecodedBody<K, C[K]> : EncodedBody<K, C[K]>;
}[keyof C & string];

/** True when the validators type an operation's body as required (a literal `required: true`). */
export type BodyRequired<Op extends OperationSchemas> = Op['request']['body'] extends { readonly required: true } ? true : false;

/**
 * The request body a handler receives: decoded, validated, the `message` of a signed body.
 * `Required` says whether the spec requires it (then it is never undefined).
 */
export type RequestBody<B, Required extends boolean = false> = B extends { readonly content: infer C }
  ? [Required] extends [true]
    ? BodyUnion<C, 'out'>
    : BodyUnion<C, 'out'> | undefined
  : undefined;

/** Facts about a verified signed (`application/jwt`) request body. */
export interface SignedBody {
  /** Every claim of the token, `message` included. */
  readonly claims: Readonly<Record<string, unknown>>;
  readonly protectedHeader: Readonly<Record<string, unknown>>;
  /** The compact token as received. */
  readonly token: string;
}

/**
 * What a handler of `Op` receives. Every member has been validated against the spec.
 * Generated code passes `Required = true` for operations whose spec requires a body.
 */
export interface HandlerRequest<Op extends OperationSchemas, Required extends boolean = BodyRequired<Op>> {
  readonly operationId: Op['operationId'];
  readonly path: z.output<Op['request']['path']>;
  readonly query: z.output<Op['request']['query']>;
  /** Lower-case header names. */
  readonly headers: z.output<Op['request']['headers']>;
  readonly cookies: z.output<Op['request']['cookies']>;
  readonly body: RequestBody<Op['request']['body'], Required>;
  /** The spec media type the body matched, when there is a body. */
  readonly contentType: string | undefined;
  /** Set when the body was a signed JWT (already verified). */
  readonly signed: SignedBody | undefined;
  /** What `authorize` granted; undefined for operations without security. */
  readonly auth: AuthGrant | undefined;
  /** `x-fapi-interaction-id` of this exchange (echoed or created). */
  readonly interactionId: string;
  /** Absolute URL of the request as the client sent it (for `Links.Self`). */
  readonly url: string;
  /** The underlying Node/Express objects, for what the contract does not cover. */
  readonly raw: { readonly req: IncomingMessage; readonly res: ServerResponse };
}

type StatusNumber<S extends string> = S extends `${infer N extends number}` ? N : number;

type StatusResult<S extends string, R> = R extends { readonly headers: infer H; readonly content: infer C }
  ? [keyof C] extends [never]
    ? {
        status: StatusNumber<S>;
        headers?: H extends z.ZodType ? Partial<z.input<H>> : never;
        body?: undefined;
        contentType?: undefined;
      }
    : {
        status: StatusNumber<S>;
        headers?: H extends z.ZodType ? Partial<z.input<H>> : never;
        /** The JSON form; the runtime signs it when `application/jwt` is negotiated. */
        body: BodyUnion<C, 'in'>;
        /** Forces one of the status's media types instead of negotiating with `Accept`. */
        contentType?: keyof C & string;
      }
  : never;

/** What a handler of `Op` returns: one of the statuses the spec defines, with its body. */
export type HandlerResult<Op extends OperationSchemas> = {
  [S in keyof Op['responses'] & string]: StatusResult<S, Op['responses'][S]>;
}[keyof Op['responses'] & string];

/** What a handler method returns: the result, or a promise of it. */
export type HandlerReply<Op extends OperationSchemas> = HandlerResult<Op> | Promise<HandlerResult<Op>>;

type IsErrorStatus<S extends string> = S extends `1${string}` | `2${string}` | `3${string}` ? false : true;

/** Bodies of the error responses (4XX, 5XX, `default`) of one operation, as sent. */
export type ErrorBodyOfOperation<Op extends OperationSchemas> = {
  [S in keyof Op['responses'] & string]: IsErrorStatus<S> extends true ? BodyUnion<Op['responses'][S]['content'], 'in'> : never;
}[keyof Op['responses'] & string];

/**
 * Every error body an API declares (what `formatError` may return); `unknown` for an API
 * that declares none.
 */
export type ErrorBodyOf<Ops extends { readonly [operationId: string]: OperationSchemas }> = [
  { [K in keyof Ops]: ErrorBodyOfOperation<Ops[K]> }[keyof Ops],
] extends [never]
  ? unknown
  : { [K in keyof Ops]: ErrorBodyOfOperation<Ops[K]> }[keyof Ops];

/** A handler of one operation. */
export type Handler<Op extends OperationSchemas> = (request: HandlerRequest<Op>) => HandlerResult<Op> | Promise<HandlerResult<Op>>;

/**
 * One entry of a validators module's `webhooks` (OpenAPI 3.1): a request the API sends to a
 * receiver. Shaped like an operation, without a path: the receiver chooses where to listen.
 */
export interface WebhookSchemas {
  /** The webhook's name: its key in the spec's `webhooks` map. */
  readonly webhook: string;
  readonly method: string;
  readonly request: RequestSchemas;
  readonly responses: { readonly [status: string]: ResponseSchemas };
}

/** A webhook as the receiver serves it: an operation at the path the receiver chose. */
export interface WebhookOperation<W extends WebhookSchemas> {
  /** The webhook's key in `webhooks` (its name, or `<name>.<method>`). */
  readonly operationId: string;
  readonly method: W['method'];
  readonly path: string;
  readonly request: W['request'];
  readonly responses: W['responses'];
}

/** What the handler of webhook `W` receives: the validated delivery (headers, body, ...). */
export type WebhookRequest<W extends WebhookSchemas, Required extends boolean = BodyRequired<WebhookOperation<W>>> = HandlerRequest<WebhookOperation<W>, Required>;

/** What the handler of webhook `W` returns: one of the statuses the spec lets the receiver answer. */
export type WebhookReply<W extends WebhookSchemas> = HandlerReply<WebhookOperation<W>>;

/** Everything a generated `createWebhookRouter` hands to the runtime. */
export interface WebhookDefinition {
  readonly api: ApiInfo;
  readonly webhooks: { readonly [key: string]: WebhookSchemas };
  /** Security of each webhook, by the same keys. */
  readonly meta: { readonly [key: string]: OperationMeta };
  readonly securitySchemes: { readonly [name: string]: SecuritySchemeMeta };
  /** The API's operations: their error responses shape the receiver's errors a webhook does not define. */
  readonly operations?: { readonly [operationId: string]: OperationSchemas };
}

/** An Express-compatible router: a `(req, res, next)` middleware, as Express routers are. */
export interface ApiRouter {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void;
  /** The path prefix this router answers under (after any Express mount path). */
  readonly prefix: string;
  /** The same router without Express's calling convention, for the other adapters (`toNodeListener`, `fastifyPlugin`). */
  readonly core: RouterCore;
}

/** One operation a router serves, as a framework's own router would register it. */
export interface RouterOperation {
  /** The operation's name: the key of its handler. */
  readonly name: string;
  readonly operationId: string;
  /** Upper case, e.g. `GET`. */
  readonly method: string;
  /** The OpenAPI path template, e.g. `/accounts/{AccountId}`, below the router's `prefix`. */
  readonly path: string;
}

/**
 * A router with no framework's calling convention: what the Express middleware, the node:http
 * listener and the Fastify plugin each wrap. None of its methods rejects: a failure of the
 * router itself is reported to `onError` and answered with the contract's 500.
 */
export interface RouterCore {
  /** The path prefix the router answers under, relative to the `url` it is given. */
  readonly prefix: string;
  /** Paths none of its operations has are left to others (a webhook receiver), not answered 404. */
  readonly passUnmatched: boolean;
  /** Every operation, in the spec's order. */
  operations(): readonly RouterOperation[];
  /**
   * Routes and answers one request. `url` is the request target below any mount point
   * (default: `req.url`). False, with nothing written, when the request is not this router's:
   * outside its prefix, or (for a webhook receiver) at a path none of its operations has.
   */
  handle(req: IncomingMessage, res: ServerResponse, url?: string): Promise<boolean>;
  /**
   * Answers a request another router has already matched to operation `name`: the path
   * parameters are read from `url` against that operation's template. A request the template
   * does not match after all (another normalisation of the path) is routed as `handle` would.
   */
  handleOperation(req: IncomingMessage, res: ServerResponse, name: string, url?: string): Promise<boolean>;
  /** Answers 404 in the spec's error shape, for a request no route took. */
  notFound(req: IncomingMessage, res: ServerResponse): Promise<void>;
}
