import type { LoadedSpec } from '../load/load-spec.js';
import { escapePointerToken, followPointerRefs, isRecord, resolvePointer } from './json-pointer.js';
import { schemaToIR, type FormatMode, type NullableReading, type SchemaContext, type SchemaReading, type UnsupportedMode } from './schema-to-ir.js';
import { JsonSchemaScope } from './json-schema-table.js';
import { formLayout } from './form-encoding.js';
import { valueFits } from './value-fits.js';
import { findRecursiveSchemas, referencedNames } from './references.js';
import { assignOperationNames } from './operation-names.js';
import { allOfClosedReading } from './merge-all-of.js';
import { schemaDialectOf } from './openapi-version.js';
import { fieldsOfLaterVersion } from './version-fields.js';
import { dropRepeatedPatternWarnings } from './pattern-warning.js';
import { isFormType, isJsonType, isTextType } from '@bank-data-sharing/wire';
import { serializedParameterReader, type SerializedReader } from './serialized-parameter.js';
import { deref } from './deref.js';
import type { ComponentLookup } from './deref-kind.js';
import { isFixedMethod, PATH_ITEM_MEMBERS, pathItemOperations } from './path-item-operations.js';
import type {
  ApiIR,
  Diagnostic,
  ExampleIR,
  HeaderIR,
  JsonPointer,
  LinkIR,
  MediaTypeIR,
  NamedSchema,
  OAuthFlowIR,
  ObjectNode,
  OperationIR,
  ParameterIR,
  ParameterLocation,
  PartEncodingIR,
  RequestBodyIR,
  ResponseIR,
  SchemaNode,
  SecurityRequirementIR,
  SecuritySchemeIR,
  ServerIR,
  TagIR,
  WebhookIR,
} from './types.js';


/** An example found in the file, with the schema it must satisfy. */
export interface CheckedExample extends ExampleIR {
  schema: SchemaNode;
}

export interface BuiltIR {
  api: ApiIR;
  /** Every example and the schema it belongs to, for `verify`. */
  examples: CheckedExample[];
}

class IRBuilder {
  readonly diagnostics: Diagnostic[];
  readonly examples: CheckedExample[] = [];
  readonly ctx: SchemaContext;
  /** Pointers of the examples already named by an `example-mismatch` warning. */
  private readonly misfitsNamed = new Set<JsonPointer>();
  private readonly inProgress = new Set<string>();

  constructor(
    private readonly doc: Record<string, unknown>,
    diagnostics: Diagnostic[],
    { reading, formats, unsupported, nullable }: BuildOptions,
  ) {
    this.diagnostics = diagnostics;
    const components = isRecord(doc['components']) ? doc['components'] : {};
    const rawSchemas = isRecord(components['schemas']) ? components['schemas'] : {};
    const openapi = String(doc['openapi']);
    const dialect = schemaDialectOf(openapi);
    this.ctx = {
      document: doc,
      dialect,
      // 3.1 schemas are JSON Schema 2020-12 and read exactly; 3.0 files were written for the
      // tools of their day, which read them the lenient way (see the README).
      reading: reading ?? (dialect === '3.1' ? 'exact' : 'lenient'),
      formats: formats ?? 'assert',
      unsupported: unsupported ?? 'refuse',
      nullable: nullable ?? 'lenient',
      scope: new JsonSchemaScope(doc, dialect),
      jsonRoots: new Set(),
      diagnostics,
      components: new Map(),
      rawComponents: rawSchemas,
      inlining: new Set(),
      resolveComponent: (name) => this.component(name),
    };
  }

  component(name: string): SchemaNode | undefined {
    const done = this.ctx.components.get(name);
    if (done) return done;
    if (this.inProgress.has(name)) return undefined;
    this.inProgress.add(name);
    const pointer = `#/components/schemas/${escapePointerToken(name)}`;
    const node = schemaToIR(this.ctx.rawComponents[name], pointer, this.ctx);
    this.inProgress.delete(name);
    this.ctx.components.set(name, node);
    return node;
  }

  /** Follows `$ref`s of non-schema components (parameters, responses, headers, bodies, examples). */
  resolve(value: unknown, pointer: JsonPointer): { value: unknown; pointer: JsonPointer } {
    let current = value;
    let at = pointer;
    for (let hops = 0; isRecord(current) && typeof current['$ref'] === 'string'; hops++) {
      const ref = current['$ref'];
      const target = hops < 32 ? resolvePointer(this.doc, ref) : undefined;
      if (target === undefined) {
        this.diagnostics.push({ severity: 'error', code: 'unresolved-ref', pointer: at, message: `$ref "${ref}" points to nothing` });
        return { value: {}, pointer: at };
      }
      current = target;
      at = ref;
    }
    return { value: current, pointer: at };
  }

  /** A schema node through `$ref`s to component schemas (undefined for a reference cycle or a missing one). */
  deref(node: SchemaNode): SchemaNode | undefined {
    return deref(node, this.ctx);
  }

  /** Component schemas by name, built as they are asked for. */
  readonly components: ComponentLookup = { get: (name) => this.component(name) };

  schema(raw: unknown, pointer: JsonPointer): SchemaNode {
    return schemaToIR(raw ?? true, pointer, this.ctx);
  }

