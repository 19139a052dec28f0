import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ApiIR, HeaderIR, MediaTypeIR, NamedSchema, OperationIR, ParameterIR, PartEncodingIR, SchemaNode, WebhookIR } from '../../ir/types.js';
import { NameResolver, propertyKey } from '../shared/names.js';
import { walkSchema } from '../../ir/references.js';
import { generatedHeader } from '../shared/header.js';
import type { GeneratedFile } from '../types.js';
import { docComment, jsonSchemasImport, printSchema, regexLiteral, type PrintContext } from './print-zod.js';
import { patternRoute } from '../../ir/pattern-route.js';
import { checkableSchemas, isCheckable, printChecks } from './print-check.js';
import { isInlineBody, jsonBodies, writtenSchemas } from './print-writer.js';
import { inputDiffers, printType, type TypeContext } from './print-ts-type.js';
import { nameNote, VALIDATOR_MODULE_NAMES } from './name-notes.js';
import { DIRECTION_SUFFIX } from '../../ir/direction.js';
import { encodingLiteral, fileMembers, inlineLiteral, withoutFileTypes } from './form-body.js';
import { heldSchema, operationImports, printZodType, referenceMap, SCHEMAS_NO_CHECK, type ZodTypeContext } from './print-zod-type.js';
import { wireDescriptors } from './parameter-wire.js';
import { derefKind } from '../../ir/deref-kind.js';
import { summarySuffix } from '../shared/titles.js';

/**
 * Every schema in schemas.gen.ts is declared with its written-out type, so the type TypeScript
 * would infer for each zod builder expression is thrown away; inferring it anyway was about
 * half of what type-checking the file cost (in every consumer's build and editor too).
 * types-match.test.ts puts zod's types back: every builder call still type-checks, and every
 * declared type equals what zod infers.
 */
const UNTYPED_BUILDERS = [
  '// zod builders through an untyped handle: each schema below is declared with its own written-out',
  "// type, so TypeScript need not infer zod's type of every expression only to set it aside.",
  'const z: any = zod;',
].join('\n');

const RUNTIME_TEMPLATE = fileURLToPath(new URL('../../../templates/validators/runtime.ts', import.meta.url));
const SEQUENCE_TEMPLATE = fileURLToPath(new URL('../../../templates/validators/sequence.ts', import.meta.url));
const JSON_SCHEMA_TEMPLATE = fileURLToPath(new URL('../../../templates/validators/json-schema.ts', import.meta.url));

/**
 * The modules that match patterns V8 could backtrack on (the pattern reader, the linear
 * matcher, the RegExps the validators use), copied when some pattern needs them.
 */
const PATTERN_GUARD_MODULES = ['regex-syntax', 'linear-regex', 'pattern-guard'] as const;
const PATTERN_GUARD_IMPORT = "import * as rx from './pattern-guard.gen.js';";

function patternGuardFiles(header: string): GeneratedFile[] {
  const siblings = new RegExp(`from '\\./(${PATTERN_GUARD_MODULES.join('|')})\\.js'`, 'g');
  return PATTERN_GUARD_MODULES.map((module) => {
    const source = readFileSync(fileURLToPath(new URL(`../../../templates/validators/${module}.ts`, import.meta.url)), 'utf8');
    return { path: `validators/${module}.gen.ts`, contents: `${header}${source.replace(siblings, "from './$1.gen.js'")}` };
  });
}

/** The import of the pattern guard module, where `source` uses it. */
export function patternGuardImport(source: string): string {
  return /\brx\.(?:linear|bounded|boundedPatternMessage)\(/.test(source) ? PATTERN_GUARD_IMPORT : '';
}

/**
 * JSON as a JavaScript object literal. A member named `__proto__` is written as a computed key:
 * written plainly, it would set the object's prototype instead of adding a member.
 */
function objectLiteral(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/^(\s*)"__proto__":/gm, '$1["__proto__"]:');
}

/** Every `pattern` string and `patternProperties` key in the table, in a stable order. */
function tablePatterns(table: unknown): string[] {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const record = value as Record<string, unknown>;
    if (typeof record['pattern'] === 'string') found.add(record['pattern']);
    const keyed = record['patternProperties'];
    if (keyed !== null && typeof keyed === 'object' && !Array.isArray(keyed)) for (const key of Object.keys(keyed)) found.add(key);
    Object.values(record).forEach(visit);
  };
  visit(table);
  return [...found].sort();
}

