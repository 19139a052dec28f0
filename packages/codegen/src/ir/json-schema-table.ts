/**
 * The raw schemas that the generated code validates with its JSON Schema runtime
 * (`json-schema.gen.ts`), with every `$ref` resolved to a JSON pointer into the document.
 *
 * References are resolved here, where the whole document is at hand: against the base URI
 * each `$id` sets, to `$anchor`s, and to JSON pointers. The generated runtime then only
 * follows pointers. A reference to a resource the document does not contain (a remote
 * reference) is refused with a named error. `$recursiveRef` (2019-09) is written as the
 * pointer of its initial target; the runtime follows the dynamic scope from there.
 *
 * `$dynamicRef` (2020-12) is written as `{ initial, anchor }`: the pointer it resolves to as a
 * `$ref` would, and, when that target declares the `$dynamicAnchor` the reference names (the
 * "bookend"), the anchor's name. The table then carries the dynamic anchors of every schema
 * resource (`dynamicScopes`), so that the runtime can find the outermost resource in the
 * dynamic scope that declares the name. Dynamic anchors must sit in a resource with an `$id`:
 * the document's own place in the dynamic scope depends on where validation begins.
 */
import type { Diagnostic, JsonPointer } from './types.js';
import { escapePointerToken, isRecord, normalizePointer, resolvePointer } from './json-pointer.js';
import { RUNTIME_KEYWORDS_30, RUNTIME_KEYWORDS_31, VALIDATION_KEYWORDS } from './keywords.js';
import { patternDiagnostic } from './pattern.js';
import { boundedPatternDiagnostic } from './pattern-route.js';
import { forEachSchemaPosition } from './schema-positions.js';

/** The base URI of a document without an absolute `$self`; never written to output. */
const DOCUMENT_BASE = 'urn:x-openapi-document:root';

/** OpenAPI 3.2: an absolute `$self` is the document's base URI, which relative `$id`s resolve against. */
function documentBaseOf(document: Record<string, unknown>): string {
  const self = document['$self'];
  if (typeof self !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(self)) return DOCUMENT_BASE;
  return withoutFragment(self);
}

export type JsonDialect = '3.0' | '3.1';

/** Keywords whose value is one schema. */
const SINGLE = ['additionalProperties', 'items', 'additionalItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
/** Keywords whose value is a list of schemas. */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to schemas. */
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

/** What validates: everything else is dropped from the table (annotations, extensions). */
// `default` does not validate, but the zod schema fills defaults in, as the plain validators do;
// `readOnly` and `writeOnly` decide what is required in a request or a response.
const KEPT = new Set([...VALIDATION_KEYWORDS, ...RUNTIME_KEYWORDS_31, ...RUNTIME_KEYWORDS_30, ...SINGLE, ...LISTS, ...MAPS, 'nullable', 'default', 'readOnly', 'writeOnly']);
// The generator resolves identifiers and anchors (a `$dynamicRef` names its anchor itself).
for (const identifier of ['$id', '$anchor', '$dynamicAnchor', 'id']) KEPT.delete(identifier);


/** Calls `visit` for every direct subschema of `raw` with its pointer. */
export function forEachSubschema(raw: Record<string, unknown>, pointer: JsonPointer, visit: (child: unknown, at: JsonPointer) => void): void {
  for (const key of Object.keys(raw)) {
    const value = raw[key];
    const at = `${pointer}/${escapePointerToken(key)}`;
    if (SINGLE.includes(key) && (isRecord(value) || typeof value === 'boolean')) visit(value, at);
    else if (LISTS.includes(key) && Array.isArray(value)) value.forEach((child, i) => visit(child, `${at}/${i}`));
    else if (MAPS.includes(key) && isRecord(value)) {
      for (const [name, child] of Object.entries(value)) {
        // draft-4 `dependencies` mixes lists of names with schemas.
        if (isRecord(child) || typeof child === 'boolean') visit(child, `${at}/${escapePointerToken(name)}`);
      }
    }
  }
}

/** A URI without its `#...` fragment. */
export function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : uri.slice(0, hash);
}