  /**
   * `readSerialized` reads an OpenAPI 3.2 `serializedValue` (the example as it travels) into the
   * value it carries, or says why it cannot; without it, `serializedValue` is not checked.
   */
  collectExamples(holder: Record<string, unknown>, pointer: JsonPointer, schema: SchemaNode | undefined, openapiExamples: boolean, readSerialized?: SerializedReader): ExampleIR[] {
    const found: ExampleIR[] = [];
    if ('example' in holder) found.push({ pointer: `${pointer}/example`, value: holder['example'] });
    const examples = holder['examples'];
    if (openapiExamples && isRecord(examples)) {
      // Parameter and media type `examples`: a map of Example Objects (OpenAPI §4.8.19).
      for (const [key, raw] of Object.entries(examples)) {
        const { value: example } = this.resolve(raw, `${pointer}/examples/${escapePointerToken(key)}`);
        // OpenAPI 3.2 `dataValue` is the value as data, as `value` is.
        for (const member of ['value', 'dataValue']) {
          if (isRecord(example) && member in example) {
            found.push({ pointer: `${pointer}/examples/${escapePointerToken(key)}/${member}`, value: example[member] });
          }
        }
        // `serializedValue` is the value as it travels: read in its form, then checked like the others.
        if (isRecord(example) && typeof example['serializedValue'] === 'string' && readSerialized) {
          const at = `${pointer}/examples/${escapePointerToken(key)}/serializedValue`;
          const read = readSerialized(example['serializedValue']);
          if ('value' in read) {
            found.push({ pointer: at, value: read.value });
            if ('dataValue' in example && !sameJson(read.value, example['dataValue'])) {
              this.diagnostics.push({ severity: 'warning', code: 'example-mismatch', pointer: at, message: 'serializedValue does not carry the value dataValue gives' });
            }
          } else if (!this.misfitsNamed.has(at)) {
            this.misfitsNamed.add(at);
            this.diagnostics.push({ severity: 'warning', code: 'example-mismatch', pointer: at, message: `serializedValue cannot be read: ${read.problem}` });
          }
        }
      }
    } else if (!openapiExamples && Array.isArray(examples)) {
      // Schema `examples` (3.1): an array of values.
      examples.forEach((value, i) => found.push({ pointer: `${pointer}/examples/${i}`, value }));
    }
    if (schema) {
      for (const example of found) {
        this.examples.push({ ...example, schema });
        // `verify` checks each with the generated validators; generate already names the sure misfits.
        // A shared component (a response, an example) is reached once per use: named once.
        if (this.misfitsNamed.has(example.pointer)) continue;
        const fit = valueFits(example.value, schema, this.ctx);
        if (fit !== true) {
          this.misfitsNamed.add(example.pointer);
          this.diagnostics.push({ severity: 'warning', code: 'example-mismatch', pointer: example.pointer, message: `example does not fit its schema (${fit})` });
        }
      }
    }
    return found;
  }
}

/** A reader of the text once percent-decoded (a query string). */
function percentDecoded(reader: SerializedReader | undefined): SerializedReader | undefined {
  if (!reader) return undefined;
  return (text) => {
    try {
      return reader(decodeURIComponent(text));
    } catch {
      return { problem: 'it is not valid percent-encoding' };
    }
  };
}

/** The reader of JSON media types (and `content` parameters in JSON); undefined for others, whose text form is not checked. */
function serializedReaderOf(contentType: string | undefined): SerializedReader | undefined {
  if (contentType === undefined) return undefined;
  if (isJsonType(contentType)) {
    return (text) => {
      try {
        return { value: JSON.parse(text) as unknown };
      } catch (error) {
        return { problem: `it is not JSON (${error instanceof Error ? error.message : String(error)}), as ${contentType} requires` };
      }
    };
  }
  if (isTextType(contentType)) return (text) => ({ value: text });
  return undefined;
}

/** The same JSON value, members in any order. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (!isRecord(a) || !isRecord(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.prototype.hasOwnProperty.call(b, key) && sameJson(a[key], b[key]));
}

function serversOf(doc: Record<string, unknown>): ServerIR[] {
  const servers = Array.isArray(doc['servers']) ? doc['servers'] : [];
  const out: ServerIR[] = [];
  for (const server of servers) {
    if (!isRecord(server) || typeof server['url'] !== 'string') continue;
    const variables = isRecord(server['variables']) ? server['variables'] : {};
    // Substitute variable defaults; a variable without one stands for a host and is dropped.
    const expanded = server['url'].replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = variables[name];
      return isRecord(v) && typeof v['default'] === 'string' ? v['default'] : '';
    });
    // Hosts may be placeholders such as `https://<your-server>`: take the path textually.
    const withoutOrigin = /^[a-z][a-z0-9+.-]*:\/\//i.test(expanded) ? expanded.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') : expanded.replace(/^[^/]*/, '');
    const pathPrefix = withoutOrigin.replace(/[?#].*$/, '').replace(/\/+$/, '');
    const ir: ServerIR = { url: server['url'], pathPrefix };
    if (typeof server['name'] === 'string') ir.name = server['name'];
    if (typeof server['description'] === 'string') ir.description = server['description'];
    out.push(ir);
  }
  return out;
}

/** The document's `tags` (OpenAPI 3.2 adds `summary`, `parent` and `kind`). */
function tagsOf(doc: Record<string, unknown>): TagIR[] {
  const tags = Array.isArray(doc['tags']) ? doc['tags'] : [];
  const out: TagIR[] = [];
  for (const tag of tags) {
    if (!isRecord(tag) || typeof tag['name'] !== 'string') continue;
    const ir: TagIR = { name: tag['name'] };
    for (const key of ['summary', 'description', 'parent', 'kind'] as const) {
      if (typeof tag[key] === 'string') ir[key] = tag[key];
    }
    out.push(ir);
  }
  return out;
}

