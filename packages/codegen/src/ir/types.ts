/**
 * The intermediate representation: the only thing emitters read.
 *
 * It is version-neutral (OpenAPI 3.0, 3.1 and 3.2 map onto the same nodes) and already
 * resolved: every `$ref` to a component schema is a `ref` node naming that schema, and
 * every other `$ref` (parameters, responses, headers, request bodies) has been inlined.
 */

/** A JSON pointer into the bundled document, e.g. `#/components/schemas/Account`. */
export type JsonPointer = string;

export type SchemaKind =
  | 'any'
  | 'never'
  | 'ref'
  | 'string'
  | 'number'
  | 'boolean'
  | 'null'
  | 'literal'
  | 'array'
  | 'object'
  | 'union'
  | 'intersection'
  | 'json';

/** Annotations every node may carry; none of them changes what validates. */
export interface SchemaMeta {
  description?: string;
  deprecated?: boolean;
  readOnly?: boolean;
  writeOnly?: boolean;
  /** `default` of the schema, applied when the value is absent. */
  default?: unknown;
  /** Also accepts `null` (3.0 `nullable: true`, or `null` in a 3.1 type array). */
  nullable?: boolean;
  /** OpenAPI 3.2 XML `nodeType` (`element`, `attribute`, `text`, `cdata`, `none`): kept, not validated. */
  xmlNodeType?: string;
  /** Where the node came from, for diagnostics. */
  pointer: JsonPointer;
}

export interface AnyNode extends SchemaMeta {
  kind: 'any';
}
export interface NeverNode extends SchemaMeta {
  kind: 'never';
}
export interface RefNode extends SchemaMeta {
  kind: 'ref';
  /** Exact name of the component schema in the file. */
  name: string;
}

/** Formats the validators check; others are annotations only (reported as such). */
export type StringFormat = 'date-time' | 'date' | 'time' | 'uri' | 'uuid' | 'email' | 'duration' | 'byte';

export interface StringNode extends SchemaMeta {
  kind: 'string';
  minLength?: number;
  maxLength?: number;
  /** Patterns exactly as written in the file; all must match. */
  patterns?: string[];
  format?: StringFormat;
  /** A `format` the validators do not check (an annotation): mocks still make values that look the part. */
  annotatedFormat?: string;
  /** Closed set of allowed values (`enum`). */
  enum?: string[];
}

export interface NumberNode extends SchemaMeta {
  kind: 'number';
  integer: boolean;
  /** `int32`/`int16`/`int8` narrow the range; `int64` does not (JSON numbers are doubles). */
  format?: 'int32' | 'int16' | 'int8' | 'int64' | 'float' | 'double';
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  enum?: number[];
}

export interface BooleanNode extends SchemaMeta {
  kind: 'boolean';
  enum?: boolean[];
}
export interface NullNode extends SchemaMeta {
  kind: 'null';
}

/** `const`, or an `enum` whose values are not all of one primitive type. */
export interface LiteralNode extends SchemaMeta {
  kind: 'literal';
  values: Array<string | number | boolean | null>;
}