/** The module holding the raw schemas the JSON Schema runtime validates. */
function jsonSchemasFile(header: string, jsonSchemas: NonNullable<ApiIR['jsonSchemas']>): string {
  // The patterns V8 could backtrack on, made by the pattern guard module as the generator decided.
  const guarded = tablePatterns(jsonSchemas.table).filter((source) => (patternRoute(source)?.kind ?? 'native') !== 'native');
  const guardedLiteral = `{\n${guarded.map((source) => `  ${JSON.stringify(source)}: ${regexLiteral(source)},`).join('\n')}\n}`;
  const scopes = jsonSchemas.dynamicScopes ? objectLiteral(jsonSchemas.dynamicScopes) : guarded.length > 0 ? 'undefined' : '';
  const more = `${scopes ? `, ${scopes}` : ''}${guarded.length > 0 ? `, ${guardedLiteral}` : ''}`;
  return [
    header.trimEnd(),
    "import { JsonSchemas } from './json-schema.gen.js';",
    ...(guarded.length > 0 ? [PATTERN_GUARD_IMPORT] : []),
    '',
    '/** Schemas validated by the JSON Schema runtime, by pointer into the source file; `$ref`s are pointers. */',
    `export const schemas = new JsonSchemas(${objectLiteral(jsonSchemas.table)}, ${JSON.stringify(jsonSchemas.dialect)}${more});`,
    '',
  ].join('\n');
}

/** Component schemas in an order where every direct (non-deferred) reference is declared first. */
function declarationOrder(schemas: NamedSchema[]): NamedSchema[] {
  const byName = new Map(schemas.map((s) => [s.name, s]));
  const done = new Set<string>();
  const out: NamedSchema[] = [];
  const visit = (start: NamedSchema): void => {
    const stack: Array<{ schema: NamedSchema; next: number }> = [{ schema: start, next: 0 }];
    done.add(start.name);
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const deps = frame.schema.dependencies;
      if (frame.next < deps.length) {
        const dep = byName.get(deps[frame.next++]!);
        if (dep && !done.has(dep.name)) {
          done.add(dep.name);
          stack.push({ schema: dep, next: 0 });
        }
        continue;
      }
      stack.pop();
      out.push(frame.schema);
    }
  };
  for (const schema of schemas) if (!done.has(schema.name)) visit(schema);
  return out;
}

export interface ValidatorNames {
  names: NameResolver;
  /** Identifier of each operation's export, by operationId. */
  operationIds: Map<string, string>;
  /** Identifier of the input type of each schema whose input differs from its output. */
  inputTypeNames: Map<string, string>;
  /** Identifier of the check function of each schema that has one (see print-check.ts). */
  checkNames: Map<string, string>;
  /** Identifier of each webhook's export. */
  webhookIds: Map<WebhookIR, string>;
  /** Identifier of the JSON writer of each schema that has one (see print-writer.ts). */
  writerNames: Map<string, string>;
  /** Writers of the JSON bodies whose schema is written out in the operation, by schema node. */
  bodyWriters: Map<SchemaNode, { id: string; where: string }>;
}

/** Decides every exported identifier once, so that other emitters can import them by name. */
export function validatorNames(api: ApiIR): ValidatorNames {
  const webhooks = api.webhooks ?? [];
  // `webhooks` and `jsonSchemas` (exports of index.ts) are declared only by modules that have them.
  const names = new NameResolver([...VALIDATOR_MODULE_NAMES, ...(webhooks.length > 0 ? ['webhooks'] : []), ...(api.jsonSchemas ? ['jsonSchemas'] : []), ...(hasSequences(api) ? ['seq'] : [])]);
  // Per-direction variants (ir/direction.ts) are named after everything else: adding them renames
  // nothing the module declared before.
  const components = api.schemas.filter((s) => !s.variantOf);
  const variants = api.schemas.filter((s) => s.variantOf);
  for (const schema of components) names.assign(schema.name);
  const operationIds = new Map<string, string>();
  for (const op of api.operations) operationIds.set(op.operationId, names.assign(op.name, `operation:${op.operationId}`));
  const inputTypeNames = new Map<string, string>();
  const distinctInput = new Set(schemasWithDistinctInput(api));
  for (const s of components) if (distinctInput.has(s.name)) inputTypeNames.set(s.name, names.assign(`${s.name}Input`, `input:${s.name}`));
  // Assigned last, so that adding check functions renames nothing declared before them.
  const checkable = checkableSchemas(api.schemas);
  const byName = new Map(api.schemas.map((s) => [s.name, s]));
  const checkNames = new Map<string, string>();
  for (const schema of components) if (checkable.has(schema.name)) checkNames.set(schema.name, names.assign(`is${schema.name}`, `check:${schema.name}`));
  // Last of all, so that adding a webhook renames nothing else.
  const webhookIds = new Map<WebhookIR, string>();
  for (const hook of webhooks) webhookIds.set(hook, names.assign(`${hook.key}Webhook`, webhookKey(hook)));
  for (const s of variants) {
    const wanted = variantExportName(s);
    names.assign(wanted, s.name);
    if (distinctInput.has(s.name)) inputTypeNames.set(s.name, names.assign(`${wanted}Input`, `input:${s.name}`));
    if (checkable.has(s.name)) checkNames.set(s.name, names.assign(`is${wanted}`, `check:${s.name}`));
  }
  // Writers are named after everything else: adding them renamed nothing.
  const writerNames = new Map<string, string>();
  const bodies = jsonBodies(api);
  const written = writtenSchemas(api, checkable, bodies);
  for (const s of api.schemas) {
    if (written.has(s.name)) writerNames.set(s.name, names.assign(`write${s.variantOf ? variantExportName(s) : s.name}`, `writer:${s.name}`));
  }
  const bodyWriters = new Map<SchemaNode, { id: string; where: string }>();
  for (const body of bodies) {
    if (!isInlineBody(body.node) || bodyWriters.has(body.node) || !isCheckable(body.node, checkable, byName)) continue;
    bodyWriters.set(body.node, { id: names.assign(`write${body.stem.charAt(0).toUpperCase()}${body.stem.slice(1)}`, `body-writer:${body.where}:${bodyWriters.size}`), where: body.where });
  }
  return { names, operationIds, inputTypeNames, checkNames, webhookIds, writerNames, bodyWriters };
}