function securityOf(value: unknown): SecurityRequirementIR[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((req) => {
    const out: SecurityRequirementIR = {};
    for (const [scheme, scopes] of Object.entries(req)) {
      out[scheme] = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : [];
    }
    return out;
  });
}

function securitySchemesOf(builder: IRBuilder, doc: Record<string, unknown>): SecuritySchemeIR[] {
  const components = isRecord(doc['components']) ? doc['components'] : {};
  const schemes = isRecord(components['securitySchemes']) ? components['securitySchemes'] : {};
  const out: SecuritySchemeIR[] = [];
  for (const [name, raw] of Object.entries(schemes)) {
    const { value } = builder.resolve(raw, `#/components/securitySchemes/${escapePointerToken(name)}`);
    if (!isRecord(value)) continue;
    const scheme: SecuritySchemeIR = { name, type: String(value['type'] ?? '') };
    if (typeof value['scheme'] === 'string') scheme.scheme = value['scheme'];
    if (typeof value['bearerFormat'] === 'string') scheme.bearerFormat = value['bearerFormat'];
    if (typeof value['in'] === 'string') scheme.in = value['in'];
    if (typeof value['name'] === 'string') scheme.parameterName = value['name'];
    if (typeof value['description'] === 'string') scheme.description = value['description'];
    if (value['deprecated'] === true) scheme.deprecated = true;
    if (typeof value['oauth2MetadataUrl'] === 'string') scheme.oauth2MetadataUrl = value['oauth2MetadataUrl'];
    if (isRecord(value['flows'])) {
      scheme.flows = {};
      for (const [flow, def] of Object.entries(value['flows'])) {
        if (!isRecord(def)) continue;
        const entry: OAuthFlowIR = { scopes: isRecord(def['scopes']) ? Object.keys(def['scopes']) : [] };
        for (const url of ['tokenUrl', 'authorizationUrl', 'deviceAuthorizationUrl'] as const) {
          if (typeof def[url] === 'string') entry[url] = def[url];
        }
        scheme.flows[flow] = entry;
      }
    }
    out.push(scheme);
  }
  return out;
}

function parametersOf(builder: IRBuilder, rawList: unknown[], pointer: JsonPointer): ParameterIR[] {
  const out: ParameterIR[] = [];
  rawList.forEach((raw, i) => {
    const { value, pointer: at } = builder.resolve(raw, `${pointer}/${i}`);
    if (!isRecord(value) || typeof value['name'] !== 'string' || typeof value['in'] !== 'string') {
      builder.diagnostics.push({ severity: 'error', code: 'invalid-parameter', pointer: at, message: 'a parameter needs "name" and "in"' });
      return;
    }
    const location = value['in'] as ParameterLocation;
    let schemaRaw: unknown = value['schema'];
    let schemaPointer = `${at}/schema`;
    let contentType: string | undefined;
    if (schemaRaw === undefined && isRecord(value['content'])) {
      const [mediaType, media] = Object.entries(value['content'])[0] ?? [];
      if (mediaType && isRecord(media)) {
        contentType = mediaType;
        schemaRaw = media['schema'];
        schemaPointer = `${at}/content/${escapePointerToken(mediaType)}/schema`;
      }
    }
    if (value['style'] === 'cookie' && location !== 'cookie') {
      builder.diagnostics.push({ severity: 'error', code: 'invalid-parameter', pointer: at, message: `style cookie is for "in: cookie" parameters, not "in: ${location}"` });
      return;
    }
    if (location === 'querystring') {
      if (!querystringWellFormed(builder, value, at)) return;
      const form = formQuerystring(builder, value, at);
      if (form !== undefined) {
        out.push(...form);
        return;
      }
    }
    const schema = builder.schema(schemaRaw, schemaPointer);
    const style = location === 'querystring' ? 'content' : typeof value['style'] === 'string' ? value['style'] : location === 'query' || location === 'cookie' ? 'form' : 'simple';
    const parameter: ParameterIR = {
      name: value['name'],
      in: location,
      required: location === 'path' ? true : value['required'] === true,
      schema,
      style,
      // `form` and OpenAPI 3.2's `cookie` style explode unless told otherwise.
      explode: location === 'querystring' ? false : typeof value['explode'] === 'boolean' ? value['explode'] : style === 'form' || style === 'cookie',
      examples: [],
    };
    if (typeof value['description'] === 'string') parameter.description = value['description'];
    if (value['deprecated'] === true) parameter.deprecated = true;
    // OpenAPI: `allowReserved` applies only to query parameters.
    if (value['allowReserved'] === true && location === 'query') parameter.allowReserved = true;
    if (contentType !== undefined) parameter.contentType = contentType;
    // A `serializedValue` is read as the parameter travels: in its place and style (a query string percent-encoded).
    const reader =
      location === 'querystring' ? percentDecoded(serializedReaderOf(contentType)) : serializedParameterReader(parameter, builder.components);
    parameter.examples = builder.collectExamples(value, at, schema, true, reader);
    out.push(parameter);
  });
  return out;
}

/**
 * OpenAPI 3.2: a `querystring` parameter is described by `content` alone (one media type); the
 * members that shape a single value (`schema`, `style`, `explode`, `allowReserved`) are not its.
 */
