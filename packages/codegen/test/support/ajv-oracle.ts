/**
 * An independent JSON Schema validator for the component schemas of an OpenAPI document:
 * ajv 8 with every ajv-formats format. OpenAPI 3.1 documents are JSON Schema 2020-12 and go
 * to Ajv2020 (`prefixItems`, `items` after it); 3.0 documents (draft 4 plus OpenAPI's rules)
 * go to Ajv2019, which still reads draft 4's array `items` with `additionalItems` and
 * `dependencies`, and has `unevaluatedProperties` for the allOf reading.
 *
 * The document is copied, then adapted, in this order:
 * 1. the generator's `allOf` reading (see all-of-reading.ts), only where the generator
 *    applies it: under the lenient reading, the default for 3.0 documents;
 * 2. what OpenAPI says and ajv reads otherwise (`adaptForAjv` below).
 */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { applyAllOfReading } from './all-of-reading.js';

const require = createRequire(import.meta.url);
const { default: Ajv2019 } = require('ajv/dist/2019.js') as typeof import('ajv/dist/2019.js');
const { default: Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
const { default: addFormats } = require('ajv-formats') as typeof import('ajv-formats');

type Json = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';
const DOCUMENT_ID = 'urn:differential:openapi-document';

const SCHEMA_VALUED = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions', 'dependencies'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Visits every schema below `schema`, children before parents. */
function postOrder(schema: unknown, pointer: string, visit: (node: Json, pointer: string) => void): void {
  if (!isObject(schema)) return;
  for (const key of SCHEMA_VALUED) {
    const child = schema[key];
    if (Array.isArray(child)) child.forEach((c, i) => postOrder(c, `${pointer}/${key}/${i}`, visit));
    else postOrder(child, `${pointer}/${key}`, visit);
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (isObject(map)) for (const [name, child] of Object.entries(map)) postOrder(child, `${pointer}/${key}/${escapeToken(name)}`, visit);
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) list.forEach((c, i) => postOrder(c, `${pointer}/${key}/${i}`, visit));
  }
  visit(schema, pointer);
}

const ANNOTATIONS = new Set(['description', 'title', 'example', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'default', 'externalDocs', 'xml']);

/**
 * OpenAPI rules that ajv does not apply by itself, written into the copy so that ajv checks
 * what the OpenAPI file means. Returns a note per kind of adaptation made.
 */
export function adaptForAjv(document: Json, nullable: 'lenient' | 'literal' = 'lenient'): { document: Json; notes: string[] } {
  const copy = structuredClone(document);
  const dialect = String(copy['openapi']).startsWith('3.1') ? '3.1' : '3.0';
  const components = isObject(copy['components']) ? copy['components'] : {};
  const schemas = isObject(components['schemas']) ? components['schemas'] : {};
  const notes = new Set<string>();

  const adapt = (node: Json, pointer: string): void => {
    // The 3.0 nullable idiom, read before a $ref's siblings are dropped (see below).
    const nullableIdiom =
      dialect === '3.0' && nullable === 'lenient' && node['nullable'] === true && node['type'] === undefined && ['$ref', 'allOf', 'oneOf', 'anyOf'].some((k) => k in node);
    // OpenAPI 3.0 §4.7.24: a Reference Object's siblings are ignored (ajv 2019-09 would apply them).
    if (dialect === '3.0' && typeof node['$ref'] === 'string') {
      const siblings = Object.keys(node).filter((k) => k !== '$ref' && !ANNOTATIONS.has(k) && !k.startsWith('x-'));
      if (siblings.length > 0) {
        for (const key of siblings) delete node[key];
        notes.add(`3.0: keywords beside $ref removed (e.g. ${pointer})`);
      }
    }
    // OpenAPI 3.0 (draft-wright-00) exclusiveMinimum/exclusiveMaximum are booleans.
    if (dialect === '3.0') {
      for (const [flag, bound] of [
        ['exclusiveMinimum', 'minimum'],
        ['exclusiveMaximum', 'maximum'],
      ] as const) {
        if (node[flag] === true && typeof node[bound] === 'number') {
          node[flag] = node[bound];
          delete node[bound];
          notes.add(`3.0: boolean ${flag} turned into its 2019-09 form`);
        } else if (node[flag] === false) delete node[flag];
      }
    }
    // `nullable` is an OpenAPI 3.0 keyword (ajv reads it in every draft). OpenAPI 3.0.3 §4.7.24:
    // it adds null "only if type is explicitly defined within the same Schema Object", and
    // other keywords (enum) keep their meaning. Beside `$ref`/`allOf`/`oneOf`/`anyOf` without
    // `type` (the nullable idiom) the generator reads it, by default, as "null is also
    // accepted": so does the oracle then. Otherwise it has no effect (ajv would throw).
    if ('nullable' in node) {
      if (dialect === '3.1' || node['nullable'] !== true) delete node['nullable'];
      else if (node['type'] === undefined) {
        delete node['nullable'];
        if (!nullableIdiom) notes.add(`3.0.3: nullable without type has no effect (e.g. ${pointer})`);
      }
    }
    // The discriminator is a hint that never changes the validation outcome (OpenAPI 3.0.4,
    // 3.1.1): ajv evaluates the plain oneOf/anyOf (its discriminator mode would decide by the tag).
    if ('discriminator' in node) {
      delete node['discriminator'];
      notes.add('discriminator removed: ajv evaluates the plain oneOf/anyOf');
    }
    if (nullableIdiom) {
      const inner: Json = { ...node };
      for (const key of Object.keys(node)) delete node[key];
      node['anyOf'] = [{ type: 'null' }, inner];
      notes.add(`3.0 nullable idiom read as "null is also accepted" (e.g. ${pointer})`);
    }
  };

  for (const [name, schema] of Object.entries(schemas)) postOrder(schema, `${COMPONENT_PREFIX}${escapeToken(name)}`, adapt);
  return { document: copy, notes: [...notes] };
}

