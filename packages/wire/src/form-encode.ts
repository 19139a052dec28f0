/**
 * Encodes a body object as `application/x-www-form-urlencoded` or `multipart/form-data`, by
 * the body's form layout (the generated `body.encoding`): arrays as repeated names or
 * delimited text, objects per their `encoding` style (`form`, `deepObject`) or as JSON text,
 * files (`Blob`, `File`, `Uint8Array`) as file parts. form-decode.ts reads these forms back.
 * A value the media type cannot carry (a null list item, a delimited item holding its
 * delimiter) is a `FormValueError` naming the member, never `[object Object]`, `{}` or
 * another value on the wire.
 */
import { FORM_DELIMITERS, formEncoding, type FormField, type FormLayout, type FormStyle, type FormValue } from './form-layout.js';
import { isJsonType, isMultipartType } from './media-types.js';

/** A body member (or the body) the media type cannot carry; the client reports it as its `RequestError`. */
export class FormValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormValueError';
  }
}

/** A file as a client sends it. */
export type FileInput = Blob | Uint8Array;

/** One field of an encoded form: its name, and its text or file. */
export type FormPart = readonly [name: string, value: string | Blob];

/** The member's `encoding` says JSON text (`application/json` or a `+json` type). */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && isJsonType(contentType);
}