function querystringWellFormed(builder: IRBuilder, value: Record<string, unknown>, at: JsonPointer): boolean {
  const wrong = ['schema', 'style', 'explode', 'allowReserved'].filter((key) => value[key] !== undefined);
  const media = isRecord(value['content']) ? Object.keys(value['content']) : [];
  const problems = [
    ...wrong.map((key) => `"${key}" is not allowed on an "in: querystring" parameter (its "content" describes the whole query string)`),
    ...(media.length !== 1 ? [`an "in: querystring" parameter needs "content" with exactly one media type (found ${media.length})`] : []),
  ];
  for (const message of problems) builder.diagnostics.push({ severity: 'error', code: 'invalid-querystring-parameter', pointer: at, message });
  return problems.length === 0;
}

/** The object node a schema is, through `$ref`s, or undefined. */
function objectNodeOf(builder: IRBuilder, node: SchemaNode): ObjectNode | undefined {
  const target = builder.deref(node);
  return target?.kind === 'object' ? target : undefined;
}

/**
 * How a `querystring` parameter travels, by its one media type. Form encoding
 * (`application/x-www-form-urlencoded`) is the query string as everyone writes it: each member
 * of its object schema becomes a query parameter (`form`, exploded, unless its `encoding` entry
 * says otherwise), returned here. JSON stays one parameter, its value the query string's JSON
 * text; undefined is returned for it. Anything else is refused (an error), as is a schema that
 * is not an object, which no target could type as the query: an empty list.
 */
function formQuerystring(builder: IRBuilder, value: Record<string, unknown>, at: JsonPointer): ParameterIR[] | undefined {
  const content = value['content'] as Record<string, unknown>;
  const [mediaType, rawMedia] = Object.entries(content)[0]!;
  const media = isRecord(rawMedia) ? rawMedia : {};
  const name = String(value['name']);
  const refuse = (why: string): ParameterIR[] => {
    builder.diagnostics.push({ severity: 'error', code: 'querystring-not-generated', pointer: at, message: `the "in: querystring" parameter "${name}" is not generated: ${why}` });
    return [];
  };
  const isJson = isJsonType(mediaType);
  if (!isJson && !isFormType(mediaType)) return refuse(`its media type ${mediaType} is neither form encoding nor JSON`);
  const schemaAt = `${at}/content/${escapePointerToken(mediaType)}/schema`;
  const schema = builder.schema(isJson ? media['schema'] : closedAsAdditional(builder, media['schema'], schemaAt), schemaAt);
  const object = objectNodeOf(builder, schema);
  if (!object) return refuse('its schema is not an object (the query is typed as an object of members)');
  if (isJson) return undefined;
  const encoding = isRecord(media['encoding']) ? media['encoding'] : {};
  // A closed object (`additionalProperties: false`): a name that is none of its members is an
  // invalid query string, as an unknown member of a body would be.
  const closed = object.additional === 'forbid';
  return object.properties.map((member): ParameterIR => {
    const entry = isRecord(encoding[member.name]) ? (encoding[member.name] as Record<string, unknown>) : {};
    const style = typeof entry['style'] === 'string' ? entry['style'] : 'form';
    const parameter: ParameterIR = {
      name: member.name,
      in: 'query',
      required: member.required,
      schema: member.schema,
      style,
      explode: typeof entry['explode'] === 'boolean' ? entry['explode'] : style === 'form',
      fromQuerystring: name,
      examples: [],
    };
    if (closed) parameter.closedQuerystring = true;
    if (member.schema.description !== undefined) parameter.description = member.schema.description;
    if (entry['allowReserved'] === true) parameter.allowReserved = true;
    return parameter;
  });
}

/** Keywords beside which `unevaluatedProperties` sees members `properties` does not declare. */
const EVALUATING = ['allOf', 'anyOf', 'oneOf', 'if', 'then', 'else', 'dependentSchemas', '$ref', '$dynamicRef', 'patternProperties', 'additionalProperties'];

/**
 * A form querystring's schema with `unevaluatedProperties: false` and no keyword that
 * evaluates members beside `properties` reads as `additionalProperties: false` (the same
 * members are allowed), so that it is generated as the closed object it is; any other schema
 * is returned as written.
 */
function closedAsAdditional(builder: IRBuilder, raw: unknown, pointer: JsonPointer): unknown {
  const { value } = builder.resolve(raw, pointer);
  if (!isRecord(value) || value['unevaluatedProperties'] !== false || EVALUATING.some((key) => value[key] !== undefined)) return raw;
  const closed: Record<string, unknown> = { ...value, additionalProperties: false };
  delete closed['unevaluatedProperties'];
  return closed;
}

/**
 * OpenAPI 3.2: one `querystring` parameter at most, and no `query` parameter beside it (the
 * query string is one value). Checked on the merged list of an operation.
 */
function checkQuerystringRules(builder: IRBuilder, parameters: ParameterIR[], pointer: JsonPointer): void {
  const whole = [...new Set(parameters.flatMap((p) => (p.in === 'querystring' ? [p.name] : p.fromQuerystring !== undefined ? [p.fromQuerystring] : [])))];
  if (whole.length === 0) return;
  if (whole.length > 1) {
    builder.diagnostics.push({ severity: 'error', code: 'invalid-querystring-parameter', pointer, message: `an operation has at most one "in: querystring" parameter (found ${whole.map((name) => `"${name}"`).join(', ')})` });
  }
  const named = parameters.filter((p) => p.in === 'query' && p.fromQuerystring === undefined);
  if (named.length > 0) {
    builder.diagnostics.push({
      severity: 'error',
      code: 'invalid-querystring-parameter',
      pointer,
      message: `"in: query" parameters (${named.map((p) => `"${p.name}"`).join(', ')}) cannot stand beside the "in: querystring" parameter "${whole[0]!}", which is the whole query string`,
    });
  }
}

