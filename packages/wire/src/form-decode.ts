/**
 * Decodes the fields of a form body (`application/x-www-form-urlencoded`, or the parts of
 * `multipart/form-data`) by the body's schema: form fields are text, so `42` becomes a number
 * where the schema says integer, repeated names and delimited text become arrays, objects are
 * read per their `encoding` style (`form`, `deepObject`, or JSON text), and files stay files.
 * Text that does not decode is passed on unchanged, for the schema to report with its rule.
 */
import { bodyKind } from './content-negotiation.js';
import { FORM_DELIMITERS, formEncoding, type FormField, type FormLayout, type FormValue, type UploadedFile } from './form-layout.js';
import { parseJsonSafely, UnsafeInputError } from './safe-json.js';

/** A field as received: text, or (multipart) a file. */
export type FormEntry = readonly [name: string, value: string | UploadedFile];

/** A form field that cannot be decoded as its schema and `encoding` say. */
export class FormFieldError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`form field "${field}": ${message}`);
    this.name = 'FormFieldError';
  }
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A JSON media type (`application/json`, `...+json`), read as the bodies of that type are. */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && bodyKind(contentType) === 'json';
}

/** One decoder for every file read as text (it keeps no state between whole-input decodes). */
const UTF8 = new TextDecoder();

function textOf(value: string | UploadedFile): string {
  return typeof value === 'string' ? value : UTF8.decode(value.bytes);
}

/** One text value decoded as `shape` says; undecodable text is returned as is. */
function scalar(text: string, shape: FormValue | undefined): unknown {
  switch (shape?.type) {
    case 'number':
    case 'integer':
      return NUMBER.test(text) ? Number(text) : text;
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    default:
      return text;
  }
}

interface Reader {
  readonly byName: Map<string, Array<string | UploadedFile>>;
  /** Names already taken by a member (objects in `form` style take their members' names). */
  readonly consumed: Set<string>;
  /** The body's own member names: never a `form` object's, whatever order they come in. */
  readonly declared: ReadonlySet<string>;
  readonly multipart: boolean;
  readonly maxDepth: number;
}

function take(reader: Reader, name: string): Array<string | UploadedFile> | undefined {
  const values = reader.byName.get(name);
  if (values !== undefined) reader.consumed.add(name);
  return values;
}