function joinUri(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    // A base like `urn:...` cannot resolve a relative path; only fragments and absolute URIs work.
    if (reference.startsWith('#')) return `${withoutFragment(base)}${reference}`;
    return undefined;
  }
}

/** What one `table` call copies with: the readings asked for, and what the copies collect. */
interface Copying {
  formats: boolean;
  /** Whether `allOf` gets the lenient reading (see `readAllOfLeniently`). */
  allOfReading: boolean;
  /** Called with the pointer each reference leads to, so that it is copied too. */
  referenced: (target: JsonPointer) => void;
  /** Pointers of the `allOf` nodes given the lenient reading. */
  readAllOf: Set<JsonPointer>;
  /** Names of `$dynamicAnchor`s that a copied `$dynamicRef` may lead to through the dynamic scope. */
  dynamicNames: Set<string>;
}

/**
 * The dynamic anchors of each schema resource, by the pointer of its root (`#` for the
 * document itself): where a `$dynamicRef` to that name leads while the resource is in scope.
 */
export type DynamicScopes = Record<JsonPointer, Record<string, JsonPointer>>;

/** What `JsonSchemaScope.table` returns. */
export interface JsonSchemaTable {
  table: Record<JsonPointer, unknown>;
  readAllOf: Set<JsonPointer>;
  /** Present only when a schema of the table holds a `$dynamicRef` that consults the dynamic scope. */
  dynamicScopes?: DynamicScopes;
}

/** The `$dynamicAnchor`s of every schema resource of a document, and the names declared twice in one. */
interface DynamicAnchors {
  byResource: Map<JsonPointer, Map<string, JsonPointer>>;
  duplicates: Array<{ resource: JsonPointer; name: string; pointer: JsonPointer }>;
  /** Whether any Schema Object of the document holds a `$dynamicRef`. */
  referenced: boolean;
}

export interface ResolvedRef {
  pointer?: JsonPointer;
  error?: { code: string; message: string };
}

/** Whether a pointer that `pointer` extends (`#/a` for `#/a/b`) is one of `pointers`: its tokens, not the whole list, are looked at. */
function withinAnother(pointer: JsonPointer, pointers: ReadonlySet<JsonPointer>): boolean {
  for (let slash = pointer.indexOf('/'); slash >= 0; slash = pointer.indexOf('/', slash + 1)) {
    if (pointers.has(pointer.slice(0, slash))) return true;
  }
  return false;
}

/** Resources (`$id`) and anchors of one document, and resolution of references against them. */
export class JsonSchemaScope {
  private readonly documentBase: string;
  private readonly resources: Map<string, JsonPointer>;
  private readonly anchors = new Map<string, JsonPointer>();
  private readonly bases = new Map<JsonPointer, string>();
  /** URIs that more than one schema declares as its `$id`: references to them are ambiguous. */
  private readonly duplicates = new Set<string>();

  private indexed = false;

  constructor(
    readonly document: Record<string, unknown>,
    readonly dialect: JsonDialect,
  ) {
    this.documentBase = documentBaseOf(document);
    this.resources = new Map([[this.documentBase, '#']]);
  }

  /** Indexes the component schemas on first need: a document whose references are all plain pointers never pays for it. */
  private indexOnce(): void {
    if (this.indexed) return;
    this.indexed = true;
    const components = isRecord(this.document['components']) ? this.document['components'] : {};
    const schemas = isRecord(components['schemas']) ? components['schemas'] : {};
    for (const [name, raw] of Object.entries(schemas)) this.index(raw, `#/components/schemas/${escapePointerToken(name)}`, this.documentBase);
  }