/** Operation parameters override path-level ones with the same name and location (§4.8.10). */
function mergeParameters(pathLevel: ParameterIR[], operationLevel: ParameterIR[]): ParameterIR[] {
  const key = (p: ParameterIR) => `${p.in}:${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
  const overridden = new Set(operationLevel.map(key));
  return [...pathLevel.filter((p) => !overridden.has(key(p))), ...operationLevel];
}

function contentOf(builder: IRBuilder, content: unknown, pointer: JsonPointer): MediaTypeIR[] {
  if (!isRecord(content)) return [];
  return Object.entries(content).map(([contentType, written]) => {
    // OpenAPI 3.2: a Media Type Object may be a `$ref` (to `components/mediaTypes`).
    const { value: raw, pointer: at } = builder.resolve(written, `${pointer}/${escapePointerToken(contentType)}`);
    const media = isRecord(raw) ? raw : {};
    const ir: MediaTypeIR = { contentType, examples: [] };
    if (media['schema'] !== undefined) ir.schema = builder.schema(media['schema'], `${at}/schema`);
    if (media['itemSchema'] !== undefined) ir.itemSchema = builder.schema(media['itemSchema'], `${at}/itemSchema`);
    const itemEncoding = partEncodingOf(builder, media['itemEncoding'], `${at}/itemEncoding`);
    if (itemEncoding) ir.itemEncoding = itemEncoding;
    if (Array.isArray(media['prefixEncoding'])) {
      ir.prefixEncoding = media['prefixEncoding'].map((raw, i) => partEncodingOf(builder, raw, `${at}/prefixEncoding/${i}`) ?? { headers: [] });
    }
    // Examples of a sequence are of one item when only `itemSchema` is given.
    ir.examples = builder.collectExamples(media, at, ir.schema ?? ir.itemSchema, true, ir.itemSchema ? undefined : serializedReaderOf(contentType));
    const form = formLayout(contentType, media, (value) => followPointerRefs(builder.ctx.document, value), builder.ctx.dialect);
    if (form) ir.form = form;
    return ir;
  });
}

/** One Encoding Object of `itemEncoding` or `prefixEncoding`. */
function partEncodingOf(builder: IRBuilder, raw: unknown, pointer: JsonPointer): PartEncodingIR | undefined {
  if (!isRecord(raw)) return undefined;
  const encoding: PartEncodingIR = { headers: headersOf(builder, raw['headers'], `${pointer}/headers`) };
  if (typeof raw['contentType'] === 'string') encoding.contentType = raw['contentType'];
  return encoding;
}

function headersOf(builder: IRBuilder, headers: unknown, pointer: JsonPointer): HeaderIR[] {
  if (!isRecord(headers)) return [];
  const out: HeaderIR[] = [];
  for (const [name, raw] of Object.entries(headers)) {
    // OpenAPI §4.8.17: a Content-Type response header is ignored.
    if (name.toLowerCase() === 'content-type') continue;
    const { value, pointer: at } = builder.resolve(raw, `${pointer}/${escapePointerToken(name)}`);
    const header = isRecord(value) ? value : {};
    const ir: HeaderIR = { name, required: header['required'] === true, schema: builder.schema(header['schema'], `${at}/schema`) };
    if (typeof header['description'] === 'string') ir.description = header['description'];
    out.push(ir);
  }
  return out;
}

function requestBodyOf(builder: IRBuilder, raw: unknown, pointer: JsonPointer): RequestBodyIR | undefined {
  if (raw === undefined) return undefined;
  const { value, pointer: at } = builder.resolve(raw, pointer);
  if (!isRecord(value)) return undefined;
  const body: RequestBodyIR = { required: value['required'] === true, content: contentOf(builder, value['content'], `${at}/content`) };
  if (typeof value['description'] === 'string') body.description = value['description'];
  return body;
}

function responsesOf(builder: IRBuilder, raw: unknown, pointer: JsonPointer): ResponseIR[] {
  if (!isRecord(raw)) return [];
  return Object.entries(raw)
    .filter(([status]) => /^([1-5](\d\d|XX)|default)$/.test(status))
    .map(([status, value]) => {
      const { value: response, pointer: at } = builder.resolve(value, `${pointer}/${status}`);
      const r = isRecord(response) ? response : {};
      const ir: ResponseIR = {
        status,
        ...(typeof r['summary'] === 'string' ? { summary: r['summary'] } : {}),
        description: typeof r['description'] === 'string' ? r['description'] : '',
        headers: headersOf(builder, r['headers'], `${at}/headers`),
        content: contentOf(builder, r['content'], `${at}/content`),
      };
      const links = linksOf(builder, r['links'], `${at}/links`);
      if (links.length > 0) ir.links = links;
      return ir;
    });
}

function linksOf(builder: IRBuilder, raw: unknown, pointer: JsonPointer): LinkIR[] {
  if (!isRecord(raw)) return [];
  const out: LinkIR[] = [];
  for (const [name, value] of Object.entries(raw)) {
    const { value: resolved } = builder.resolve(value, `${pointer}/${escapePointerToken(name)}`);
    if (!isRecord(resolved)) continue;
    const link: LinkIR = { name, parameters: isRecord(resolved['parameters']) ? { ...resolved['parameters'] } : {} };
    if (typeof resolved['operationId'] === 'string') link.operationId = resolved['operationId'];
    if (typeof resolved['operationRef'] === 'string') link.operationRef = resolved['operationRef'];
    if (resolved['requestBody'] !== undefined) link.requestBody = resolved['requestBody'];
    if (typeof resolved['description'] === 'string') link.description = resolved['description'];
    out.push(link);
  }
  return out;
}

/** What operations and webhooks share: everything but their name, path, security and pointer. */
function operationParts(
  builder: IRBuilder,
  op: Record<string, unknown>,
  pointer: JsonPointer,
  pathParameters: ParameterIR[],
): Pick<OperationIR, 'summary' | 'description' | 'deprecated' | 'tags' | 'parameters' | 'requestBody' | 'responses' | 'extensions'> {
  const parameters = mergeParameters(pathParameters, parametersOf(builder, Array.isArray(op['parameters']) ? op['parameters'] : [], `${pointer}/parameters`));
  checkQuerystringRules(builder, parameters, pointer);
  const parts: ReturnType<typeof operationParts> = {
    deprecated: op['deprecated'] === true,
    tags: Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string') : [],
    parameters,
    responses: responsesOf(builder, op['responses'], `${pointer}/responses`),
    extensions: Object.fromEntries(
      Object.keys(op)
        .filter((k) => k.startsWith('x-'))
        .sort()
        .map((k) => [k, op[k]]),
    ),
  };
  if (typeof op['summary'] === 'string') parts.summary = op['summary'];
  if (typeof op['description'] === 'string') parts.description = op['description'];
  const body = requestBodyOf(builder, op['requestBody'], `${pointer}/requestBody`);
  if (body) parts.requestBody = body;
  return parts;
}

function operationsOf(builder: IRBuilder, doc: Record<string, unknown>): OperationIR[] {
  const paths = isRecord(doc['paths']) ? doc['paths'] : {};
  const defaultSecurity = securityOf(doc['security']) ?? [];
  const operations: OperationIR[] = [];
  const seenIds = new Map<string, string>();
  for (const [path, rawItem] of Object.entries(paths)) {
    const itemPointer = `#/paths/${escapePointerToken(path)}`;
    const { value: item, pointer: itemAt } = builder.resolve(rawItem, itemPointer);
    if (!isRecord(item)) continue;
    const pathParameters = parametersOf(builder, Array.isArray(item['parameters']) ? item['parameters'] : [], `${itemAt}/parameters`);
    for (const { method, raw: op, pointer } of pathItemOperations(item, itemPointer, builder.diagnostics)) {
      if (!isRecord(op)) continue;
      const operationId = typeof op['operationId'] === 'string' ? op['operationId'] : synthesizeOperationId(method, path);
      if (typeof op['operationId'] !== 'string') {
        builder.diagnostics.push({
          severity: 'warning',
          code: 'missing-operation-id',
          pointer,
          message: `operation has no operationId; using "${operationId}"`,
        });
      }
      const previous = seenIds.get(operationId);
      if (previous) {
        builder.diagnostics.push({
          severity: 'error',
          code: 'duplicate-operation-id',
          pointer,
          message: `operationId "${operationId}" is also used at ${previous}`,
        });
        continue;
      }
      seenIds.set(operationId, pointer);
      // `name` is set below, once every operation is known (collisions need them all).
      const parts = operationParts(builder, op, pointer, pathParameters);
      parts.parameters = matchPathTemplate(builder, path, parts.parameters, pointer);
      const ir: OperationIR = { operationId, name: operationId, method, path, ...parts, security: securityOf(op['security']) ?? defaultSecurity, pointer };
      operations.push(ir);
    }
  }
  const named = assignOperationNames(operations);
  operations.forEach((op, i) => (op.name = named.names[i]!));
  builder.diagnostics.push(...named.diagnostics);
  return operations;
}