/** The identifier a per-direction variant wants: `<Name>Request` or `<Name>Response`. */
function variantExportName(s: NamedSchema): string {
  return s.variantOf ? `${s.variantOf.name}${DIRECTION_SUFFIX[s.variantOf.direction]}` : s.name;
}

/** Schemas whose input type differs from their output type, directly or through references. */
function schemasWithDistinctInput(api: ApiIR): string[] {
  const byName = new Map(api.schemas.map((s) => [s.name, s.schema]));
  const memo = new Map<string, boolean>();
  const differs = (name: string): boolean => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    memo.set(name, false); // a cycle alone adds no default
    const result = inputDiffers(byName.get(name) ?? { kind: 'any', pointer: '' }, differs);
    memo.set(name, result);
    return result;
  };
  return api.schemas.map((s) => s.name).filter(differs);
}

/** Kinds of a parameter that is one value: given several times, it is refused as such. */
const SINGLE_VALUE_KINDS = new Set<SchemaNode['kind']>(['string', 'number', 'boolean', 'literal']);

/**
 * A parameter as it arrives on the wire (text), decoded to what its schema describes. A query
 * parameter of one value that is repeated arrives as an array: `rt.once` says so.
 */
function wireExpression(
  parameter: { schema: SchemaNode; explode: boolean; in?: string; contentType?: string },
  ctx: PrintContext,
  components: Map<string, SchemaNode>,
  indent: string,
): string {
  // A `content` parameter arrives already decoded by its media type (JSON text is parsed).
  if (parameter.contentType !== undefined) return printSchema(parameter.schema, ctx, indent);
  const decoded = decodedExpression(parameter, ctx, components, indent);
  return parameter.in === 'query' && SINGLE_VALUE_KINDS.has(derefKind(parameter.schema, components).kind) ? `rt.once(${decoded})` : decoded;
}

/** Scalar kind a text member decodes to, or undefined for text. */
function scalarKind(node: SchemaNode, components: Map<string, SchemaNode>): 'number' | 'boolean' | undefined {
  const target = derefKind(node, components);
  if (target.kind === 'number') return 'number';
  if (target.kind === 'boolean') return 'boolean';
  if (target.kind === 'literal' && target.values.every((v) => typeof v === 'number')) return 'number';
  return undefined;
}

function decodedExpression(parameter: { schema: SchemaNode; explode: boolean }, ctx: PrintContext, components: Map<string, SchemaNode>, indent: string): string {
  const expr = printSchema(parameter.schema, ctx, indent);
  const target = derefKind(parameter.schema, components);
  if (target.kind === 'object') {
    // Members of an object parameter arrive as text, like any parameter value.
    const members = target.properties.flatMap((m) => {
      const kind = scalarKind(m.schema, components);
      return kind ? [`${propertyKey(m.name)}: '${kind}'`] : [];
    });
    return members.length > 0 ? `rt.textObject(${expr}, { ${members.join(', ')} })` : expr;
  }
  const scalar = scalarKind(target, components);
  if (scalar) return `rt.fromText('${scalar}', ${expr})`;
  if (target.kind === 'array') {
    const items = derefKind(target.items, components);
    const kind = items.kind === 'number' ? 'number' : items.kind === 'boolean' ? 'boolean' : 'string';
    return `rt.textList(${expr}, { explode: ${parameter.explode}, items: '${kind}' })`;
  }
  return expr;
}