export interface AjvOracle {
  /** True when the value is valid for the named component schema. */
  validate(name: string, value: unknown): boolean;
  /** ajv's errors for the last call of `validate` on that schema, as text. */
  errorsText(name: string): string;
  /**
   * A copy of a valid value with the `default`s ajv applies (option `useDefaults`: a
   * member absent from an object gets the `default` written on its property schema).
   */
  withDefaults(name: string, value: unknown): unknown;
  /** Pointers of the allOf nodes given the generator's reading. */
  rewrittenAllOf: string[];
  /** What was adapted for ajv, one line per kind. */
  notes: string[];
  /** The reading the oracle applies (the generator's default for the document's version unless given). */
  reading: 'exact' | 'lenient';
  /** The ajv class used: `2020` for OpenAPI 3.1, `2019` for 3.0. */
  draft: '2019' | '2020';
}

export interface AjvOracleOptions {
  /**
   * The generator's reading to mirror: `lenient` gives ajv the allOf reading, `exact` reads
   * the schemas as written. Default: the generator's, `exact` for 3.1 and `lenient` for 3.0.
   */
  reading?: 'exact' | 'lenient';
  /** The generator's reading of the 3.0 nullable idiom to mirror (default `lenient`, the generator's). */
  nullable?: 'lenient' | 'literal';
}

/** Builds the oracle for every component schema of `document` (left untouched). */
export function buildAjvOracle(document: Json, options: AjvOracleOptions = {}): AjvOracle {
  const is31 = String(document['openapi']).startsWith('3.1');
  const readingMode = options.reading ?? (is31 ? 'exact' : 'lenient');
  const reading = readingMode === 'lenient' ? applyAllOfReading(document) : { document, rewritten: [] };
  const adapted = adaptForAjv(reading.document, options.nullable);
  const components = isObject(adapted.document['components']) ? adapted.document['components'] : {};
  const schemas = isObject(components['schemas']) ? components['schemas'] : {};
  const instance = (useDefaults: boolean) => {
    const Ajv = is31 ? Ajv2020 : Ajv2019;
    const ajv = new Ajv({
      strict: false,
      allErrors: false,
      useDefaults,
      // `example`, `x-` extensions and OpenAPI-only keywords are annotations here.
      logger: false,
    });
    addFormats(ajv);
    ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } });
    const compiled = new Map<string, ValidateFunction>();
    const get = (name: string): ValidateFunction => {
      let validate = compiled.get(name);
      if (!validate) {
        const ref = `${DOCUMENT_ID}${COMPONENT_PREFIX}${encodeURIComponent(escapeToken(name))}`;
        validate = ajv.getSchema(ref);
        if (!validate) throw new Error(`ajv cannot find ${ref}`);
        compiled.set(name, validate);
      }
      return validate;
    };
    return { ajv, get };
  };
  const plain = instance(false);
  let defaults: ReturnType<typeof instance> | undefined;
  return {
    validate: (name, value) => plain.get(name)(value) === true,
    errorsText: (name) => plain.ajv.errorsText((plain.get(name).errors ?? []) as ErrorObject[]),
    withDefaults: (name, value) => {
      defaults ??= instance(true);
      const copy = structuredClone(value);
      if (!defaults.get(name)(copy)) throw new Error(`withDefaults: the value is not valid for ${name}`);
      return copy;
    },
    rewrittenAllOf: reading.rewritten,
    notes: adapted.notes,
    reading: readingMode,
    draft: is31 ? '2020' : '2019',
  };
}
