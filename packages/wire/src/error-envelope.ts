/**
 * Error bodies in the spec's own shape. Our TPP-facing specs use `{ Errors: [{ Code,
 * Message, Path? }] }`, the hub-to-LFI contract `{ errorCode, errorMessage }`; other specs
 * use other shapes. The router tries a few known shapes against the response schema and
 * keeps the first that validates, so each API answers in the shape it documents.
 */
import type { z } from 'zod';
import type { ErrorItem } from './error-item.js';
import { objectMembers } from './object-members.js';

/** Section 8: `Message` and `Path` are 1 to 500 characters. */
export const MAX_TEXT = 500;
/** An error response lists at most this many items, however many problems a request has. */
export const MAX_ITEMS = 20;

/** Cuts text to `max` characters (never empty), so an envelope always satisfies the length rule. */
export function clampText(text: string, max = MAX_TEXT): string {
  const value = text.length === 0 ? '-' : text;
  return value.length <= max ? value : `${value.slice(0, max - 1)}…`;
}

function clampItem(item: ErrorItem): ErrorItem {
  return {
    code: item.code,
    message: clampText(item.message || item.code),
    ...(item.path !== undefined && item.path !== '' ? { path: clampText(item.path) } : {}),
    ...(item.url !== undefined ? { url: item.url } : {}),
  };
}

type Builder = (items: readonly ErrorItem[]) => unknown;

/** Known envelope shapes, most specific first. */
const SHAPES: readonly Builder[] = [
  (items) => ({
    Errors: items.map((i) => ({ Code: i.code, Message: i.message, ...(i.path ? { Path: i.path } : {}), ...(i.url ? { Url: i.url } : {}) })),
  }),
  (items) => ({ errorCode: items[0]!.code, errorMessage: items.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ') }),
  (items) => ({ errors: items.map((i) => ({ code: i.code, message: i.message, ...(i.path ? { path: i.path } : {}) })) }),
  (items) => ({ code: items[0]!.code, message: items.map((i) => i.message).join('; ') }),
  (items) => ({ error: items[0]!.code, error_description: items.map((i) => i.message).join('; ') }),
  (items) => ({ message: items.map((i) => i.message).join('; ') }),
];

const PROBE: readonly ErrorItem[] = [{ code: 'GenericError', message: 'probe', path: 'probe' }];
const chosen = new WeakMap<z.ZodType, Builder>();

/** Member names an object schema declares, when it is one (an open schema accepts anything). */
function declaredKeys(schema: z.ZodType): Set<string> | undefined {
  const members = objectMembers(schema);
  return members ? new Set(Object.keys(members)) : undefined;
}

/**
 * True for this API family's own error shapes: an object schema that names `Errors`, or
 * `errorCode` and `errorMessage` (the hub-to-LFI contract).
 */
export function isEnvelopeSchema(schema: z.ZodType): boolean {
  const declared = declaredKeys(schema);
  return declared !== undefined && (declared.has('Errors') || (declared.has('errorCode') && declared.has('errorMessage')));
}

function builderFor(schema: z.ZodType | undefined): Builder {
  if (!schema) return SHAPES[0]!;
  const cached = chosen.get(schema);
  if (cached) return cached;
  const declared = declaredKeys(schema);
  const fits = SHAPES.filter((build) => schema.safeParse(build(PROBE)).success);
  // Prefer a shape whose members the schema names: an open schema would accept any of them.
  const named = declared ? fits.find((build) => Object.keys(build(PROBE) as object).every((k) => declared.has(k))) : undefined;
  const fit = named ?? fits[0] ?? SHAPES[0]!;
  chosen.set(schema, fit);
  return fit;
}

function listed(items: readonly ErrorItem[]): ErrorItem[] {
  return (items.length > 0 ? items : [{ code: 'GenericError', message: 'error' }]).slice(0, MAX_ITEMS).map(clampItem);
}

/**
 * The body of a well-known error shape (OAuth's `{ error, error_description }`, `{ errors: [...] }`,
 * ...) when `schema` names every member of one and the body fits; otherwise undefined.
 */
export function knownShapeBody(items: readonly ErrorItem[], schema: z.ZodType): unknown {
  const declared = declaredKeys(schema);
  if (!declared) return undefined;
  const list = listed(items);
  for (const build of SHAPES) {
    const body = build(list) as object;
    if (Object.keys(body).every((k) => declared.has(k)) && schema.safeParse(body).success) return body;
  }
  return undefined;
}

/**
 * The JSON form of an error response for `schema` (the status's JSON schema, or a sibling
 * error schema of the same API when the status has none). Falls back to the `Errors` shape.
 *
 * @example
 * errorBody([{ code: 'Body.InvalidFormat', message: 'required', path: '$.Data' }], Errors400)
 * // → { Errors: [{ Code: 'Body.InvalidFormat', Message: 'required', Path: '$.Data' }] }
 */
export function errorBody(items: readonly ErrorItem[], schema: z.ZodType | undefined): unknown {
  const list = listed(items);
  const build = builderFor(schema);
  const body = build(list);
  // A code the schema's enum does not know: keep the envelope valid rather than fail.
  if (schema && !schema.safeParse(body).success) {
    const withoutPaths = build(list.map(({ path: _path, ...rest }) => rest));
    if (schema.safeParse(withoutPaths).success) return withoutPaths;
  }
  return body;
}