/**
 * Security requirements with the schemes the document declares. A name that
 * `components.securitySchemes` does not declare says neither where a credential goes nor how
 * it is checked, so no client can send it and no server check it: it is left out of its
 * requirement (which may leave that requirement empty: no credential needed), with a warning.
 */
function declaredSchemesOnly(
  builder: IRBuilder,
  declared: ReadonlySet<string>,
  warned: Set<string>,
  security: SecurityRequirementIR[],
  pointer: JsonPointer,
): SecurityRequirementIR[] {
  const unknown = new Set(security.flatMap((requirement) => Object.keys(requirement).filter((name) => !declared.has(name))));
  if (unknown.size === 0) return security;
  for (const name of unknown) {
    // Once per name: a document-wide `security` would repeat it for every operation.
    if (warned.has(name)) continue;
    warned.add(name);
    builder.diagnostics.push({
      severity: 'warning',
      code: 'undeclared-security-scheme',
      pointer,
      message: `the security requirement names "${name}", which components.securitySchemes does not declare: no client can send it and no server check it, so it is left out`,
    });
  }
  return security.map((requirement) => Object.fromEntries(Object.entries(requirement).filter(([name]) => !unknown.has(name))));
}

/**
 * The path parameters as the path's template has them (OpenAPI: each template expression is
 * one `in: path` parameter, and each path parameter is in the template). A file that breaks
 * this would give a route no request reaches, or one every request is refused by; instead, an
 * expression without a parameter is read as a required string and a path parameter the
 * template lacks is left out, each with a warning naming the operation.
 */