/** True for what the client sends as a file part: a `Blob` (a `File` too) or a `Uint8Array`. */
export function isFile(value: unknown): value is FileInput {
  return value instanceof Uint8Array || (typeof Blob !== 'undefined' && value instanceof Blob);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

interface Writer {
  readonly mediaType: string;
  readonly multipart: boolean;
  readonly parts: FormPart[];
}

function refuse(writer: Writer, member: string, why: string): never {
  throw new FormValueError(`body member "${member}" cannot be sent as ${writer.mediaType}: ${why}`);
}

/** A primitive as form text; anything else is refused, naming the member. */
function text(writer: Writer, member: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (isFile(value)) return refuse(writer, member, 'a file can only be a member of a multipart/form-data body');
  return refuse(writer, member, `${describeValue(value)} is not text, and its encoding entry does not say how to write it (contentType application/json, or a style)`);
}

/**
 * One item, member name or member value of delimited text. The reader splits the text on the
 * delimiter and forms have no escape for it, so a piece holding it is refused, not split.
 */
function delimitedPiece(writer: Writer, member: string, value: unknown, style: FormStyle): string {
  const piece = text(writer, member, value);
  const delimiter = FORM_DELIMITERS[style];
  if (piece.includes(delimiter)) refuse(writer, member, `"${piece}" holds "${delimiter}", the delimiter of style ${style}, so it would read back as more than one value`);
  return piece;
}

/** What a refused value is, for error messages: `null`, `a list`, `an object`, `a number`... */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function json(writer: Writer, member: string, value: unknown): string {
  let out: string | undefined;
  try {
    out = JSON.stringify(value);
  } catch (error) {
    return refuse(writer, member, `not JSON-serialisable (${error instanceof Error ? error.message : String(error)})`);
  }
  return out === undefined ? refuse(writer, member, 'not JSON-serialisable') : out;
}

/**
 * The media type of bytes given without one: the first concrete type of the member's
 * `encoding.contentType`, which may list several (`image/png, image/jpeg`) or use a wildcard.
 */
function bytesType(contentType: string | undefined): string {
  const first = contentType?.split(',')[0]?.trim();
  return first === undefined || first === '' || first.includes('*') ? 'application/octet-stream' : first;
}

function filePart(writer: Writer, member: string, value: unknown, field: FormValue | undefined, contentType: string | undefined): string | Blob {
  if (!writer.multipart) return refuse(writer, member, 'a file can only be a member of a multipart/form-data body');
  if (value instanceof Uint8Array) return new Blob([value as Uint8Array<ArrayBuffer>], { type: bytesType(contentType) });
  if (value instanceof Blob) return value;
  // A member the spec calls a file, given as text: its text is the file.
  if (typeof value === 'string' && field?.type === 'file') return value;
  return refuse(writer, member, `expected a file (Blob, File or Uint8Array), got ${describeValue(value)}`);
}

/** An object member, written as its style says (JSON text where `encoding` or multipart says so). */
function writeObject(writer: Writer, name: string, value: Record<string, unknown>, field: FormField | undefined): void {
  const asJson = isJson(field?.contentType) || (writer.multipart && field?.style === undefined && field?.explode === undefined);
  if (asJson) {
    writer.parts.push([name, json(writer, name, value)]);
    return;
  }
  const { style, explode } = formEncoding(field);
  const members = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
  if (style === 'deepObject') {
    for (const [key, member] of members) writer.parts.push([`${name}[${key}]`, text(writer, `${name}.${key}`, member)]);
    return;
  }
  if (explode) {
    for (const [key, member] of members) writer.parts.push([key, text(writer, `${name}.${key}`, member)]);
    return;
  }
  const delimited = (piece: unknown, key: string): string => delimitedPiece(writer, `${name}.${key}`, piece, style);
  writer.parts.push([name, members.flatMap(([key, member]) => [delimited(key, key), delimited(member, key)]).join(FORM_DELIMITERS[style])]);
}

function writeArray(writer: Writer, name: string, items: readonly unknown[], field: FormField | undefined): void {
  if (isJson(field?.contentType)) {
    writer.parts.push([name, json(writer, name, items)]);
    return;
  }
  // Form text has no null, and leaving an item out would move every later one to another index.
  items.forEach((item, i) => {
    if (item === undefined || item === null) refuse(writer, `${name}[${i}]`, `a list item that is ${String(item)} has no form text`);
  });
  const itemField = field?.items;
  if (itemField?.type === 'file' || items.some(isFile)) {
    items.forEach((item, i) => writer.parts.push([name, filePart(writer, `${name}[${i}]`, item, itemField, field?.contentType)]));
    return;
  }
  if (writer.multipart && field?.style === undefined && items.some((item) => isPlainObject(item) || Array.isArray(item))) {
    // Multipart lists of objects: one JSON part per item.
    items.forEach((item, i) => writer.parts.push([name, json(writer, `${name}[${i}]`, item)]));
    return;
  }
  const { style, explode } = formEncoding(field);
  if (explode) items.forEach((item, i) => writer.parts.push([name, text(writer, `${name}[${i}]`, item)]));
  else writer.parts.push([name, items.map((item, i) => delimitedPiece(writer, `${name}[${i}]`, item, style)).join(FORM_DELIMITERS[style])]);
}

function writeMember(writer: Writer, name: string, value: unknown, field: FormField | undefined): void {
  if (value === undefined || value === null) return;
  if (field?.type === 'file' || isFile(value)) writer.parts.push([name, filePart(writer, name, value, field, field?.contentType)]);
  else if (Array.isArray(value)) writeArray(writer, name, value, field);
  else if (isJson(field?.contentType)) writer.parts.push([name, json(writer, name, value)]);
  else if (isPlainObject(value) && (field === undefined || field.type === 'object' || field.type === 'any')) writeObject(writer, name, value, field);
  else writer.parts.push([name, text(writer, name, value)]);
}

/**
 * The parts of a form body of `mediaType`, in the order of the body object's members. Throws
 * `FormValueError` naming a member the media type cannot carry.
 *
 * @example
 * formParts({ scope: 42, tags: ['a', 'b'] }, undefined, 'application/x-www-form-urlencoded')
 * // → [['scope', '42'], ['tags', 'a'], ['tags', 'b']]
 */
export function formParts(body: unknown, layout: FormLayout | undefined, mediaType: string): FormPart[] {
  const writer: Writer = { mediaType, multipart: isMultipartType(mediaType), parts: [] };
  if (!isPlainObject(body)) throw new FormValueError(`a ${mediaType} body must be an object of members, got ${describeValue(body)}`);
  for (const [name, value] of Object.entries(body)) writeMember(writer, name, value, layout?.[name]);
  return writer.parts;
}

/** `application/x-www-form-urlencoded` text of a body object (throws `FormValueError`). */
export function encodeUrlEncoded(body: unknown, layout: FormLayout | undefined, mediaType: string): string {
  const search = new URLSearchParams();
  for (const [name, value] of formParts(body, layout, mediaType)) search.append(name, value as string);
  return search.toString();
}

/** `multipart/form-data` of a body object (fetch writes the boundary into `Content-Type`; throws `FormValueError`). */
export function encodeMultipart(body: unknown, layout: FormLayout | undefined, mediaType: string): FormData {
  const form = new FormData();
  // A `File` keeps its name; another `Blob` is named `blob`, as FormData names it.
  for (const [name, value] of formParts(body, layout, mediaType)) form.append(name, value);
  return form;
}