function parameterObject(
  parameters: Array<{ name: string; in?: string; required: boolean; schema: SchemaNode; explode: boolean; contentType?: string; description?: string; deprecated?: boolean }>,
  ctx: PrintContext,
  components: Map<string, SchemaNode>,
  indent: string,
  lowerCaseNames: boolean,
  onlyNames?: readonly string[],
): string {
  // Typed as `ZodType<output, input>` (see `Declared` in the runtime), as every schema an
  // operation holds is.
  if (parameters.length === 0) return 'rt.declared(z.looseObject({}))';
  const inner = indent + '  ';
  const members = parameters.map((p) => {
    const name = lowerCaseNames ? p.name.toLowerCase() : p.name;
    let expr = wireExpression(p, ctx, components, inner);
    if (!p.required) expr += 'default' in p.schema ? `.default(${JSON.stringify(p.schema.default)})` : '.optional()';
    return `${docComment(p.description, inner, p.deprecated)}${inner}${propertyKey(name)}: ${expr},`;
  });
  // Other parameters and headers may be present: transports add their own. Compiled like the
  // component schemas: they are checked on every request and response. A closed form
  // querystring (OpenAPI 3.2) admits only `onlyNames`: its members and the API's query keys.
  const object = `z.looseObject({\n${members.join('\n')}\n${indent}})`;
  return `rt.compiledOnFirstUse(${onlyNames ? `rt.onlyMembers(${object}, ${JSON.stringify(onlyNames)})` : object})`;
}

function contentMap(content: MediaTypeIR[], ctx: TypeContext, indent: string, components?: Map<string, SchemaNode>): string {
  if (content.length === 0) return '{}';
  const inner = indent + '  ';
  const entries = content.map((m) => `${inner}${JSON.stringify(m.contentType)}: ${mediaSchema(m, ctx, inner, components)},`);
  return `{\n${entries.join('\n')}\n${indent}}`;
}

/** Whether some body of the API is a sequence (OpenAPI 3.2 `itemSchema`): its module is then imported as `seq`. */
function hasSequences(api: ApiIR): boolean {
  const bodies = [...api.operations, ...(api.webhooks ?? [])].flatMap((op) => [...(op.requestBody?.content ?? []), ...op.responses.flatMap((r) => r.content)]);
  return bodies.some((m) => m.itemSchema !== undefined);
}

/** One Encoding Object of `prefixEncoding` / `itemEncoding` as a literal: its media type and declared headers. */
function partEncodingLiteral(encoding: PartEncodingIR): string {
  const members: string[] = [];
  if (encoding.contentType !== undefined) members.push(`contentType: ${JSON.stringify(encoding.contentType)}`);
  const headers = encoding.headers.map((h) => {
    const facts = [`required: ${h.required}`, ...('default' in h.schema && h.schema.default !== undefined ? [`default: ${JSON.stringify(h.schema.default)}`] : [])];
    return `${JSON.stringify(h.name)}: { ${facts.join(', ')} }`;
  });
  if (headers.length > 0) members.push(`headers: { ${headers.join(', ')} }`);
  return members.length === 0 ? '{}' : `{ ${members.join(', ')} }`;
}

/** The part encodings of a positional multipart sequence, as `seq.sequence`'s second argument; empty when none is written. */
function sequenceEncodingArgument(m: MediaTypeIR): string {
  const members: string[] = [];
  if (m.prefixEncoding !== undefined) members.push(`prefixEncoding: [${m.prefixEncoding.map(partEncodingLiteral).join(', ')}]`);
  if (m.itemEncoding !== undefined) members.push(`itemEncoding: ${partEncodingLiteral(m.itemEncoding)}`);
  return members.length === 0 ? '' : `, { ${members.join(', ')} }`;
}

/** The schema of one media type; in a request's multipart body, file members are typed as files. */
function mediaSchema(m: MediaTypeIR, ctx: TypeContext, indent: string, components: Map<string, SchemaNode> | undefined): string {
  // A sequence (OpenAPI 3.2 `itemSchema`): the body is its items, each checked as it travels.
  if (m.itemSchema) return `seq.sequence(${printSchema(m.itemSchema, ctx, indent)}${sequenceEncodingArgument(m)})`;
  if (!m.schema) return 'rt.declared(z.unknown())';
  const files = components ? fileMembers(m) : {};
  const writer = ctx.bodyWriters?.get(m.schema);
  if (writer && Object.keys(files).length === 0) return `rt.declared(rt.withJsonWriter(${printSchema(m.schema, ctx, indent)}, C.${writer.id}))`;
  if (Object.keys(files).length === 0) return heldSchema(m.schema, printSchema(m.schema, ctx, indent), ctx);
  const schema = withoutFileTypes(m.schema, files, components!);
  return `rt.declared(rt.withFiles(${printSchema(schema, ctx, indent)}, ${inlineLiteral(files)}))`;
}