function matchPathTemplate(builder: IRBuilder, path: string, parameters: ParameterIR[], pointer: JsonPointer): ParameterIR[] {
  const inTemplate = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const declared = new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const kept = parameters.filter((p) => {
    if (p.in !== 'path' || inTemplate.includes(p.name)) return true;
    builder.diagnostics.push({
      severity: 'warning',
      code: 'path-parameter-not-in-template',
      pointer,
      message: `path parameter "${p.name}" is not in the path ${path}: no request can carry it, so it is left out`,
    });
    return false;
  });
  for (const name of inTemplate.filter((n, i) => !declared.has(n) && inTemplate.indexOf(n) === i)) {
    builder.diagnostics.push({
      severity: 'warning',
      code: 'undeclared-path-parameter',
      pointer,
      message: `{${name}} in the path ${path} has no "in: path" parameter: read as a required string (declare it under "parameters")`,
    });
    kept.push({ name, in: 'path', required: true, schema: { kind: 'string', pointer }, style: 'simple', explode: false, examples: [] });
  }
  return kept;
}

/**
 * The `webhooks` map of OpenAPI 3.1: each key names a Path Item (written inline or as a `$ref`,
 * e.g. to `components.pathItems`), each of whose operations becomes one webhook. What cannot
 * be read is named by pointer in a diagnostic, never dropped silently.
 */
function webhooksOf(builder: IRBuilder, doc: Record<string, unknown>, dialect: '3.0' | '3.1'): WebhookIR[] {
  const raw = doc['webhooks'];
  if (raw === undefined) return [];
  if (!isRecord(raw)) {
    builder.diagnostics.push({ severity: 'warning', code: 'invalid-webhooks', pointer: '#/webhooks', message: '"webhooks" is not a map of Path Items; no webhook is generated' });
    return [];
  }
  if (dialect === '3.0' && Object.keys(raw).length > 0) {
    builder.diagnostics.push({
      severity: 'warning',
      code: 'webhooks-in-3.0',
      pointer: '#/webhooks',
      message: `"webhooks" is OpenAPI 3.1; this file says openapi ${String(doc['openapi'])}, but its webhooks are read anyway`,
    });
  }
  const webhooks: WebhookIR[] = [];
  for (const [name, rawItem] of Object.entries(raw)) {
    const itemPointer = `#/webhooks/${escapePointerToken(name)}`;
    const { value: item, pointer: itemAt } = builder.resolve(rawItem, itemPointer);
    if (!isRecord(item)) {
      builder.diagnostics.push({ severity: 'warning', code: 'invalid-webhook', pointer: itemAt, message: `webhook "${name}" is not a Path Item; it is not generated` });
      continue;
    }
    for (const key of Object.keys(item)) {
      if (PATH_ITEM_MEMBERS.has(key) || key.startsWith('x-') || isFixedMethod(key)) continue;
      builder.diagnostics.push({
        severity: 'warning',
        code: 'unsupported-webhook-member',
        pointer: `${itemAt}/${escapePointerToken(key)}`,
        message: `"${key}" of webhook "${name}" is not an operation this generator reads; it is ignored`,
      });
    }
    const pathParameters = parametersOf(builder, Array.isArray(item['parameters']) ? item['parameters'] : [], `${itemAt}/parameters`);
    const before = webhooks.length;
    for (const { method, raw: op, pointer } of pathItemOperations(item, itemPointer, builder.diagnostics)) {
      if (!isRecord(op)) {
        builder.diagnostics.push({ severity: 'warning', code: 'invalid-webhook', pointer, message: `${method} of webhook "${name}" is not an Operation Object; it is not generated` });
        continue;
      }
      const parts = operationParts(builder, op, pointer, pathParameters);
      // A webhook has no path: a path parameter could never be present, and would refuse every delivery.
      for (const p of parts.parameters.filter((p) => p.in === 'path')) {
        builder.diagnostics.push({
          severity: 'warning',
          code: 'webhook-path-parameter',
          pointer,
          message: `webhook "${name}" declares path parameter "${p.name}", but a webhook has no path: the parameter is not generated`,
        });
      }
      parts.parameters = parts.parameters.filter((p) => p.in !== 'path');
      if (op['callbacks'] !== undefined) {
        builder.diagnostics.push({ severity: 'warning', code: 'unsupported-callbacks', pointer: `${pointer}/callbacks`, message: 'callbacks of a webhook are not generated' });
      }
      const ir: WebhookIR = { name, key: name, method, ...parts, security: securityOf(op['security']) ?? [], pointer };
      if (typeof op['operationId'] === 'string') ir.operationId = op['operationId'];
      webhooks.push(ir);
    }
    if (webhooks.length === before) {
      builder.diagnostics.push({ severity: 'warning', code: 'empty-webhook', pointer: itemAt, message: `webhook "${name}" has no operation; nothing is generated for it` });
    }
  }
  assignWebhookKeys(webhooks);
  return webhooks;
}

/** Sets each webhook's `key` (see `WebhookIR.key`). */
function assignWebhookKeys(webhooks: WebhookIR[]): void {
  const count = new Map<string, number>();
  for (const hook of webhooks) count.set(hook.name, (count.get(hook.name) ?? 0) + 1);
  const taken = new Set<string>();
  for (const hook of webhooks) {
    const base = count.get(hook.name)! > 1 ? `${hook.name}.${hook.method}` : hook.name;
    let key = base;
    for (let n = 2; taken.has(key); n++) key = `${base}_${n}`;
    taken.add(key);
    hook.key = key;
  }
}

function synthesizeOperationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')))
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1));
  // An additional method is written in upper case (`PURGE`); names start in lower case.
  return `${method.toLowerCase()}${words.join('')}`;
}