  private index(raw: unknown, pointer: JsonPointer, outerBase: string): void {
    if (!isRecord(raw)) return;
    let base = outerBase;
    const idKeyword = this.dialect === '3.1' ? '$id' : 'id';
    // In draft 4 (3.0) every keyword beside `$ref`, `id` included, is ignored.
    const id = this.dialect === '3.0' && '$ref' in raw ? undefined : raw[idKeyword];
    if (typeof id === 'string' && this.dialect === '3.0' && id.startsWith('#')) {
      // Draft 4's location-independent identifier: `id: "#name"` is an anchor.
      this.anchors.set(`${withoutFragment(outerBase)}${id}`, pointer);
    } else if (typeof id === 'string') {
      const absolute = joinUri(id, outerBase);
      if (absolute !== undefined) {
        base = withoutFragment(absolute);
        if (this.resources.has(base)) this.duplicates.add(base);
        else this.resources.set(base, pointer);
      }
    }
    this.bases.set(pointer, base);
    if (this.dialect === '3.1' && typeof raw['$anchor'] === 'string') this.anchors.set(`${base}#${raw['$anchor']}`, pointer);
    // A dynamic anchor is also a plain-name fragment, as `$anchor` is.
    if (this.dialect === '3.1' && typeof raw['$dynamicAnchor'] === 'string') this.anchors.set(`${base}#${raw['$dynamicAnchor']}`, pointer);
    forEachSubschema(raw, pointer, (child, at) => this.index(child, at, base));
  }

  /** The base URI in effect for the schema at `pointer`. */
  baseAt(pointer: JsonPointer): string {
    this.indexOnce();
    return this.bases.get(pointer) ?? this.documentBase;
  }

  /** Where `ref`, written in the schema at `pointer`, leads. */
  resolve(ref: string, pointer: JsonPointer): ResolvedRef {
    this.indexOnce();
    const base = this.baseAt(pointer);
    const absolute = joinUri(ref, base);
    if (absolute === undefined) return { error: { code: 'external-ref', message: `$ref "${ref}" cannot be resolved against the document` } };
    const resourceUri = withoutFragment(absolute);
    const fragment = absolute.slice(resourceUri.length + 1);
    if (this.duplicates.has(resourceUri)) {
      return { error: { code: 'duplicate-id', message: `$ref "${ref}" leads to ${resourceUri}, which several schemas of this document declare as their $id` } };
    }
    const resource = this.resources.get(resourceUri);
    if (resource === undefined) {
      return { error: { code: 'remote-ref', message: `$ref "${ref}" names a resource outside this document (remote references are not supported)` } };
    }
    if (fragment === '' || fragment.startsWith('/')) {
      const target = normalizePointer(`${resource}${fragment}`);
      if (resolvePointer(this.document, target) === undefined) return { error: { code: 'unresolved-ref', message: `$ref "${ref}" points to nothing` } };
      return { pointer: target };
    }
    const anchored = this.anchors.get(`${resourceUri}#${fragment}`);
    if (anchored === undefined) return { error: { code: 'unresolved-ref', message: `$ref "${ref}" names no $anchor of this document` } };
    return { pointer: anchored };
  }

  /**
   * Where `$recursiveRef` (JSON Schema 2019-09) leads before the dynamic scope is consulted: it
   * may only be `"#"`, the root of the schema resource it is written in, as `$ref: "#"` would.
   */
  recursiveTarget(ref: unknown, pointer: JsonPointer): ResolvedRef {
    if (ref !== '#') return { error: { code: 'unsupported-keyword', message: `$recursiveRef ${JSON.stringify(ref)}: JSON Schema 2019-09 defines only "#"` } };
    return this.resolve('#', pointer);
  }

  private dynamicAnchorIndex: DynamicAnchors | undefined;