function headerParameters(headers: HeaderIR[]): Array<{ name: string; required: boolean; schema: SchemaNode; explode: boolean; description?: string }> {
  return headers.map((h) => ({ name: h.name, required: h.required, schema: h.schema, explode: false, ...(h.description ? { description: h.description } : {}) }));
}

/**
 * Operations repeat the same header, parameter and error-response shapes many times. Each
 * distinct one is declared once and shared: fewer objects built at load time, and far less
 * for TypeScript to infer in an editor.
 */
class SharedDeclarations {
  readonly declarations: string[] = [];
  private readonly byExpression = new Map<string, string>();
  private readonly counters = new Map<string, number>();

  constructor(private readonly names: NameResolver) {}

  share(role: string, expression: string): string {
    if (/^[\w$.]+$/.test(expression)) return expression;
    const existing = this.byExpression.get(expression);
    if (existing) return existing;
    const n = (this.counters.get(role) ?? 0) + 1;
    this.counters.set(role, n);
    const id = this.names.assign(`${role}${n}`, `shared:${role}:${n}`);
    this.byExpression.set(expression, id);
    // Object literals keep their literal types (a body's `required: true`), as inline ones do.
    const constant = expression.startsWith('{') ? `${expression} as const` : expression;
    this.declarations.push(`const ${id} = /* @__PURE__ */ (() => (${constant}))();`);
    return id;
  }
}

/** The parts of an operation or webhook its validators hold. */
type Exchanged = Pick<OperationIR, 'parameters' | 'requestBody' | 'responses'>;

/** One entry of operations.gen.ts: `head` members (its identity), then request and responses. */
function printEntry(
  entry: Exchanged,
  id: string,
  doc: string,
  head: string[],
  ctx: TypeContext,
  components: Map<string, SchemaNode>,
  shared: SharedDeclarations,
  queryCredentials: readonly string[],
): string {
  const i1 = '  ';
  const i2 = '    ';
  const byLocation = (location: ParameterIR['in']) => entry.parameters.filter((p) => p.in === location);
  const params = (role: string, location: ParameterIR['in'], lowerCase: boolean) =>
    shared.share(role, parameterObject(byLocation(location), ctx, components, '', lowerCase));
  const lines: string[] = [];
  lines.push(doc.trimEnd());
  lines.push(`export const ${id} = /* @__PURE__ */ (() => ({`);
  for (const member of head) lines.push(`${i1}${member}`);
  lines.push(`${i1}request: {`);
  lines.push(`${i2}path: ${params('pathParameters', 'path', false)},`);
  // OpenAPI 3.2 `in: querystring` (JSON): the whole query string is one value, the query part.
  const whole = entry.parameters.find((p) => p.in === 'querystring');
  // A closed form querystring (OpenAPI 3.2): its members, and the API keys sent in the query.
  const closed = byLocation('query').some((p) => p.closedQuerystring === true);
  const onlyNames = closed ? [...byLocation('query').map((p) => p.name), ...queryCredentials.filter((n) => !byLocation('query').some((p) => p.name === n))] : undefined;
  const query = whole
    ? shared.share('queryString', `rt.declared(${printSchema(whole.schema, ctx, '')}${whole.required ? '' : '.optional()'})`)
    : shared.share('queryParameters', parameterObject(byLocation('query'), ctx, components, '', false, onlyNames));
  lines.push(`${i2}query: ${query},`);
  lines.push(`${i2}headers: ${params('requestHeaders', 'header', true)},`);
  lines.push(`${i2}cookies: ${params('cookies', 'cookie', false)},`);
  // Only parameters that travel as more than one plain text are listed (parameter-wire.ts).
  const wire = wireDescriptors(entry.parameters, components);
  if (wire !== undefined) lines.push(`${i2}parameters: ${shared.share('parameterStyles', wire)},`);
  if (entry.requestBody) {
    const encoding = encodingLiteral(entry.requestBody.content, '  ');
    const content = contentMap(entry.requestBody.content, ctx, '  ', components);
    const body = `{\n  required: ${entry.requestBody.required},\n  content: ${content},\n${encoding ? `  encoding: ${encoding},\n` : ''}}`;
    lines.push(`${i2}body: ${shared.share('requestBody', body)},`);
  } else {
    lines.push(`${i2}body: undefined,`);
  }
  lines.push(`${i1}},`);
  lines.push(`${i1}responses: {`);
  for (const response of entry.responses) {
    const headers = shared.share('responseHeaders', parameterObject(headerParameters(response.headers), ctx, components, '', true));
    const value = `{\n  headers: ${headers},\n  content: ${contentMap(response.content, ctx, '  ')},\n}`;
    lines.push(`${i2}${JSON.stringify(response.status)}: ${shared.share('response', value)},`);
  }
  lines.push(`${i1}},`);
  lines.push(`}) as const)();`);
  return lines.filter((l) => l !== '').join('\n');
}