export interface BuildOptions {
  /** Default: `exact` for OpenAPI 3.1, `lenient` for 3.0. */
  reading?: SchemaReading;
  /** Default `assert`: the formats the README lists are checked. */
  formats?: FormatMode;
  /** Default `refuse`: a schema the generator cannot represent is an error. */
  unsupported?: UnsupportedMode;
  /** Default `lenient`: a 3.0 `nullable: true` beside `allOf`/`oneOf`/`anyOf`/`$ref` without `type` also accepts null. */
  nullable?: NullableReading;
}

/** Reads a loaded (bundled) document into the IR. */
export function buildIR(spec: LoadedSpec, options: BuildOptions = {}): BuiltIR {
  const doc = spec.document;
  // A field a later version added is not this file's: named before anything is read.
  const diagnostics: Diagnostic[] = [...spec.diagnostics, ...fieldsOfLaterVersion(doc)];
  const builder = new IRBuilder(doc, diagnostics, options);

  const schemaNames = Object.keys(builder.ctx.rawComponents);
  for (const name of schemaNames) builder.component(name);
  for (const name of schemaNames) {
    const raw = builder.ctx.rawComponents[name];
    if (isRecord(raw)) builder.collectExamples(raw, `#/components/schemas/${escapePointerToken(name)}`, builder.component(name), false);
  }
  collectPropertyExamples(builder);

  const operations = operationsOf(builder, doc);
  const webhooks = webhooksOf(builder, doc, builder.ctx.dialect);
  const declaredSchemes = new Set(Object.keys(isRecord(doc['components']) && isRecord(doc['components']['securitySchemes']) ? doc['components']['securitySchemes'] : {}));
  const warnedSchemes = new Set<string>();
  for (const holder of [...operations, ...webhooks]) holder.security = declaredSchemesOnly(builder, declaredSchemes, warnedSchemes, holder.security, holder.pointer);
  const nodes = new Map(schemaNames.map((name) => [name, builder.component(name)!] as const));
  const recursive = findRecursiveSchemas(nodes);
  const schemas: NamedSchema[] = schemaNames.map((name) => ({
    name,
    schema: nodes.get(name)!,
    dependencies: [...referencedNames(nodes.get(name)!)].sort(),
    recursive: recursive.has(name),
    examples: builder.examples.filter((e) => e.pointer.startsWith(`#/components/schemas/${escapePointerToken(name)}/`) && e.pointer.split('/').length === 5),
  }));

  const info = isRecord(doc['info']) ? doc['info'] : {};
  const tags = tagsOf(doc);
  const api: ApiIR = {
    source: spec.source,
    openapiVersion: String(doc['openapi']),
    title: typeof info['title'] === 'string' ? info['title'] : '',
    version: typeof info['version'] === 'string' ? info['version'] : String(info['version'] ?? ''),
    servers: serversOf(doc),
    ...(tags.length > 0 ? { tags } : {}),
    schemas,
    operations,
    ...(webhooks.length > 0 ? { webhooks } : {}),
    securitySchemes: securitySchemesOf(builder, doc),
    diagnostics,
  };
  if (builder.ctx.jsonRoots.size > 0) {
    const { table, readAllOf, dynamicScopes } = builder.ctx.scope.table(builder.ctx.jsonRoots, { formats: builder.ctx.formats === 'assert', allOfReading: builder.ctx.reading === 'lenient' });
    api.jsonSchemas = { dialect: builder.ctx.dialect, table, ...(dynamicScopes ? { dynamicScopes } : {}) };
    // The lenient allOf reading applies to the schemas the JSON Schema runtime validates too.
    for (const pointer of readAllOf) diagnostics.push(allOfClosedReading(pointer));
  }
  dropRepeatedPatternWarnings(diagnostics);
  return { api, examples: builder.examples };
}

/**
 * Examples written on properties deep inside component schemas: each is checked against the
 * property's own schema, so that `verify` covers every `example` in the file.
 */
function collectPropertyExamples(builder: IRBuilder): void {
  const visit = (raw: unknown, pointer: JsonPointer, top: boolean): void => {
    if (!isRecord(raw)) return;
    if (!top && typeof raw['$ref'] !== 'string' && ('example' in raw || Array.isArray(raw['examples']))) {
      builder.collectExamples(raw, pointer, builder.schema(raw, pointer), false);
    }
    for (const key of ['properties', 'patternProperties']) {
      const props = raw[key];
      if (isRecord(props)) for (const [name, child] of Object.entries(props)) visit(child, `${pointer}/${key}/${escapePointerToken(name)}`, false);
    }
    for (const key of ['items', 'additionalProperties']) if (isRecord(raw[key])) visit(raw[key], `${pointer}/${key}`, false);
    for (const key of ['allOf', 'oneOf', 'anyOf']) {
      const list = raw[key];
      if (Array.isArray(list)) list.forEach((child, i) => visit(child, `${pointer}/${key}/${i}`, false));
    }
  };
  // The diagnostics of these throwaway conversions repeat those of the components; drop them.
  const before = builder.diagnostics.length;
  // Schemas the JSON Schema runtime validates stay in its table: `verify` checks their examples.
  for (const [name, raw] of Object.entries(builder.ctx.rawComponents)) visit(raw, `#/components/schemas/${escapePointerToken(name)}`, true);
  // Only the examples' own findings are new.
  const added = builder.diagnostics.splice(before);
  builder.diagnostics.push(...added.filter((d) => d.code === 'example-mismatch'));
}