  /**
   * The `$dynamicAnchor`s of the document by schema resource. Every Schema Object of the
   * document is read, not only the component schemas: an anchor anywhere in a resource is in
   * scope wherever that resource is.
   */
  private dynamicAnchors(): DynamicAnchors {
    if (this.dynamicAnchorIndex) return this.dynamicAnchorIndex;
    const index: DynamicAnchors = { byResource: new Map([['#', new Map()]]), duplicates: [], referenced: false };
    const visit = (raw: unknown, pointer: JsonPointer, resource: JsonPointer): void => {
      if (!isRecord(raw)) return;
      let own = resource;
      if (typeof raw['$id'] === 'string') {
        own = pointer;
        if (!index.byResource.has(own)) index.byResource.set(own, new Map());
      }
      if ('$dynamicRef' in raw) index.referenced = true;
      const name = raw['$dynamicAnchor'];
      if (typeof name === 'string') {
        const anchors = index.byResource.get(own)!;
        if (anchors.has(name)) index.duplicates.push({ resource: own, name, pointer });
        else anchors.set(name, pointer);
      }
      forEachSubschema(raw, pointer, (child, at) => visit(child, at, own));
    };
    if (this.dialect === '3.1') forEachSchemaPosition(this.document, (raw, pointer) => visit(raw, pointer, '#'));
    this.dynamicAnchorIndex = index;
    return index;
  }

  /**
   * Whether the schema at `pointer` lies inside a schema resource of its own (below an `$id`)
   * in a document whose `$dynamicRef`s consult the dynamic scope. The plain validators cannot
   * carry that scope, so such a schema is left to the JSON Schema runtime: reached through a
   * reference into the middle of the resource, it puts that resource in scope, as it must.
   */
  inDynamicResource(pointer: JsonPointer): boolean {
    if (this.dialect !== '3.1') return false;
    const { byResource, referenced } = this.dynamicAnchors();
    if (!referenced) return false;
    for (const root of byResource.keys()) if (root !== '#' && pointer.startsWith(`${root}/`)) return true;
    return false;
  }

  /**
   * Where a `$dynamicRef` leads before the dynamic scope is consulted (as a `$ref` would), and
   * the anchor name when that target declares the same `$dynamicAnchor` (then the runtime
   * looks for the outermost resource in scope that declares it).
   */
  dynamicTarget(ref: unknown, pointer: JsonPointer): ResolvedRef & { anchor?: string } {
    if (typeof ref !== 'string') return { error: { code: 'invalid-ref', message: `$dynamicRef must be a string, found ${JSON.stringify(ref)}` } };
    const resolved = this.resolve(ref, pointer);
    if (resolved.error) return { error: { code: resolved.error.code, message: resolved.error.message.replace(/^\$ref/, '$dynamicRef') } };
    const hash = ref.indexOf('#');
    const fragment = hash < 0 ? '' : ref.slice(hash + 1);
    if (fragment === '' || fragment.startsWith('/')) return resolved;
    const target = resolvePointer(this.document, resolved.pointer!);
    return isRecord(target) && target['$dynamicAnchor'] === fragment ? { ...resolved, anchor: fragment } : resolved;
  }

  /** True for the root of a schema resource (an `$id`, or the document itself). */
  isResourceRoot(raw: Record<string, unknown>, pointer: JsonPointer): boolean {
    return pointer === '#' || (this.dialect === '3.1' && typeof raw['$id'] === 'string');
  }