export interface ArrayNode extends SchemaMeta {
  kind: 'array';
  /** Every item, or with `prefixItems` the items after them. */
  items: SchemaNode;
  /**
   * Item schemas by position (`prefixItems`), with how many of them `minItems` makes present.
   * Only in the `shape` of a `json` node: it gives TypeScript a tuple.
   */
  tuple?: { prefix: SchemaNode[]; present: number };
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

export interface PropertyIR {
  name: string;
  schema: SchemaNode;
  required: boolean;
}

export interface ObjectNode extends SchemaMeta {
  kind: 'object';
  /** In the order the file declares them. */
  properties: PropertyIR[];
  /** `allow`: any extra member; `forbid`: none; a node: extra members must match it. */
  additional: 'allow' | 'forbid' | SchemaNode;
  minProperties?: number;
  maxProperties?: number;
  /** Names listed in `required` that `properties` does not declare (still required). */
  requiredUndeclared?: string[];
}

/**
 * A `discriminator` beside `oneOf`/`anyOf`. It is a hint: it never changes what validates
 * (OpenAPI 3.0.4 and 3.1.1: it "MUST NOT change the validation outcome of the schema").
 */
export interface DiscriminatorIR {
  propertyName: string;
  /**
   * Tag value to the index of the variant it names: the explicit `mapping`, then the component
   * name of each `$ref` variant the mapping does not name (implicit mapping). Only chooses
   * which variant is tried first and whose issues an error reports.
   */
  mapping: Record<string, number>;
  /**
   * Set only when it is proven that the tag alone selects the one variant that can match:
   * every variant (through `$ref` and `allOf`) requires the member and pins it (`enum`/`const`)
   * to values no other variant admits, and the explicit mapping agrees with the pins. Pinned
   * value to variant index; a value it does not list matches no variant. Then the tag
   * dispatches (a `switch`) with the answer of `oneOf`/`anyOf`.
   */
  selects?: Record<string, number>;
  /**
   * OpenAPI 3.2 `defaultMapping`: the variant expected when the tag is absent or maps to no
   * variant. A hint like the rest: it never changes what validates.
   */
  defaultVariant?: number;
}

export interface UnionNode extends SchemaMeta {
  kind: 'union';
  /** `oneOf`: exactly one variant matches; `anyOf`: at least one. */
  mode: 'oneOf' | 'anyOf';
  variants: SchemaNode[];
  discriminator?: DiscriminatorIR;
  /**
   * Set when analysis proved at most one variant can match any value, so "exactly one"
   * needs no counting at run time.
   */
  exclusive: boolean;
}

/** An `allOf` that could not be merged into a single object. */
export interface IntersectionNode extends SchemaMeta {
  kind: 'intersection';
  parts: SchemaNode[];
}

/**
 * A schema validated exactly by the generated JSON Schema runtime rather than by zod builders:
 * one that uses keywords the other nodes cannot express (`not`, `if`, `patternProperties`,
 * `prefixItems`, `unevaluatedProperties`, references into itself...). `pointer` names its raw
 * schema in the document; `ApiIR.jsonSchemas` holds it.
 */
export interface JsonSchemaNode extends SchemaMeta {
  kind: 'json';
  /** A node at least as wide as the schema, for TypeScript types only (never narrower). */
  shape: SchemaNode;
  /**
   * Set where a request body or a response carries it (readOnly and writeOnly by direction,
   * ir/direction.ts): the runtime then does not require members hidden in that direction, and
   * with `refuse` refuses them when present.
   */
  mode?: { direction: 'request' | 'response'; refuse: boolean };
}

export type SchemaNode =
  | JsonSchemaNode
  | AnyNode
  | NeverNode
  | RefNode
  | StringNode
  | NumberNode
  | BooleanNode
  | NullNode
  | LiteralNode
  | ArrayNode
  | ObjectNode
  | UnionNode
  | IntersectionNode;

export interface NamedSchema {
  /** Exact name in `components.schemas`. */
  name: string;
  schema: SchemaNode;
  /** Names of component schemas this one refers to (directly). */
  dependencies: string[];
  /** True when this schema takes part in a reference cycle. */
  recursive: boolean;
  examples: ExampleIR[];
  /**
   * Set on the per-direction variant of a component schema (see ir/direction.ts): the schema it
   * derives from and the direction. Its `name` is then `<schema>@<direction>`, never a
   * component's name; its export is `<schema>Request` or `<schema>Response`.
   */
  variantOf?: { name: string; direction: 'request' | 'response' };
}

export interface ExampleIR {
  /** Where the example sits in the file. */
  pointer: JsonPointer;
  value: unknown;
}

/** `querystring` (OpenAPI 3.2): the whole query string as one value, described by `content`. */
export type ParameterLocation = 'path' | 'query' | 'querystring' | 'header' | 'cookie';

export interface ParameterIR {
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: SchemaNode;
  description?: string;
  deprecated?: boolean;
  /**
   * Serialization (OpenAPI 3 `style`/`explode`); defaults already applied. A `querystring`
   * parameter has none (its `contentType` is its whole serialization): `style` is `content`.
   */
  style: string;
  explode: boolean;
  /** `allowReserved` (query only): RFC 3986 reserved characters are sent without percent-encoding. */
  allowReserved?: boolean;
  /** Media type of a `content`-encoded parameter (its value travels as, e.g., JSON text). */
  contentType?: string;
  /**
   * Set on the query parameters read from a form-encoded OpenAPI 3.2 `querystring` parameter
   * (one per member of its object schema): that parameter's name.
   */
  fromQuerystring?: string;
  /**
   * Set with `fromQuerystring` when that parameter's object admits no other member
   * (`additionalProperties: false`, or `unevaluatedProperties: false` alone): a query name
   * that is none of its members is then an invalid value (400), not an ignored one.
   */
  closedQuerystring?: boolean;
  examples: ExampleIR[];
}

export interface MediaTypeIR {
  /** Exactly as written, e.g. `application/json; charset=utf-8`. */
  contentType: string;
  schema?: SchemaNode;
  /**
   * OpenAPI 3.2 `itemSchema`: the body is a sequence (Server-Sent Events, JSON Lines, JSON text
   * sequences, `multipart/mixed`) and each item must match this schema as it arrives.
   */
  itemSchema?: SchemaNode;
  /** OpenAPI 3.2 `multipart/mixed` (and other positional multipart): how every item is encoded. */
  itemEncoding?: PartEncodingIR;
  /** OpenAPI 3.2: how the first items are encoded, by position (`itemEncoding` for the rest). */
  prefixEncoding?: PartEncodingIR[];
  examples: ExampleIR[];
  /**
   * For `application/x-www-form-urlencoded` and `multipart/form-data` bodies of an object
   * schema: how each member travels (its type and the media type's `encoding` entry), by name.
   */
  form?: Record<string, FormFieldIR>;
}

/** An Encoding Object of a positional part (`itemEncoding`, `prefixEncoding`): its media type and headers. */
export interface PartEncodingIR {
  /** `contentType` as written (a list such as `image/png, image/jpeg` included). */
  contentType?: string;
  headers: HeaderIR[];
}

/**
 * What a form member is, as far as its text needs decoding: form fields are text, so the
 * runtimes need the schema's type to turn `42` into a number and to find files.
 */
export interface FormValueIR {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'file' | 'array' | 'object' | 'any';
  /** For `array`. */
  items?: FormValueIR;
  /** For `object`: its declared members. */
  properties?: Record<string, FormValueIR>;
}

/** One member of a form body: its value and the `encoding` entry the spec writes for it. */
export interface FormFieldIR extends FormValueIR {
  /** `encoding.<name>.contentType`, as written. */
  contentType?: string;
  /** `encoding.<name>.style` and `explode`, only where written: the runtimes apply the defaults. */
  style?: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  explode?: boolean;
  allowReserved?: boolean;
}

export interface RequestBodyIR {
  required: boolean;
  description?: string;
  content: MediaTypeIR[];
}

export interface HeaderIR {
  name: string;
  required: boolean;
  schema: SchemaNode;
  description?: string;
}

export interface ResponseIR {
  /** `200`, `404`, `4XX` or `default`. */
  status: string;
  /** OpenAPI 3.2 `summary` (a short text beside `description`, which 3.2 makes optional). */
  summary?: string;
  description: string;
  headers: HeaderIR[];
  content: MediaTypeIR[];
  /** OpenAPI links from this response to other operations; absent when it declares none. */
  links?: LinkIR[];
}

/**
 * An OpenAPI link: how values of a response (and its request) feed a request to another
 * operation. Runtime expressions (`$response.body#/id`) are kept as written.
 */
export interface LinkIR {
  name: string;
  /** The target's operationId, or the resolved target of an `operationRef` into this file. */
  operationId?: string;
  /** As written, when it names an operation outside this file or one not found. */
  operationRef?: string;
  /** Parameter name (optionally `path.`/`query.`/`header.`/`cookie.` qualified) to a runtime expression or a constant. */
  parameters: Record<string, unknown>;
  requestBody?: unknown;
  description?: string;
}

export interface SecurityRequirementIR {
  /** Scheme name to scopes; an empty object means "no security". */
  [scheme: string]: string[];
}

/** The methods a Path Item names by a fixed field (OpenAPI 3.2 added `query`). */
export const FIXED_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

/**
 * A fixed field's name (`get`, `query`...), or a key of an OpenAPI 3.2 `additionalOperations`
 * map exactly as written (`COPY`): the method token as it is sent, in upper case.
 */
export type HttpMethod = (typeof FIXED_METHODS)[number] | (string & {});

export interface OperationIR {
  /** As written in the file (or made from method and path when it has none): data for messages and logs. */
  operationId: string;
  /**
   * The one identifier of the operation in generated code: the `Handlers` key, the client
   * method, the validators' `operations` key and the scaffold stub. The operationId when it is
   * an identifier, else derived from it (ir/operation-names.ts); unique in the API.
   */
  name: string;
  method: HttpMethod;
  /** Path as written in `paths`, relative to the server prefix. */
  path: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  parameters: ParameterIR[];
  requestBody?: RequestBodyIR;
  responses: ResponseIR[];
  /** Effective requirements (operation-level, or the document's default). Alternatives. */
  security: SecurityRequirementIR[];
  /** The operation's `x-` extensions as written (e.g. `x-permissions`), keys sorted. */
  extensions: Record<string, unknown>;
  pointer: JsonPointer;
}

/**
 * One operation of a webhook (OpenAPI 3.1 `webhooks`): a request the API sends to a receiver
 * the API's user runs. Shaped like an operation, but named by its key in the `webhooks` map
 * and without a path: the receiver chooses where to listen.
 */
export interface WebhookIR {
  /** Key in the document's `webhooks` map, exactly as written. */
  name: string;
  /**
   * Its key in the generated `webhooks` map, handlers and paths: the name, or `name.method`
   * when one name has several methods; made unique with `_2`, `_3`...
   */
  key: string;
  method: HttpMethod;
  /** The operation's own `operationId`, when it has one (informative only). */
  operationId?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  /** Path-item and operation parameters, merged as for operations (headers, mostly). */
  parameters: ParameterIR[];
  requestBody?: RequestBodyIR;
  /** What the receiver may answer. */
  responses: ResponseIR[];
  /**
   * The webhook operation's own `security` (what the receiver may require of the sender).
   * The document's default `security` is not applied: it describes calls to the API.
   */
  security: SecurityRequirementIR[];
  extensions: Record<string, unknown>;
  /** `#/webhooks/<name>/<method>`. */
  pointer: JsonPointer;
}

export interface SecuritySchemeIR {
  name: string;
  type: string;
  /** OpenAPI 3.2: the scheme is deprecated (clients should move to another). */
  deprecated?: boolean;
  /** OpenAPI 3.2 `oauth2MetadataUrl`: where the authorization server's metadata (RFC 8414) is. */
  oauth2MetadataUrl?: string;
  scheme?: string;
  bearerFormat?: string;
  in?: string;
  parameterName?: string;
  description?: string;
  /** OAuth2 flows: flow name to scopes. */
  flows?: Record<string, OAuthFlowIR>;
}

/** One OAuth 2 flow (3.2 adds `deviceAuthorization`, RFC 8628). */
export interface OAuthFlowIR {
  scopes: string[];
  tokenUrl?: string;
  authorizationUrl?: string;
  /** `deviceAuthorizationUrl` of the device authorization flow. */
  deviceAuthorizationUrl?: string;
}

/** A Tag Object; OpenAPI 3.2 adds `summary`, `parent` (nesting) and `kind`. */
export interface TagIR {
  name: string;
  summary?: string;
  description?: string;
  parent?: string;
  kind?: string;
}

export interface ServerIR {
  url: string;
  /** OpenAPI 3.2 `name`: a short name for the server. */
  name?: string;
  description?: string;
  /** The path part of `url` (the mount prefix), without a trailing slash. */
  pathPrefix: string;
}

export type DiagnosticSeverity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  severity: DiagnosticSeverity;
  /** Short machine-readable kind, e.g. `unsupported-keyword`. */
  code: string;
  pointer: JsonPointer;
  message: string;
}

