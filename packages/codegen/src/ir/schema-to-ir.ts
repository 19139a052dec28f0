import type {
  ArrayNode,
  Diagnostic,
  DiscriminatorIR,
  JsonPointer,
  NumberNode,
  ObjectNode,
  PropertyIR,
  SchemaMeta,
  SchemaNode,
  StringFormat,
  StringNode,
  UnionNode,
} from './types.js';
import { escapePointerToken, followPointerRefs, isRecord, normalizePointer, resolvePointer } from './json-pointer.js';
import { mergeAllOf } from './merge-all-of.js';
import { provablyDisjoint } from './disjoint.js';
import { deref } from './deref.js';
import type { JsonSchemaScope } from './json-schema-table.js';
import { jsonShape } from './json-shape.js';
import { valueFits } from './value-fits.js';
import { patternDiagnostic } from './pattern.js';
import { boundedPatternDiagnostic } from './pattern-route.js';
import {
  ANNOTATION_KEYWORDS,
  CHANGED_SINCE_OLDER_DRAFTS,
  dialectKey,
  isOlderDraft,
  JSON_SCHEMA_VOCABULARY,
  KNOWN_DIALECTS,
  KEYWORD_TYPES,
  runtimeKeywords,
  TYPE_SPECIFIC_KEYWORDS,
  VALIDATION_KEYWORDS,
} from './keywords.js';

const COMPONENT_SCHEMA_PREFIX = '#/components/schemas/';

const STRING_FORMATS: ReadonlySet<string> = new Set<StringFormat>([
  'date-time',
  'date',
  'time',
  'uri',
  'uuid',
  'email',
  'duration',
  'byte',
]);

const NUMBER_FORMATS = new Set(['int32', 'int16', 'int8', 'int64', 'float', 'double']);

/** Per-run state of the schema conversion; never shared between runs. */
export interface SchemaContext {
  document: Record<string, unknown>;
  /** `3.0` or `3.1`: decides how `nullable`, `exclusiveMinimum` and `$ref` siblings read. */
  dialect: '3.0' | '3.1';
  diagnostics: Diagnostic[];
  /** Component schemas converted so far, by name (filled by the IR builder). */
  components: Map<string, SchemaNode>;
  /** Raw component schemas by name, to resolve references while merging. */
  rawComponents: Record<string, unknown>;
  /** Converts a component schema on demand; undefined while that schema is being converted (a cycle). */
  resolveComponent: (name: string) => SchemaNode | undefined;
  /** Pointers being inlined right now, to stop on reference cycles outside components. */
  inlining: Set<string>;
  /**
   * `exact`: JSON Schema as written. `lenient`: the two readings the README documents (a schema
   * without `type` has its keywords' type; `additionalProperties: false` in an `allOf` branch
   * means no members beyond those of the whole `allOf`), each reported where it is used.
   */
  reading: SchemaReading;
  /** How a 3.0 `nullable: true` without `type` beside `allOf`/`oneOf`/`anyOf`/`$ref` reads. */
  nullable: NullableReading;
  /** `assert`: the formats the README lists are checked; `annotate`: no format is (JSON Schema's default). */
  formats: FormatMode;
  /** `refuse`: what cannot be represented is an error. `skip`: it accepts any value, with a warning. */
  unsupported: UnsupportedMode;
  /** Resolves references for `json` nodes, against `$id`s and anchors. */
  scope: JsonSchemaScope;
  /** Pointers of the `json` nodes made so far. */
  jsonRoots: Set<JsonPointer>;
}

export type SchemaReading = 'exact' | 'lenient';
/**
 * `lenient`: in a 3.0 file, `nullable: true` beside `allOf`/`oneOf`/`anyOf`/`$ref` without
 * `type` also accepts null. `literal`: OpenAPI 3.0.3's text, where it has no effect there.
 */
export type NullableReading = 'lenient' | 'literal';

/** Keywords beside which `nullable: true` without `type` is the nullable idiom. */
const NULLABLE_IDIOM_KEYWORDS = ['$ref', 'allOf', 'oneOf', 'anyOf'];
export type FormatMode = 'assert' | 'annotate';
export type UnsupportedMode = 'refuse' | 'skip';


function report(ctx: SchemaContext, diagnostic: Diagnostic): void {
  ctx.diagnostics.push(diagnostic);
}