  /**
   * Problems that keep the schema at `pointer` (and what it references) from being validated
   * exactly: unresolvable references, a `$dynamicAnchor` declared twice in one resource,
   * `$vocabulary`, patterns that are not ECMA-262.
   */
  check(pointer: JsonPointer): Diagnostic[] {
    const diagnostics: Diagnostic[] = [];
    const seen = new Set<JsonPointer>();
    const visit = (raw: unknown, at: JsonPointer): void => {
      if (seen.has(at) || !isRecord(raw)) return;
      seen.add(at);
      for (const keyword of ['$vocabulary', ...(this.dialect === '3.0' ? ['$dynamicRef', '$dynamicAnchor', '$recursiveRef'] : [])]) {
        if (keyword in raw) diagnostics.push({ severity: 'error', code: 'unsupported-keyword', pointer: `${at}/${keyword}`, message: `the keyword "${keyword}" is not supported` });
      }
      if (this.dialect === '3.1' && '$dynamicRef' in raw) {
        const resolved = this.dynamicTarget(raw['$dynamicRef'], at);
        if (resolved.error) diagnostics.push({ severity: 'error', code: resolved.error.code, pointer: `${at}/$dynamicRef`, message: resolved.error.message });
        else {
          visit(resolvePointer(this.document, resolved.pointer!), resolved.pointer!);
          if (resolved.anchor !== undefined) this.checkDynamicName(resolved.anchor, diagnostics, visit);
        }
      }
      if (this.dialect === '3.1' && '$recursiveRef' in raw) {
        const resolved = this.recursiveTarget(raw['$recursiveRef'], at);
        if (resolved.error) diagnostics.push({ severity: 'error', code: resolved.error.code, pointer: `${at}/$recursiveRef`, message: resolved.error.message });
        else visit(resolvePointer(this.document, resolved.pointer!), resolved.pointer!);
      }
      const patterns = [...(typeof raw['pattern'] === 'string' ? [raw['pattern']] : []), ...(isRecord(raw['patternProperties']) ? Object.keys(raw['patternProperties']) : [])];
      for (const source of patterns) {
        const diagnostic = patternDiagnostic(source, at);
        if (diagnostic) diagnostics.push(diagnostic);
        const bounded = boundedPatternDiagnostic(source, at);
        if (bounded) diagnostics.push(bounded);
      }
      if (typeof raw['$ref'] === 'string') {
        const resolved = this.resolve(raw['$ref'], at);
        if (resolved.error) diagnostics.push({ severity: 'error', code: resolved.error.code, pointer: `${at}/$ref`, message: resolved.error.message });
        else visit(resolvePointer(this.document, resolved.pointer!), resolved.pointer!);
      }
      forEachSubschema(raw, at, visit);
    };
    visit(resolvePointer(this.document, pointer), pointer);
    return diagnostics;
  }

  /**
   * Every schema a dynamic reference to `name` may lead to is checked too. A name declared twice
   * in one resource is ambiguous; one declared outside every `$id` belongs to the document, whose
   * place in the dynamic scope depends on where validation begins, which OpenAPI leaves open.
   */
  private checkDynamicName(name: string, diagnostics: Diagnostic[], visit: (raw: unknown, at: JsonPointer) => void): void {
    const { byResource, duplicates } = this.dynamicAnchors();
    const inDocument = byResource.get('#')!.get(name);
    if (inDocument !== undefined && !diagnostics.some((d) => d.pointer === `${inDocument}/$dynamicAnchor`)) {
      diagnostics.push({
        severity: 'error',
        code: 'dynamic-anchor-outside-resource',
        pointer: `${inDocument}/$dynamicAnchor`,
        message: `$dynamicAnchor "${name}" is in no schema resource of its own (no $id around it), so whether a $dynamicRef reaches it depends on where validation begins, which OpenAPI does not say; give the schema that declares it an $id`,
      });
    }
    for (const anchors of byResource.values()) {
      const pointer = anchors.get(name);
      if (pointer !== undefined) visit(resolvePointer(this.document, pointer), pointer);
    }
    for (const duplicate of duplicates) {
      if (duplicate.name !== name || diagnostics.some((d) => d.pointer === `${duplicate.pointer}/$dynamicAnchor`)) continue;
      diagnostics.push({
        severity: 'error',
        code: 'duplicate-anchor',
        pointer: `${duplicate.pointer}/$dynamicAnchor`,
        message: `$dynamicAnchor "${name}" is declared more than once in the schema resource at ${duplicate.resource}, so a $dynamicRef to it is ambiguous`,
      });
    }
  }