function printOperation(op: OperationIR, id: string, ctx: TypeContext, components: Map<string, SchemaNode>, shared: SharedDeclarations, queryCredentials: readonly string[]): string {
  const title = `${op.method.toUpperCase()} ${op.path}${summarySuffix(op.summary)}`;
  const doc = docComment(title, '', op.deprecated, nameNote(ctx.names, `operation:${op.operationId}`));
  const head = [`operationId: ${JSON.stringify(op.operationId)},`, `method: ${JSON.stringify(op.method)},`, `path: ${JSON.stringify(op.path)},`];
  return printEntry(op, id, doc, head, ctx, components, shared, queryCredentials);
}

/**
 * A webhook: shaped like an operation, named by its key in `webhooks` (`webhook`), without a
 * path (the receiver chooses one). Its export is `<name>Webhook`, assigned after every other
 * name, so that it never takes an operation's or schema's name.
 */
function printWebhook(hook: WebhookIR, id: string, ctx: TypeContext, components: Map<string, SchemaNode>, shared: SharedDeclarations, queryCredentials: readonly string[]): string {
  const title = `Webhook ${hook.name}: ${hook.method.toUpperCase()} to the receiver${summarySuffix(hook.summary)}`;
  const doc = docComment(title, '', hook.deprecated, nameNote(ctx.names, webhookKey(hook)));
  const head = [`webhook: ${JSON.stringify(hook.name)},`, `method: ${JSON.stringify(hook.method)},`];
  return printEntry(hook, id, doc, head, ctx, components, shared, queryCredentials);
}

/** The name resolver's key of a webhook's export. */
function webhookKey(hook: Pick<WebhookIR, 'name' | 'method'>): string {
  return `webhook:${hook.name}:${hook.method}`;
}


/** The doc comment of a per-direction variant: what it is and how it differs from its schema. */
function variantDoc(s: NamedSchema, names: NameResolver): string {
  const { name, direction } = s.variantOf!;
  const base = names.get(name);
  return direction === 'request'
    ? `${base} as a request carries it (OpenAPI readOnly/writeOnly by direction): its readOnly members, nested ones included, are not required.`
    : `${base} as a response carries it (OpenAPI readOnly/writeOnly by direction): its writeOnly members, nested ones included, are not required.`;
}