function metaOf(raw: Record<string, unknown>, pointer: JsonPointer, ctx: SchemaContext): SchemaMeta {
  const meta: SchemaMeta = { pointer };
  if (typeof raw['description'] === 'string') meta.description = raw['description'];
  if (raw['deprecated'] === true) meta.deprecated = true;
  if (raw['readOnly'] === true) meta.readOnly = true;
  if (raw['writeOnly'] === true) meta.writeOnly = true;
  if ('default' in raw) meta.default = raw['default'];
  const xml = raw['xml'];
  if (isRecord(xml) && typeof xml['nodeType'] === 'string') meta.xmlNodeType = xml['nodeType'];
  if (ctx.dialect === '3.0' && raw['nullable'] === true) {
    // OpenAPI 3.0.3 §4.7.24: nullable adds null to the types listed by `type`, only beside it.
    if (typeof raw['type'] === 'string') meta.nullable = true;
    else if (ctx.nullable === 'lenient' && NULLABLE_IDIOM_KEYWORDS.some((k) => k in raw)) {
      // The idiom of 3.0 files (and of the server frameworks that write them) for a nullable
      // reference or composition: read as "null is also accepted" (README, "Readings").
      meta.nullable = true;
      report(ctx, {
        severity: 'warning',
        code: 'nullable-idiom',
        pointer: `${pointer}/nullable`,
        message: `nullable beside ${NULLABLE_IDIOM_KEYWORDS.filter((k) => k in raw).join('/')} without "type": read as "null is also accepted" (OpenAPI 3.0.3's text gives it no effect; --nullable literal reads it so)`,
      });
    } else
      report(ctx, {
        severity: 'warning',
        code: 'nullable-without-type',
        pointer: `${pointer}/nullable`,
        message: 'nullable has no effect without "type" beside it (OpenAPI 3.0.3); null is not accepted here',
      });
  }
  return meta;
}

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function componentNameOf(ref: string): string | undefined {
  if (!ref.startsWith(COMPONENT_SCHEMA_PREFIX)) return undefined;
  const rest = ref.slice(COMPONENT_SCHEMA_PREFIX.length);
  if (rest.includes('/')) return undefined;
  return rest.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * Converts one schema object to an IR node.
 * Implements JSON Schema validation as OpenAPI 3.0 (§4.7.24) and 3.1 (JSON Schema 2020-12) define it.
 *
 * With `unsupported: 'skip'`, a schema the generator cannot represent accepts any value
 * instead: its errors become warnings that say so. Subschemas are converted first, so the
 * innermost schema that cannot be represented is the one skipped.
 */
export function schemaToIR(raw: unknown, pointer: JsonPointer, ctx: SchemaContext): SchemaNode {
  return withFittingDefault(convertOrSkip(raw, pointer, ctx), pointer, ctx);
}

/**
 * A `default` that does not fit its schema could never be what an absent value means, and
 * would not type-check in the output (`z.string().default(null)`): it is dropped, with a
 * warning naming it.
 */
function withFittingDefault(node: SchemaNode, pointer: JsonPointer, ctx: SchemaContext): SchemaNode {
  if (!('default' in node)) return node;
  const fit = valueFits(node.default, node, ctx);
  if (fit === true) return node;
  report(ctx, {
    severity: 'warning',
    code: 'default-mismatch',
    pointer: `${pointer}/default`,
    message: `default ${JSON.stringify(node.default)} does not fit its schema (${fit}); it is dropped, so an absent value stays absent`,
  });
  const rest = { ...node };
  delete rest.default;
  return rest;
}

function convertOrSkip(raw: unknown, pointer: JsonPointer, ctx: SchemaContext): SchemaNode {
  if (ctx.unsupported === 'refuse') return convertSchema(raw, pointer, ctx);
  const before = ctx.diagnostics.length;
  const node = convertSchema(raw, pointer, ctx);
  const errors = ctx.diagnostics.slice(before).filter((d) => d.severity === 'error');
  if (errors.length === 0) return node;
  for (const error of errors) {
    error.severity = 'warning';
    error.message += `; the schema at ${pointer} accepts any value instead (--unsupported skip)`;
  }
  return { kind: 'any', pointer };
}

function convertSchema(raw: unknown, pointer: JsonPointer, ctx: SchemaContext): SchemaNode {
  if (raw === true || raw === undefined) return { kind: 'any', pointer };
  if (raw === false) return { kind: 'never', pointer };
  if (!isRecord(raw)) {
    report(ctx, { severity: 'error', code: 'invalid-schema', pointer, message: 'schema must be an object or a boolean' });
    return { kind: 'any', pointer };
  }
  reportUnsupportedKeywords(raw, pointer, ctx);
  const dialect = raw['$schema'];
  if (typeof dialect === 'string' && isOlderDraft(dialect)) {
    const changed = [...CHANGED_SINCE_OLDER_DRAFTS.filter((k) => k in raw), ...(Array.isArray(raw['items']) ? ['items'] : [])];
    if (changed.length > 0) {
      report(ctx, {
        severity: 'error',
        code: 'unsupported-dialect',
        pointer: `${pointer}/$schema`,
        message: `$schema ${JSON.stringify(dialect)} names an earlier draft, where ${changed.join(', ')} ${changed.length > 1 ? 'mean' : 'means'} something else than in 2020-12; the generator reads only 2020-12's meaning`,
      });
      return { kind: 'any', pointer };
    }
  }
  if (typeof dialect === 'string' && !KNOWN_DIALECTS.has(dialectKey(dialect))) {
    report(ctx, {
      severity: 'error',
      code: 'unsupported-dialect',
      pointer: `${pointer}/$schema`,
      message: `$schema ${JSON.stringify(dialect)} names a meta-schema the generator does not know; its vocabularies may change what validates`,
    });
    return { kind: 'any', pointer };
  }
  if (needsRuntime(raw, pointer, ctx)) return jsonNode(raw, pointer, ctx);

  const ref = raw['$ref'];
  if (typeof ref === 'string') {
    const target = refToIR(ref, raw, pointer, ctx);
    // In 3.0 siblings of $ref are ignored; in 3.1 they apply alongside it.
    if (ctx.dialect === '3.1') {
      const siblings = Object.keys(raw).filter((k) => k !== '$ref' && VALIDATION_KEYWORDS.has(k));
      if (siblings.length > 0) {
        const rest: Record<string, unknown> = { ...raw };
        delete rest['$ref'];
        return mergeAllOf([target, schemaToIR(rest, pointer, ctx)], { ...metaOf(raw, pointer, ctx) }, ctx);
      }
    }
    return target;
  }

  const meta = metaOf(raw, pointer, ctx);

  if (Array.isArray(raw['allOf'])) {
    const parts = raw['allOf'].map((part, i) => schemaToIR(part, `${pointer}/allOf/${i}`, ctx));
    const rest = withoutKeys(raw, ['allOf']);
    if (hasValidationKeywords(rest)) parts.push(schemaToIR(rest, pointer, ctx));
    return mergeAllOf(parts, meta, ctx);
  }

  for (const mode of ['oneOf', 'anyOf'] as const) {
    const variants = raw[mode];
    if (!Array.isArray(variants)) continue;
    const union = unionToIR(raw, mode, variants, pointer, meta, ctx);
    const rest = withoutKeys(raw, [mode]);
    if (hasValidationKeywords(rest)) {
      // Keywords beside oneOf/anyOf apply to every value: the same as an allOf of the two.
      return mergeAllOf([schemaToIR(rest, pointer, ctx), union], meta, ctx);
    }
    return union;
  }

  return typedSchemaToIR(raw, pointer, meta, ctx);
}

/** A schema the JSON Schema runtime validates exactly, with a shape for its TypeScript type. */
function jsonNode(raw: Record<string, unknown>, pointer: JsonPointer, ctx: SchemaContext): SchemaNode {
  const problems = ctx.scope.check(pointer);
  if (problems.length > 0) {
    // Schemas that refer to the same one find the same problem: it is reported once.
    const reported = new Set(ctx.diagnostics.map((d) => `${d.code} ${d.pointer}`));
    ctx.diagnostics.push(...problems.filter((d) => !reported.has(`${d.code} ${d.pointer}`)));
    if (problems.some((d) => d.severity === 'error')) return { kind: 'any', pointer };
  }
  const at = normalizePointer(pointer);
  ctx.jsonRoots.add(at);
  const meta = metaOf(raw, at, ctx);
  // The runtime reads `nullable` beside `type` itself; the idiom (no `type`) is added here.
  if (typeof raw['type'] === 'string') delete meta.nullable;
  return { ...meta, kind: 'json', shape: jsonShape(raw, at, ctx.scope) };
}

function resolvesToRaw(raw: unknown, ctx: SchemaContext): Record<string, unknown> | undefined {
  const target = followPointerRefs(ctx.document, raw);
  return isRecord(target) ? target : undefined;
}

/** True when `additionalProperties` of this schema constrains anything. */
function constrainsAdditional(raw: Record<string, unknown> | undefined): boolean {
  if (!raw || !('additionalProperties' in raw)) return false;
  const additional = raw['additionalProperties'];
  return !(additional === true || (isRecord(additional) && Object.keys(additional).length === 0));
}

/** Why the plain nodes cannot say exactly what this schema says (then the runtime validates it). */
function needsRuntime(raw: Record<string, unknown>, pointer: JsonPointer, ctx: SchemaContext): boolean {
  const keywords = runtimeKeywords(ctx.dialect);
  if (Object.keys(raw).some((k) => keywords.has(k))) return true;
  if (Array.isArray(raw['items'])) return true;
  // A member named __proto__ cannot be declared in a zod shape (an object literal's prototype).
  if (isRecord(raw['properties']) && Object.prototype.hasOwnProperty.call(raw['properties'], '__proto__')) return true;
  const ref = raw['$ref'];
  // References relative to an `$id` (or draft 4's `id`) resolve against it.
  if (typeof ref === 'string' && ctx.scope.baseAt(pointer) !== ctx.scope.baseAt('#')) return true;
  // Inside a resource whose dynamic anchors may be in scope: only the runtime keeps that scope.
  if (ctx.scope.inDynamicResource(pointer)) return true;
  // References to the root, to anchors, or to an `$id`.
  if (typeof ref === 'string' && !ref.startsWith('#/')) return true;
  for (const key of ['enum', 'const']) {
    const values = key === 'const' ? ('const' in raw ? [raw['const']] : []) : Array.isArray(raw['enum']) ? raw['enum'] : [];
    if (values.some((v) => v !== null && typeof v === 'object')) return true;
  }
  const hasType = raw['type'] !== undefined || (typeof ref === 'string' && ctx.dialect === '3.0');
  const typeless = !hasType && Object.keys(raw).some((k) => TYPE_SPECIFIC_KEYWORDS.has(k));
  // Keywords without `type` are never dropped: what the lenient reading cannot give one type
  // is read exactly.
  if (typeless && (ctx.reading === 'exact' || inferTypes(raw).length === 0)) return true;
  if (ctx.reading === 'lenient') return false;
  // allOf (and 3.1's `$ref` beside other keywords, and keywords beside oneOf/anyOf) merge
  // their parts into one object: exact only when no part limits the members others declare.
  const parts: Array<Record<string, unknown> | undefined> = [];
  if (Array.isArray(raw['allOf'])) parts.push(...raw['allOf'].map((p) => resolvesToRaw(p, ctx)));
  if (typeof ref === 'string' && ctx.dialect === '3.1') parts.push(resolvesToRaw({ $ref: ref }, ctx));
  for (const mode of ['oneOf', 'anyOf']) {
    const variants = raw[mode];
    if (!Array.isArray(variants)) continue;
    const resolved = variants.map((v) => resolvesToRaw(v, ctx));
    parts.push(resolved.some((v) => constrainsAdditional(v)) ? { additionalProperties: false } : {});
  }
  const rest = withoutKeys(raw, ['allOf', '$ref', 'oneOf', 'anyOf']);
  if (hasValidationKeywords(rest)) parts.push(rest);
  return parts.length > 1 && parts.some((p) => constrainsAdditional(p));
}

function withoutKeys(raw: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (!keys.includes(key)) rest[key] = value;
  return rest;
}

function hasValidationKeywords(raw: Record<string, unknown>): boolean {
  return Object.keys(raw).some((k) => VALIDATION_KEYWORDS.has(k));
}

function reportUnsupportedKeywords(raw: Record<string, unknown>, pointer: JsonPointer, ctx: SchemaContext): void {
  for (const key of Object.keys(raw)) {
    if (VALIDATION_KEYWORDS.has(key) || ANNOTATION_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    if (runtimeKeywords(ctx.dialect).has(key)) continue;
    if (!JSON_SCHEMA_VOCABULARY.has(key)) {
      // JSON Schema ignores keywords it does not know: they annotate, never validate.
      report(ctx, {
        severity: 'info',
        code: 'unknown-keyword',
        pointer: `${pointer}/${escapePointerToken(key)}`,
        message: `"${key}" is no JSON Schema or OpenAPI keyword: read as an annotation (it validates nothing)`,
      });
      continue;
    }
    report(ctx, {
      severity: 'error',
      code: 'unsupported-keyword',
      pointer: `${pointer}/${escapePointerToken(key)}`,
      message: `the keyword "${key}" is not supported; the validator would accept values the schema rejects`,
    });
  }
}

function refToIR(ref: string, raw: Record<string, unknown>, pointer: JsonPointer, ctx: SchemaContext): SchemaNode {
  const name = componentNameOf(ref);
  const meta = metaOf(raw, pointer, ctx);
  if (name !== undefined) {
    if (!(name in ctx.rawComponents)) {
      report(ctx, { severity: 'error', code: 'unresolved-ref', pointer, message: `$ref "${ref}" points to no component schema` });
      return { kind: 'any', pointer };
    }
    const node: SchemaNode = { kind: 'ref', name, pointer };
    if (meta.description !== undefined) node.description = meta.description;
    if (meta.nullable) node.nullable = true;
    // Annotations beside the reference: they decide which direction the member travels in.
    if (meta.readOnly) node.readOnly = true;
    if (meta.writeOnly) node.writeOnly = true;
    return node;
  }
  // A reference into the middle of another schema: inline it, guarding against cycles.
  if (!ref.startsWith('#')) {
    report(ctx, { severity: 'error', code: 'external-ref', pointer, message: `$ref "${ref}" was not bundled` });
    return { kind: 'any', pointer };
  }
  // A reference back into a schema being inlined (recursion inside one schema): the runtime
  // follows it at validation time.
  if (ctx.inlining.has(ref)) return jsonNode(raw, pointer, ctx);
  const target = resolvePointer(ctx.document, ref);
  if (target === undefined) {
    report(ctx, { severity: 'error', code: 'unresolved-ref', pointer, message: `$ref "${ref}" points to nothing` });
    return { kind: 'any', pointer };
  }
  ctx.inlining.add(ref);
  try {
    return schemaToIR(target, ref, ctx);
  } finally {
    ctx.inlining.delete(ref);
  }
}

function unionToIR(
  raw: Record<string, unknown>,
  mode: 'oneOf' | 'anyOf',
  rawVariants: unknown[],
  pointer: JsonPointer,
  meta: SchemaMeta,
  ctx: SchemaContext,
): SchemaNode {
  const variants = rawVariants.map((v, i) => schemaToIR(v, `${pointer}/${mode}/${i}`, ctx));
  if (variants.length === 0) {
    report(ctx, { severity: 'error', code: 'empty-union', pointer, message: `${mode} must list at least one schema` });
    return { ...meta, kind: 'never' };
  }
  const node: UnionNode = { ...meta, kind: 'union', mode, variants, exclusive: false };
  const discriminator = discriminatorOf(raw, variants, pointer, ctx);
  if (discriminator) node.discriminator = discriminator;
  node.exclusive = variants.length === 1 || allPairsDisjoint(variants, ctx);
  return node;
}

function allPairsDisjoint(variants: SchemaNode[], ctx: SchemaContext): boolean {
  for (let i = 0; i < variants.length; i++) {
    for (let j = i + 1; j < variants.length; j++) {
      if (!provablyDisjoint(variants[i]!, variants[j]!, ctx)) return false;
    }
  }
  return true;
}

function discriminatorOf(
  raw: Record<string, unknown>,
  variants: SchemaNode[],
  pointer: JsonPointer,
  ctx: SchemaContext,
): DiscriminatorIR | undefined {
  const d = raw['discriminator'];
  if (!isRecord(d) || typeof d['propertyName'] !== 'string') return undefined;
  const propertyName = d['propertyName'];
  const indexOf = (name: string): number => variants.findIndex((v) => v.kind === 'ref' && v.name === name);
  const mapping: Record<string, number> = {};
  /** Explicit entries: value to the component name they give (a name outside the variants included). */
  const explicit: Array<[string, string]> = [];
  const written = isRecord(d['mapping']) ? d['mapping'] : {};
  for (const [value, target] of Object.entries(written)) {
    if (typeof target !== 'string') continue;
    const name = componentNameOf(target) ?? (target in ctx.rawComponents ? target : undefined);
    if (name === undefined) {
      // A hint that names nothing: validation is the same without it.
      report(ctx, {
        severity: 'warning',
        code: 'discriminator-mapping',
        pointer: `${pointer}/discriminator/mapping/${escapePointerToken(value)}`,
        message: `discriminator mapping "${target}" does not name a component schema; the entry is ignored (it never changes what validates)`,
      });
      continue;
    }
    explicit.push([value, name]);
    const index = indexOf(name);
    if (index >= 0) mapping[value] = index;
  }
  // Variants the mapping does not name are named by their component name (implicit mapping).
  const mapped = new Set(explicit.map(([, name]) => name));
  variants.forEach((variant, index) => {
    if (variant.kind === 'ref' && !mapped.has(variant.name) && !(variant.name in mapping)) mapping[variant.name] = index;
  });
  const discriminator: DiscriminatorIR = { propertyName, mapping };
  if (typeof d['defaultMapping'] === 'string') {
    const target = d['defaultMapping'];
    const name = componentNameOf(target) ?? (target in ctx.rawComponents ? target : undefined);
    const index = name === undefined ? -1 : indexOf(name);
    if (index >= 0) discriminator.defaultVariant = index;
    else {
      report(ctx, {
        severity: 'warning',
        code: 'discriminator-mapping',
        pointer: `${pointer}/discriminator/defaultMapping`,
        message: `discriminator defaultMapping "${target}" names no variant of this ${raw['oneOf'] ? 'oneOf' : 'anyOf'}; it is ignored (it never changes what validates)`,
      });
    }
  }
  const selects = tagSelects(propertyName, variants, explicit, indexOf, pointer, ctx);
  if (selects) discriminator.selects = selects;
  return discriminator;
}

/**
 * The tag values to variant index, when the tag alone provably selects the only variant that
 * can match (see `DiscriminatorIR.selects`); undefined when that is not proven.
 */
function tagSelects(
  propertyName: string,
  variants: SchemaNode[],
  explicit: Array<[string, string]>,
  indexOf: (name: string) => number,
  pointer: JsonPointer,
  ctx: SchemaContext,
): Record<string, number> | undefined {
  const pins = variants.map((v) => tagPins(v, propertyName, ctx, 0));
  if (pins.some((p) => p === undefined)) return undefined;
  const selects: Record<string, number> = {};
  for (const [index, values] of (pins as Array<Set<string>>).entries()) {
    for (const value of values) {
      // Two variants admit the same tag value: the tag does not select.
      if (Object.prototype.hasOwnProperty.call(selects, value)) return undefined;
      selects[value] = index;
    }
  }
  for (const [value, name] of explicit) {
    const index = indexOf(name);
    const pinned = Object.prototype.hasOwnProperty.call(selects, value) ? selects[value] : undefined;
    if (pinned !== undefined && pinned !== index) {
      report(ctx, {
        severity: 'warning',
        code: 'discriminator-mapping',
        pointer: `${pointer}/discriminator/mapping/${escapePointerToken(value)}`,
        message: `discriminator mapping "${value}" names ${name}, but only variant ${pinned} admits that value; the variants are checked as oneOf/anyOf requires, without dispatch on the tag`,
      });
      return undefined;
    }
  }
  return selects;
}

/**
 * The values a variant can hold in the member `tag`, when it requires that member and pins it
 * to a finite set of strings (`enum`/`const`); undefined otherwise. Looks through `$ref`,
 * merged `allOf` (and the parts of one that stayed an intersection) and nested unions. A
 * superset of the values the variant admits is enough: it is only used to prove disjointness.
 */
function tagPins(node: SchemaNode, tag: string, ctx: SchemaContext, depth: number): Set<string> | undefined {
  if (depth > 16) return undefined;
  const target = deref(node, ctx);
  // null (or any value that is not an object) must not reach a dispatch that only knows objects.
  if (!target || target.nullable) return undefined;
  switch (target.kind) {
    case 'object': {
      const property = target.properties.find((p) => p.name === tag);
      if (!property || !property.required || 'default' in property.schema) return undefined;
      const schema = deref(property.schema, ctx);
      if (!schema || schema.nullable) return undefined;
      if (schema.kind === 'string' && schema.enum) return new Set(schema.enum);
      if (schema.kind === 'literal' && schema.values.every((v) => typeof v === 'string')) return new Set(schema.values as string[]);
      return undefined;
    }
    case 'intersection': {
      // Every part applies: the values any pinning part admits bound the whole.
      let pins: Set<string> | undefined;
      for (const part of target.parts) {
        const own = tagPins(part, tag, ctx, depth + 1);
        if (own) pins = pins ? new Set([...pins].filter((v) => own.has(v))) : own;
      }
      return pins;
    }
    case 'union': {
      const pins = new Set<string>();
      for (const variant of target.variants) {
        const own = tagPins(variant, tag, ctx, depth + 1);
        if (!own) return undefined;
        for (const v of own) pins.add(v);
      }
      return pins;
    }
    default:
      return undefined;
  }
}

function typesOf(raw: Record<string, unknown>, pointer: JsonPointer, ctx: SchemaContext): { types: string[]; nullable: boolean } {
  const t = raw['type'];
  let types: string[];
  if (typeof t === 'string') types = [t];
  else if (Array.isArray(t)) types = t.filter((x): x is string => typeof x === 'string');
  else {
    types = ctx.reading === 'lenient' ? inferTypes(raw) : [];
    if (types.length > 0) {
      // A deliberate reading, written down in the README: without `type`, JSON Schema would
      // let every non-object value through a schema that lists properties.
      report(ctx, {
        severity: 'warning',
        code: 'type-inferred',
        pointer,
        message: `schema has no "type"; read as ${types[0]} from its keywords (strict JSON Schema would accept values of every other type)`,
      });
    }
  }
  const nullable = types.includes('null');
  const nonNull = types.filter((x) => x !== 'null');
  for (const x of nonNull) {
    if (!['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(x)) {
      report(ctx, { severity: 'error', code: 'invalid-type', pointer: `${pointer}/type`, message: `unknown type "${x}"` });
    }
  }
  // `number` already admits integers; listing both would only duplicate the check.
  const deduped = nonNull.includes('number') ? nonNull.filter((x) => x !== 'integer') : nonNull;
  return { types: deduped, nullable };
}

/** The type each type-specific keyword constrains (`format` depends on the format). */
function keywordType(key: string, raw: Record<string, unknown>): string | undefined {
  if (key === 'format' && typeof raw['format'] === 'string' && NUMBER_FORMATS.has(raw['format'])) return 'number';
  return Object.prototype.hasOwnProperty.call(KEYWORD_TYPES, key) ? KEYWORD_TYPES[key] : undefined;
}

/**
 * The lenient reading of a schema without `type`: the one type its keywords constrain. None
 * when they constrain several types (or it lists `enum`/`const`): then it is read exactly.
 */
function inferTypes(raw: Record<string, unknown>): string[] {
  if ('enum' in raw || 'const' in raw) return [];
  const types = new Set(Object.keys(raw).map((k) => keywordType(k, raw)).filter((t): t is string => t !== undefined));
  return types.size === 1 ? [...types] : [];
}

function typedSchemaToIR(raw: Record<string, unknown>, pointer: JsonPointer, meta: SchemaMeta, ctx: SchemaContext): SchemaNode {
  const { types, nullable } = typesOf(raw, pointer, ctx);
  const enumValues = Array.isArray(raw['enum']) ? (raw['enum'] as unknown[]) : undefined;
  const constValue = 'const' in raw ? [raw['const']] : undefined;
  const allowed = constValue ?? enumValues;

  if (allowed !== undefined && types.length <= 1) {
    const typeAllowsNull = nullable || meta.nullable === true;
    return literalToIR(allowed, constValue ? 'const' : 'enum', types[0], pointer, { ...meta, ...(typeAllowsNull ? { nullable: true } : {}) }, ctx);
  }
  if (types.length === 0) {
    if (nullable) return { ...meta, kind: 'null' };
    return { ...meta, kind: 'any' };
  }
  const nodes = types.map((type) => singleTypeToIR(type, raw, pointer, { pointer }, ctx));
  if (nodes.length === 1) {
    const node = { ...nodes[0]!, ...meta, pointer };
    if (nullable) node.nullable = true;
    return node;
  }
  // A 3.1 type array: one node per type, which are disjoint by construction.
  const union: UnionNode = { ...meta, kind: 'union', mode: 'anyOf', variants: nodes, exclusive: true };
  if (nullable) union.nullable = true;
  return union;
}

function literalToIR(
  values: unknown[],
  keyword: 'enum' | 'const',
  type: string | undefined,
  pointer: JsonPointer,
  meta: SchemaMeta,
  ctx: SchemaContext,
): SchemaNode {
  const primitives = values.filter(
    (v): v is string | number | boolean | null => v === null || ['string', 'number', 'boolean'].includes(typeof v),
  );
  if (primitives.length !== values.length) {
    report(ctx, {
      severity: 'error',
      code: 'unsupported-enum',
      pointer: `${pointer}/enum`,
      message: 'enum values that are objects or arrays are not supported',
    });
  }
  // With a declared type, values of other types can never validate (JSON Schema applies both).
  const kept = primitives.filter((v) => {
    if (type === undefined) return true;
    if (v === null) return meta.nullable === true;
    if (type === 'integer') return typeof v === 'number' && Number.isInteger(v);
    return typeof v === type;
  });
  const unfit = primitives.filter((v) => !kept.includes(v));
  if (unfit.length > 0) {
    report(ctx, {
      severity: 'warning',
      code: `${keyword}-mismatch`,
      pointer: `${pointer}/${keyword}`,
      message: `${keyword} value${unfit.length > 1 ? 's' : ''} ${unfit.map((v) => JSON.stringify(v)).join(', ')} ${unfit.length > 1 ? 'do' : 'does'} not fit "type": ${type}${meta.nullable ? ' (nullable)' : ''}, so ${unfit.length > 1 ? 'they' : 'it'} can never validate`,
    });
  }
  const withoutNull = kept.filter((v) => v !== null);
  // null passes only if the enum lists it: `nullable` (3.0) or a null type (3.1) does not
  // override the enum, which applies as well.
  const hasNull = kept.length !== withoutNull.length;
  const rest = { ...meta };
  delete rest.nullable;
  const node: SchemaNode = (() => {
    if (withoutNull.length > 0 && withoutNull.every((v) => typeof v === 'string')) {
      const s: StringNode = { ...rest, kind: 'string', enum: withoutNull as string[] };
      return s;
    }
    return { ...rest, kind: 'literal' as const, values: withoutNull };
  })();
  if (hasNull) node.nullable = true;
  return node;
}

function singleTypeToIR(
  type: string,
  raw: Record<string, unknown>,
  pointer: JsonPointer,
  meta: SchemaMeta,
  ctx: SchemaContext,
): SchemaNode {
  switch (type) {
    case 'string':
      return stringToIR(raw, pointer, meta, ctx);
    case 'number':
    case 'integer':
      return numberToIR(raw, type === 'integer', pointer, meta, ctx);
    case 'boolean':
      return { ...meta, kind: 'boolean' };
    case 'array':
      return arrayToIR(raw, pointer, meta, ctx);
    case 'object':
      return objectToIR(raw, pointer, meta, ctx);
    default:
      return { ...meta, kind: 'any' };
  }
}

function stringToIR(raw: Record<string, unknown>, pointer: JsonPointer, meta: SchemaMeta, ctx: SchemaContext): StringNode {
  const node: StringNode = { ...meta, kind: 'string' };
  const minLength = numberOrUndefined(raw['minLength']);
  const maxLength = numberOrUndefined(raw['maxLength']);
  if (minLength !== undefined && minLength > 0) node.minLength = minLength;
  if (maxLength !== undefined) node.maxLength = maxLength;
  if (typeof raw['pattern'] === 'string') {
    const pattern = raw['pattern'];
    if (checkPattern(pattern, `${pointer}/pattern`, ctx)) node.patterns = [pattern];
  }
  const format = raw['format'];
  if (typeof format === 'string' && (ctx.formats !== 'assert' || !STRING_FORMATS.has(format))) node.annotatedFormat = format;
  if (typeof format === 'string' && ctx.formats === 'assert') {
    if (STRING_FORMATS.has(format)) node.format = format as StringFormat;
    else
      report(ctx, {
        severity: 'info',
        code: 'unknown-format',
        pointer: `${pointer}/format`,
        message: `format "${format}" is not checked (formats are annotations unless a validator knows them)`,
      });
  }
  return node;
}

/**
 * Patterns are ECMA-262 regular expressions with Unicode semantics, as JSON Schema says; one
 * that is valid only without the `u` flag is compiled without it (pattern.ts), with a note.
 */
function checkPattern(pattern: string, pointer: JsonPointer, ctx: SchemaContext): boolean {
  const diagnostic = patternDiagnostic(pattern, pointer);
  if (diagnostic) report(ctx, diagnostic);
  const bounded = boundedPatternDiagnostic(pattern, pointer);
  if (bounded) report(ctx, bounded);
  return diagnostic?.severity !== 'error';
}

function numberToIR(
  raw: Record<string, unknown>,
  integer: boolean,
  pointer: JsonPointer,
  meta: SchemaMeta,
  ctx: SchemaContext,
): NumberNode {
  const node: NumberNode = { ...meta, kind: 'number', integer };
  const format = raw['format'];
  if (typeof format === 'string' && ctx.formats === 'assert') {
    if (NUMBER_FORMATS.has(format)) node.format = format as NumberNode['format'];
    else
      report(ctx, {
        severity: 'info',
        code: 'unknown-format',
        pointer: `${pointer}/format`,
        message: `format "${format}" is not checked`,
      });
  }
  const minimum = numberOrUndefined(raw['minimum']);
  const maximum = numberOrUndefined(raw['maximum']);
  if (ctx.dialect === '3.0') {
    // 3.0 (JSON Schema draft 4 style): exclusiveMinimum is a boolean modifying minimum.
    if (minimum !== undefined) {
      if (raw['exclusiveMinimum'] === true) node.exclusiveMinimum = minimum;
      else node.minimum = minimum;
    }
    if (maximum !== undefined) {
      if (raw['exclusiveMaximum'] === true) node.exclusiveMaximum = maximum;
      else node.maximum = maximum;
    }
  } else {
    if (minimum !== undefined) node.minimum = minimum;
    if (maximum !== undefined) node.maximum = maximum;
    draft4ExclusiveBounds(raw, node, pointer, ctx);
    const exMin = numberOrUndefined(raw['exclusiveMinimum']);
    const exMax = numberOrUndefined(raw['exclusiveMaximum']);
    if (exMin !== undefined) node.exclusiveMinimum = exMin;
    if (exMax !== undefined) node.exclusiveMaximum = exMax;
  }
  const multipleOf = numberOrUndefined(raw['multipleOf']);
  if (multipleOf !== undefined && multipleOf > 0) node.multipleOf = multipleOf;
  return node;
}

/**
 * `exclusiveMinimum: true` beside `minimum` (draft 4's form) in a 3.1 file, as files that name
 * an older `$schema` write it: a boolean means nothing in 2020-12, so it is read the only way
 * it means anything, as draft 4 does, with a warning.
 */
function draft4ExclusiveBounds(raw: Record<string, unknown>, node: NumberNode, pointer: JsonPointer, ctx: SchemaContext): void {
  for (const [keyword, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof raw[keyword] !== 'boolean') continue;
    const limit = node[bound];
    if (raw[keyword] === true && limit !== undefined) {
      node[keyword] = limit;
      delete node[bound];
    }
    report(ctx, {
      severity: 'warning',
      code: 'draft4-exclusive-bound',
      pointer: `${pointer}/${keyword}`,
      message: `${keyword} is a boolean (draft 4's form), which JSON Schema 2020-12 does not define: read as draft 4 reads it${raw[keyword] === true ? `, ${bound} ${limit} excluded` : ''}`,
    });
  }
}

/** Tuple-form `items` (an array of schemas) never gets here: `needsRuntime` sends it to the JSON Schema runtime. */
function arrayToIR(raw: Record<string, unknown>, pointer: JsonPointer, meta: SchemaMeta, ctx: SchemaContext): ArrayNode {
  const node: ArrayNode = { ...meta, kind: 'array', items: schemaToIR(raw['items'] ?? true, `${pointer}/items`, ctx) };
  const minItems = numberOrUndefined(raw['minItems']);
  const maxItems = numberOrUndefined(raw['maxItems']);
  if (minItems !== undefined && minItems > 0) node.minItems = minItems;
  if (maxItems !== undefined) node.maxItems = maxItems;
  if (raw['uniqueItems'] === true) node.uniqueItems = true;
  return node;
}

function objectToIR(raw: Record<string, unknown>, pointer: JsonPointer, meta: SchemaMeta, ctx: SchemaContext): ObjectNode {
  const required = new Set(Array.isArray(raw['required']) ? raw['required'].filter((r): r is string => typeof r === 'string') : []);
  const properties: PropertyIR[] = [];
  const rawProperties = isRecord(raw['properties']) ? raw['properties'] : {};
  for (const [name, schema] of Object.entries(rawProperties)) {
    properties.push({
      name,
      schema: schemaToIR(schema, `${pointer}/properties/${escapePointerToken(name)}`, ctx),
      required: required.has(name),
    });
  }
  const node: ObjectNode = { ...meta, kind: 'object', properties, additional: 'allow' };
  const undeclared = [...required].filter((name) => !(name in rawProperties));
  if (undeclared.length > 0) node.requiredUndeclared = undeclared;
  const additional = raw['additionalProperties'];
  if (additional === false) node.additional = 'forbid';
  else if (isRecord(additional)) {
    const schema = schemaToIR(additional, `${pointer}/additionalProperties`, ctx);
    node.additional = schema.kind === 'any' && !schema.nullable ? 'allow' : schema;
  }
  const minProperties = numberOrUndefined(raw['minProperties']);
  const maxProperties = numberOrUndefined(raw['maxProperties']);
  if (minProperties !== undefined && minProperties > 0) node.minProperties = minProperties;
  if (maxProperties !== undefined) node.maxProperties = maxProperties;
  return node;
}

export { componentNameOf };