  /**
   * The table the generated runtime reads: the schema at each root and every schema they
   * reference, keyed by pointer, annotations dropped, references rewritten as pointers; with
   * the pointers of the `allOf` nodes given the lenient reading (`allOfReading`).
   */
  table(roots: Iterable<JsonPointer>, options: { formats: boolean; allOfReading?: boolean }): JsonSchemaTable {
    const queue = [...roots];
    const copying: Copying = { formats: options.formats, allOfReading: options.allOfReading === true, referenced: (target) => queue.push(target), readAllOf: new Set(), dynamicNames: new Set() };
    const wanted = new Set<JsonPointer>();
    const copies = new Map<JsonPointer, unknown>();
    const queuedNames = new Set<string>();
    for (;;) {
      while (queue.length > 0) {
        const pointer = queue.shift()!;
        if (wanted.has(pointer)) continue;
        wanted.add(pointer);
        copies.set(pointer, this.copy(resolvePointer(this.document, pointer), pointer, copying));
      }
      // Every schema a dynamic reference may lead to is copied too (and what it references).
      const names = [...copying.dynamicNames].filter((name) => !queuedNames.has(name));
      if (names.length === 0) break;
      for (const name of names) {
        queuedNames.add(name);
        for (const anchors of this.dynamicAnchors().byResource.values()) {
          const pointer = anchors.get(name);
          if (pointer !== undefined) queue.push(pointer);
        }
      }
    }
    // A schema inside another one in the table is reached through it.
    const table: Record<JsonPointer, unknown> = {};
    for (const key of [...wanted].sort()) {
      if (!withinAnother(key, wanted)) table[key] = copies.get(key);
    }
    if (queuedNames.size === 0) return { table, readAllOf: copying.readAllOf };
    return { table, readAllOf: copying.readAllOf, dynamicScopes: this.dynamicScopesFor(queuedNames) };
  }

  /**
   * Every resource root of the document (the runtime needs them all to tell which resource a
   * reference enters), each with its anchors of the names dynamic references ask for.
   */
  private dynamicScopesFor(names: ReadonlySet<string>): DynamicScopes {
    const scopes: DynamicScopes = {};
    const byResource = this.dynamicAnchors().byResource;
    // The document's own anchors of these names are refused (see checkDynamicName).
    for (const resource of [...byResource.keys()].filter((r) => r !== '#').sort()) {
      const anchors: Record<string, JsonPointer> = {};
      for (const [name, pointer] of [...byResource.get(resource)!].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (names.has(name)) anchors[name] = pointer;
      }
      scopes[resource] = anchors;
    }
    return scopes;
  }

  /** The schema a subschema stands for, following `$ref`s. */
  private target(raw: unknown, pointer: JsonPointer): { raw: unknown; pointer: JsonPointer } {
    let current = { raw, pointer };
    for (let hops = 0; hops < 32 && isRecord(current.raw) && typeof current.raw['$ref'] === 'string'; hops++) {
      const to = this.resolve(current.raw['$ref'], current.pointer).pointer;
      if (to === undefined) break;
      current = { raw: resolvePointer(this.document, to), pointer: to };
    }
    return current;
  }

  /** Names and patterns an `allOf` declares, through its branches, their `$ref`s and nested `allOf`s. */
  private declaredIn(raw: unknown, pointer: JsonPointer, names: Set<string>, patterns: Set<string>, seen: Set<JsonPointer>): void {
    const { raw: node, pointer: at } = this.target(raw, pointer);
    if (!isRecord(node) || seen.has(at)) return;
    seen.add(at);
    if (isRecord(node['properties'])) for (const name of Object.keys(node['properties'])) names.add(name);
    if (isRecord(node['patternProperties'])) for (const source of Object.keys(node['patternProperties'])) patterns.add(source);
    if (Array.isArray(node['allOf'])) node['allOf'].forEach((branch, i) => this.declaredIn(branch, `${at}/allOf/${i}`, names, patterns, seen));
  }

