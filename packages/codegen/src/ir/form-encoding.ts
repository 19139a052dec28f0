/**
 * The form layout of a request body: for `application/x-www-form-urlencoded` and
 * `multipart/form-data` media types of an object schema, what each member is (number, file,
 * list...) and how its media type's `encoding` entry says it travels. Form fields are text;
 * without this the runtimes could not tell `42` the integer from `"42"` the string.
 */
import { isRecord } from './json-pointer.js';
import type { FormFieldIR, FormValueIR } from './types.js';

/** Deeper members are decoded as text (and left to the schema): forms are flat in practice. */
const MAX_DEPTH = 4;

const STYLES = new Set(['form', 'spaceDelimited', 'pipeDelimited', 'deepObject']);

/** The media type without its parameters, lower-cased (`Multipart/Form-Data; boundary=x` → `multipart/form-data`). */
function essenceOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** `application/x-www-form-urlencoded` or `multipart/form-data` (parameters ignored). */
export function isFormMediaType(contentType: string): boolean {
  const essence = essenceOf(contentType);
  return essence === 'application/x-www-form-urlencoded' || essence === 'multipart/form-data';
}

export function isMultipartMediaType(contentType: string): boolean {
  return essenceOf(contentType) === 'multipart/form-data';
}

/**
 * Sets a member named by the file: a plain assignment of `__proto__` would replace the
 * record's prototype and lose the member.
 */
export function setMember<T>(record: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
}

interface Reading {
  /** Follows a `$ref` to its target. */
  readonly deref: (value: unknown) => unknown;
  readonly dialect: '3.0' | '3.1';
  /** Files exist only in multipart bodies. */
  readonly multipart: boolean;
}

/** The first non-`null` entry of `type` (a 3.1 type array, or the 3.0 string). */
function typeOf(schema: Record<string, unknown>): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

/**
 * A file: `format: binary` (3.0, also common in 3.1 files), or in 3.1 a `contentMediaType`
 * without `contentEncoding` (the raw bytes of that media type).
 */
function isFile(schema: Record<string, unknown>, reading: Reading): boolean {
  if (!reading.multipart) return false;
  if (schema['format'] === 'binary') return true;
  return reading.dialect === '3.1' && typeof schema['contentMediaType'] === 'string' && schema['contentEncoding'] === undefined;
}

/** Object members of `schema`, `allOf` parts included (the common way to extend a form). */
function membersOf(schema: Record<string, unknown>, reading: Reading, seen: Set<unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const visit = (value: unknown, depth: number): void => {
    const node = reading.deref(value);
    if (!isRecord(node) || seen.has(node) || depth > 8) return;
    seen.add(node);
    if (isRecord(node['properties'])) out.push(...Object.entries(node['properties']));
    if (Array.isArray(node['allOf'])) for (const part of node['allOf']) visit(part, depth + 1);
    seen.delete(node);
  };
  visit(schema, 0);
  return out;
}

function valueOf(raw: unknown, reading: Reading, depth: number, seen: Set<unknown>): FormValueIR {
  const schema = reading.deref(raw);
  if (!isRecord(schema) || depth > MAX_DEPTH || seen.has(schema)) return { type: 'any' };
  if (isFile(schema, reading)) return { type: 'file' };
  const type = typeOf(schema) ?? (isRecord(schema['properties']) || Array.isArray(schema['allOf']) ? 'object' : undefined);
  switch (type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return { type };
    case 'array': {
      seen.add(schema);
      const items = valueOf(schema['items'], reading, depth + 1, seen);
      seen.delete(schema);
      return { type: 'array', items };
    }
    case 'object': {
      seen.add(schema);
      const properties: Record<string, FormValueIR> = {};
      for (const [name, member] of membersOf(schema, reading, new Set())) setMember(properties, name, valueOf(member, reading, depth + 1, seen));
      seen.delete(schema);
      return { type: 'object', properties };
    }
    default:
      return { type: 'any' };
  }
}

/** The `encoding` entry of one member, as far as the runtimes use it. */
function encodingOf(raw: unknown): Omit<FormFieldIR, keyof FormValueIR> {
  if (!isRecord(raw)) return {};
  const out: Omit<FormFieldIR, keyof FormValueIR> = {};
  if (typeof raw['contentType'] === 'string') out.contentType = raw['contentType'];
  if (typeof raw['style'] === 'string' && STYLES.has(raw['style'])) out.style = raw['style'] as FormFieldIR['style'];
  if (typeof raw['explode'] === 'boolean') out.explode = raw['explode'];
  if (typeof raw['allowReserved'] === 'boolean') out.allowReserved = raw['allowReserved'];
  return out;
}

/**
 * The layout of a form media type (`media` is the Media Type Object), or undefined when it is
 * not a form type or its schema is not an object.
 *
 * @example
 * formLayout('multipart/form-data', { schema: { type: 'object', properties: { n: { type: 'integer' } } } }, ...)
 * // → { n: { type: 'integer' } }
 */
export function formLayout(
  contentType: string,
  media: Record<string, unknown>,
  deref: (value: unknown) => unknown,
  dialect: '3.0' | '3.1',
): Record<string, FormFieldIR> | undefined {
  if (!isFormMediaType(contentType)) return undefined;
  const reading: Reading = { deref, dialect, multipart: isMultipartMediaType(contentType) };
  const root = valueOf(media['schema'], reading, 0, new Set());
  if (root.type !== 'object') return undefined;
  const encoding = isRecord(media['encoding']) ? media['encoding'] : {};
  const out: Record<string, FormFieldIR> = {};
  for (const [name, value] of Object.entries(root.properties ?? {})) {
    setMember(out, name, { ...value, ...encodingOf(Object.hasOwn(encoding, name) ? encoding[name] : undefined) });
  }
  return out;
}