function parseJson(field: string, text: string, maxDepth: number): unknown {
  try {
    return parseJsonSafely(text, maxDepth);
  } catch (error) {
    if (error instanceof UnsafeInputError) throw new FormFieldError(field, error.message);
    throw new FormFieldError(field, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** One value, or several as a list (which the schema then refuses where it wants one). */
function oneOrList<T>(values: readonly T[]): T | T[] {
  return values.length === 1 ? values[0]! : [...values];
}

function objectFromPairs(field: string, parts: readonly string[], shape: FormValue): Record<string, unknown> {
  if (parts.length % 2 !== 0) throw new FormFieldError(field, `an object in this style is name,value pairs; got ${parts.length} items`);
  const out: Record<string, unknown> = {};
  for (let i = 0; i < parts.length; i += 2) {
    const key = parts[i]!;
    if (key === '__proto__') throw new FormFieldError(field, 'member "__proto__" is not allowed');
    out[key] = scalar(parts[i + 1]!, shape.properties?.[key]);
  }
  return out;
}

/** An object member: JSON text, `deepObject` (`name[key]=v`), or `form` (exploded: its members' own names). */
function decodeObject(name: string, field: FormField, reader: Reader): unknown {
  const json = isJson(field.contentType) || (reader.multipart && field.style === undefined && field.explode === undefined && field.contentType === undefined);
  if (json) {
    const values = take(reader, name);
    return values === undefined ? undefined : oneOrList(values.map((v) => parseJson(name, textOf(v), reader.maxDepth)));
  }
  const { style, explode } = formEncoding(field);
  if (style === 'deepObject') {
    const out: Record<string, unknown> = {};
    let found = false;
    for (const [key, values] of reader.byName) {
      if (!key.startsWith(`${name}[`) || !key.endsWith(']')) continue;
      const member = key.slice(name.length + 1, -1);
      if (member === '__proto__') throw new FormFieldError(name, 'member "__proto__" is not allowed');
      reader.consumed.add(key);
      out[member] = oneOrList(values.map((v) => scalar(textOf(v), field.properties?.[member])));
      found = true;
    }
    return found ? out : undefined;
  }
  if (explode) {
    const out: Record<string, unknown> = {};
    let found = false;
    for (const [member, shape] of Object.entries(field.properties ?? {})) {
      if (reader.declared.has(member)) continue;
      const values = take(reader, member);
      if (values === undefined) continue;
      out[member] = oneOrList(values.map((v) => scalar(textOf(v), shape)));
      found = true;
    }
    return found ? out : undefined;
  }
  const values = take(reader, name);
  if (values === undefined) return undefined;
  if (values.length > 1) throw new FormFieldError(name, `expected one value in ${style} style, received ${values.length}`);
  const text = textOf(values[0]!);
  return text === '' ? {} : objectFromPairs(name, text.split(FORM_DELIMITERS[style]), field);
}

/** An array member: repeated names (exploded) or one delimited text; each item decoded. */
function decodeArray(name: string, field: FormField, reader: Reader): unknown {
  const values = take(reader, name);
  if (values === undefined) return undefined;
  const items = field.items;
  if (items?.type === 'file') return [...values];
  const itemsJson = isJson(field.contentType) || (reader.multipart && field.style === undefined && (items?.type === 'object' || items?.type === 'array'));
  if (itemsJson) {
    // One JSON array, or one JSON item per repeated part.
    if (values.length === 1) {
      const parsed = parseJson(name, textOf(values[0]!), reader.maxDepth);
      return Array.isArray(parsed) ? parsed : [parsed];
    }
    return values.map((v) => parseJson(name, textOf(v), reader.maxDepth));
  }
  const { style, explode } = formEncoding(field);
  const texts = values.map(textOf);
  const parts = !explode && texts.length === 1 ? (texts[0] === '' ? [] : texts[0]!.split(FORM_DELIMITERS[style])) : texts;
  return parts.map((part) => scalar(part, items));
}

function decodeField(name: string, field: FormField, reader: Reader): unknown {
  switch (field.type) {
    case 'file': {
      const values = take(reader, name);
      return values === undefined ? undefined : oneOrList(values);
    }
    case 'object':
      return decodeObject(name, field, reader);
    case 'array':
      return decodeArray(name, field, reader);
    default: {
      const values = take(reader, name);
      if (values === undefined) return undefined;
      const decoded = values.map((v) => (isJson(field.contentType) ? parseJson(name, textOf(v), reader.maxDepth) : scalar(textOf(v), field)));
      return oneOrList(decoded);
    }
  }
}

/**
 * The body object of a form's fields, decoded by `layout` (the members the schema declares).
 * Fields the layout does not name are kept as text (files as files), repeated ones as lists.
 *
 * @example
 * decodeForm([['scope', '42'], ['tag', 'a'], ['tag', 'b']], { scope: { type: 'integer' }, tag: { type: 'array', items: { type: 'string' } } }, { multipart: false, maxDepth: 64 })
 * // → { scope: 42, tag: ['a', 'b'] }
 */
export function decodeForm(entries: readonly FormEntry[], layout: FormLayout | undefined, options: { multipart: boolean; maxDepth: number }): Record<string, unknown> {
  const byName = new Map<string, Array<string | UploadedFile>>();
  for (const [name, value] of entries) {
    if (name === '__proto__') throw new FormFieldError(name, 'this name is not allowed');
    const list = byName.get(name);
    if (list) list.push(value);
    else byName.set(name, [value]);
  }
  const reader: Reader = { byName, consumed: new Set(), declared: new Set(Object.keys(layout ?? {})), multipart: options.multipart, maxDepth: options.maxDepth };
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(layout ?? {})) {
    const value = decodeField(name, field, reader);
    if (value !== undefined) out[name] = value;
  }
  for (const [name, values] of byName) {
    if (reader.consumed.has(name) || Object.hasOwn(out, name)) continue;
    out[name] = oneOrList(values);
  }
  return out;
}