  /**
   * The lenient reading of an `allOf` with a closed branch (`additionalProperties: false`,
   * after `$ref`s) or closed beside it, as the plain validators read it (merge-all-of.ts):
   * no members beyond those the whole `allOf` declares. Written into the copy in draft 4's
   * words, which both dialects read: the closed branches opened (a `$ref` to one inlined,
   * opened), and on the node every declared name and pattern with `additionalProperties: false`.
   */
  private readAllOfLeniently(raw: Record<string, unknown>, out: Record<string, unknown>, pointer: JsonPointer, copying: Copying): void {
    const branches = raw['allOf'] as unknown[];
    const targets = branches.map((branch, i) => this.target(branch, `${pointer}/allOf/${i}`));
    const closed = targets.map((t) => isRecord(t.raw) && t.raw['additionalProperties'] === false);
    if (!closed.some(Boolean) && raw['additionalProperties'] !== false) return;
    const names = new Set<string>();
    const patterns = new Set<string>();
    this.declaredIn({ ...raw, $ref: undefined }, pointer, names, patterns, new Set());
    out['allOf'] = targets.map((t, i) => {
      const copied = (out['allOf'] as unknown[])[i];
      if (!closed[i]) return copied;
      const opened = this.copy(t.raw, t.pointer, copying) as Record<string, unknown>;
      delete opened['additionalProperties'];
      return opened;
    });
    const properties: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const name of names) properties[name] = true;
    if (isRecord(out['properties'])) Object.assign(properties, out['properties']);
    out['properties'] = properties;
    if (patterns.size > 0) {
      const map: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const source of patterns) map[source] = true;
      if (isRecord(out['patternProperties'])) Object.assign(map, out['patternProperties']);
      out['patternProperties'] = map;
    }
    out['additionalProperties'] = false;
    copying.readAllOf.add(pointer);
  }

  private copy(raw: unknown, pointer: JsonPointer, copying: Copying): unknown {
    if (!isRecord(raw)) return raw;
    // Without a prototype, a member named `__proto__` is a member like any other.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(raw)) {
      if (!KEPT.has(key) || (key === 'format' && !copying.formats)) continue;
      const value = raw[key];
      const at = `${pointer}/${escapePointerToken(key)}`;
      if (key === '$ref' && typeof value === 'string') {
        const target = this.resolve(value, pointer).pointer ?? value;
        copying.referenced(target);
        out[key] = target;
      } else if (key === '$recursiveRef') {
        // The pointer of the initial target; the runtime consults the dynamic scope from there.
        const target = this.recursiveTarget(value, pointer).pointer ?? '#';
        copying.referenced(target);
        out[key] = target;
      } else if (key === '$dynamicRef') {
        const resolved = this.dynamicTarget(value, pointer);
        const initial = resolved.pointer ?? '#';
        copying.referenced(initial);
        if (resolved.anchor !== undefined) copying.dynamicNames.add(resolved.anchor);
        out[key] = resolved.anchor === undefined ? { initial } : { initial, anchor: resolved.anchor };
      } else if (key === '$recursiveAnchor') {
        // It has effect only at the root of a schema resource (the runtime cannot see `$id`).
        if (value === true && this.isResourceRoot(raw, pointer)) out[key] = true;
      } else if (SINGLE.includes(key) && (isRecord(value) || typeof value === 'boolean')) out[key] = this.copy(value, at, copying);
      else if (LISTS.includes(key) && Array.isArray(value)) out[key] = value.map((child, i) => this.copy(child, `${at}/${i}`, copying));
      else if (MAPS.includes(key) && isRecord(value)) {
        const map: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
        for (const [name, child] of Object.entries(value)) map[name] = this.copy(child, `${at}/${escapePointerToken(name)}`, copying);
        out[key] = map;
      } else out[key] = value;
    }
    if (copying.allOfReading && Array.isArray(raw['allOf'])) this.readAllOfLeniently(raw, out, pointer, copying);
    return out;
  }
}