/** The raw schemas `json` nodes validate, with every `$ref` rewritten as a pointer into the table. */
export interface JsonSchemaTableIR {
  /** `3.0`: draft-4 rules with OpenAPI 3.0's `nullable`; `3.1`: JSON Schema 2020-12. */
  dialect: '3.0' | '3.1';
  table: Record<JsonPointer, unknown>;
  /**
   * Only where a `$dynamicRef` consults the dynamic scope: every schema resource by the pointer
   * of its root (`#`: the document), with the `$dynamicAnchor`s it declares by name.
   */
  dynamicScopes?: Record<JsonPointer, Record<string, JsonPointer>>;
}

export interface ApiIR {
  /** Path of the root file, as given. */
  source: string;
  openapiVersion: string;
  title: string;
  /** `info.version` as written. */
  version: string;
  servers: ServerIR[];
  /** The document's `tags`, in the order written; absent when it declares none. */
  tags?: TagIR[];
  schemas: NamedSchema[];
  operations: OperationIR[];
  /**
   * Operations of the OpenAPI 3.1 `webhooks` map, in the order the file declares them (one
   * entry per method). Kept apart from `operations`: they have no path and are received, not
   * served. Absent or empty when the file has none.
   */
  webhooks?: WebhookIR[];
  securitySchemes: SecuritySchemeIR[];
  /** Present when some schema is a `json` node. */
  jsonSchemas?: JsonSchemaTableIR;
  diagnostics: Diagnostic[];
}