export function emitValidators(api: ApiIR, naming: ValidatorNames = validatorNames(api)): GeneratedFile[] {
  const header = generatedHeader(api);
  const ctx: PrintContext = { names: naming.names, recursive: new Set(api.schemas.filter((s) => s.recursive).map((s) => s.name)) };
  const components = new Map(api.schemas.map((s) => [s.name, s.schema]));

  const outputTypes: TypeContext = { ...ctx, mode: 'output', inputTypeNames: naming.inputTypeNames, bodyWriters: naming.bodyWriters };
  const inputTypes: TypeContext = { ...outputTypes, mode: 'input' };
  const zodTypes: ZodTypeContext = { output: outputTypes, input: inputTypes };
  const schemaDecls = declarationOrder(api.schemas).map((s) => {
    const id = naming.names.get(s.name);
    const inputId = naming.inputTypeNames.get(s.name);
    const doc = docComment(s.variantOf ? variantDoc(s, naming.names) : s.schema.description, '', s.schema.deprecated, nameNote(naming.names, s.name));
    const expr = printSchema(s.schema, ctx, '  ');
    const types = [`${doc}export type ${id} = ${printType(s.schema, outputTypes)};`];
    if (inputId) {
      const inputDoc = docComment(`What ${id} accepts: members with a default may be absent.`, '', false, nameNote(naming.names, `input:${s.name}`));
      types.push(`${inputDoc}export type ${inputId} = ${printType(s.schema, inputTypes)};`);
    }
    // Declared with the written-out types instead of the ones TypeScript would infer from the
    // zod expression (which is built through an untyped handle, see UNTYPED_BUILDERS): that
    // keeps type-checking fast and lets schemas refer to each other in cycles. A pure IIFE per
    // schema lets bundlers drop every schema a program does not use.
    // Recursive schemas are parsed by zod's ordinary parser (its compiler does not close cycles),
    // with the check function and writer as their fast paths all the same.
    const checkId = naming.checkNames.get(s.name);
    const writerId = naming.writerNames.get(s.name);
    const compiledWith = checkId ? `, C.${checkId}${writerId ? `, C.${writerId}` : ''}` : '';
    const body = !s.recursive ? `rt.compiledOnFirstUse(${expr}${compiledWith})` : checkId ? `rt.checkedBy(${expr}${compiledWith})` : expr;
    // Typed as zod's own classes (a closed object as `ZodObject<shape, $strict>`, an enum as
    // `ZodEnum`, ...) so that `.extend`, `.pick`, `.shape` and `.options` type-check; members
    // that are other schemas are `typeof <Name>`, and what no zod class describes keeps the
    // written-out types (print-zod-type.ts). A schema in a reference cycle keeps
    // `ZodType<output, input>`: its type cannot be spelled without referring to itself.
    const declaredAs = s.recursive ? `ZodType<${id}, ${inputId ?? id}>` : printZodType(s.schema, zodTypes, '');
    return `${types.join('\n')}\n${doc}export const ${id} = /* @__PURE__ */ (() =>\n  ${body})() as unknown as ${declaredAs};`;
  });
  const schemasBody = `${schemaDecls.join('\n\n')}\n`;
  const schemaImports = [
    api.schemas.some((s) => s.recursive) ? "import { z as zod, type ZodType } from 'zod';" : "import { z as zod } from 'zod';",
    /\brt\./.test(schemasBody) ? "import * as rt from './runtime.gen.js';" : '',
    naming.checkNames.size > 0 ? "import * as C from './checks.gen.js';" : '',
    patternGuardImport(schemasBody),
    jsonSchemasImport(schemasBody),
  ]
    .filter(Boolean)
    .join('\n');
  const schemasFile = `${header}${SCHEMAS_NO_CHECK}${schemaImports}\n\n${UNTYPED_BUILDERS}\n\n${schemasBody}`;

  const shared = new SharedDeclarations(naming.names);
  // The schemas module has run when the operations module does: a schema in a reference cycle
  // is referred to as itself, not through z.lazy, so that its check function and writer (kept
  // on the schema) serve the bodies of operations too.
  const operationTypes: TypeContext = { ...outputTypes, recursive: new Set() };
  // The query names API keys travel under: never an unknown member of a closed query string.
  const queryCredentials = [...new Set(api.securitySchemes.filter((s) => s.type === 'apiKey' && s.in === 'query' && s.parameterName !== undefined).map((s) => s.parameterName!))];
  const opDecls = api.operations.map((op) => printOperation(op, naming.operationIds.get(op.operationId)!, operationTypes, components, shared, queryCredentials));
  const webhooks = api.webhooks ?? [];
  for (const hook of webhooks) opDecls.push(printWebhook(hook, naming.webhookIds.get(hook)!, operationTypes, components, shared, queryCredentials));
  const opSource = [...shared.declarations, ...opDecls].join('\n');
  // One pass over the source for every identifier it uses, rather than one search per schema.
  const identifiers = new Set(opSource.match(/[A-Za-z_$][\w$]*/g));
  const usedSchemas = operationImports(api.schemas, naming.names, naming.inputTypeNames, identifiers);
  const schemaImport = usedSchemas.length > 0 ? `import {\n${usedSchemas.map((id) => `  ${id},`).join('\n')}\n} from './schemas.gen.js';\n` : '';
  const sharedBlock = shared.declarations.length > 0 ? `${shared.declarations.join('\n\n')}\n\n` : '';
  // A spec without operations still gets a module (an empty file is not one).
  const opBody = opDecls.length > 0 ? `${sharedBlock}${opDecls.join('\n\n')}\n` : 'export {};\n';
  const usesSequences = /\bseq\.sequence\(/.test(opBody);
  // Import only what is used, so that the output passes `noUnusedLocals` in any project.
  const opImports = [
    /\bz\./.test(opBody) ? "import { z } from 'zod';" : '',
    /\brt\./.test(opBody) ? "import * as rt from './runtime.gen.js';" : '',
    usesSequences ? "import * as seq from './sequence.gen.js';" : '',
    naming.bodyWriters.size > 0 ? "import * as C from './checks.gen.js';" : '',
    patternGuardImport(opBody),
    jsonSchemasImport(opBody),
  ]
    .filter(Boolean)
    .join('\n');
  const operationsFile = `${header}${opImports}\n${schemaImport}\n${opBody}`;

  const runtimeFile = `${header}${readFileSync(RUNTIME_TEMPLATE, 'utf8')}`;

  const bodyWriters = [...naming.bodyWriters].map(([node, { id, where }]) => ({ id, node, where }));
  const checks = printChecks(api.schemas, naming.checkNames, naming.inputTypeNames, naming.names, naming.writerNames, bodyWriters);
  const checkImports = [
    checks.usesRuntime ? "import * as rt from './runtime.gen.js';" : '',
    patternGuardImport(checks.body),
    jsonSchemasImport(checks.body),
    naming.checkNames.size > 0 ? "import type * as S from './schemas.gen.js';" : '',
  ].filter(Boolean);
  // Why the bodies are not type-checked: see the top of print-check.ts. A spec without
  // checkable schemas still gets a module (an empty file is not one).
  const noCheck = '// @ts-nocheck\n// (The answers of these functions are tested against the zod schemas; type-checking their bodies\n// would cost every build and editor about half a second. Their signatures are typed.)\n';
  const checksFile = naming.checkNames.size > 0 || naming.bodyWriters.size > 0 ? `${header}${noCheck}${checkImports.join('\n')}\n\n${checks.body}` : `${header}export {};\n`;

  const server = api.servers[0];
  // Keyed by exact name in the file: the per-direction variants are exported, not listed.
  const schemaEntries = api.schemas.filter((s) => !s.variantOf).map((s): [string, string] => [JSON.stringify(s.name), `S.${naming.names.get(s.name)}`]);
  const checkEntries = api.schemas.filter((s) => !s.variantOf && naming.checkNames.has(s.name)).map((s): [string, string] => [JSON.stringify(s.name), `C.${naming.checkNames.get(s.name)}`]);
  const operationEntries = api.operations.map((op): [string, string] => [propertyKey(op.name), `O.${naming.operationIds.get(op.operationId)}`]);
  const webhookEntries = webhooks.map((hook): [string, string] => [propertyKey(hook.key), `O.${naming.webhookIds.get(hook)}`]);
  const indexFile = [
    header.trimEnd(),
    "import * as S from './schemas.gen.js';",
    "import * as O from './operations.gen.js';",
    ...(checkEntries.length > 0 ? ["import * as C from './checks.gen.js';"] : []),
    '',
    "export * from './schemas.gen.js';",
    "export * from './operations.gen.js';",
    "export * from './checks.gen.js';",
    ...(api.jsonSchemas
      ? ['/** The schemas the JSON Schema runtime validates, by pointer (the mocks sample them from here). */', "export { schemas as jsonSchemas } from './json-schemas.gen.js';"]
      : []),
    '',
    '/** What the file says about itself. */',
    'export const api = {',
    `  title: ${JSON.stringify(api.title)},`,
    `  version: ${JSON.stringify(api.version)},`,
    `  /** Path prefix from the first server URL; mount points and base URLs may override it. */`,
    `  pathPrefix: ${JSON.stringify(server?.pathPrefix ?? '')},`,
    `  servers: ${JSON.stringify(api.servers.map((s) => s.url))},`,
    '} as const;',
    '',
    '/** Every component schema, keyed by its exact name in the file. */',
    referenceMap('schemas', schemaEntries),
    '',
    '/** The check function (type guard) of every schema that has one, keyed by its exact name. */',
    referenceMap('checks', checkEntries),
    '',
    '/** Every operation, keyed by its name: the operationId, made an identifier when it is not one. */',
    referenceMap('operations', operationEntries),
    '',
    ...(webhookEntries.length > 0
      ? [
          '/**',
          ' * Every webhook (OpenAPI 3.1 `webhooks`): requests the API sends to a receiver, keyed by the',
          ' * webhook\'s name (`<name>.<method>` when one name has several methods).',
          ' */',
          referenceMap('webhooks', webhookEntries),
          '',
        ]
      : []),
  ].join('\n');

  const jsonSchemasModule = api.jsonSchemas ? jsonSchemasFile(header, api.jsonSchemas) : '';
  const usesPatternGuard = [schemasFile, operationsFile, checksFile, jsonSchemasModule].some((file) => file.includes(PATTERN_GUARD_IMPORT));
  return [
    { path: 'validators/runtime.gen.ts', contents: runtimeFile },
    ...(usesPatternGuard ? patternGuardFiles(header) : []),
    ...(usesSequences ? [{ path: 'validators/sequence.gen.ts', contents: `${header}${readFileSync(SEQUENCE_TEMPLATE, 'utf8')}` }] : []),
    { path: 'validators/schemas.gen.ts', contents: schemasFile },
    { path: 'validators/operations.gen.ts', contents: operationsFile },
    { path: 'validators/checks.gen.ts', contents: checksFile },
    { path: 'validators/index.ts', contents: indexFile },
    ...(api.jsonSchemas
      ? [
          { path: 'validators/json-schema.gen.ts', contents: `${header}${readFileSync(JSON_SCHEMA_TEMPLATE, 'utf8')}` },
          { path: 'validators/json-schemas.gen.ts', contents: jsonSchemasModule },
        ]
      : []),
  ];
}
