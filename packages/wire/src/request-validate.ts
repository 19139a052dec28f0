/**
 * Validating a request's parts against an operation's schemas, as every publisher does it
 * (the server stubs' router and mock handlers in a browser alike): the plain maps of the path,
 * query, headers and cookies, the styled parameters parsed from their raw text, then each part
 * checked. Failures come back as error items, never as throws. Pure: the caller read the
 * request and decoded its body.
 */
import type { z } from 'zod';
import { FAILURES } from './error-codes.js';
import type { ErrorItem } from './error-item.js';
import { objectMembers } from './object-members.js';
import { applyParameterStyles, querystringValue, type DeclaredNames } from './parameter-parse.js';
import { listedIn, ParameterStyleError, type ParameterWire } from './parameter-wire.js';
import { cookieObject, ForbiddenNameError, headerObject, queryObject, type HeaderMap } from './request-input.js';
import { issuesToErrors, type Location } from './validation-issues.js';

/** The request schemas of an operation, as far as validation reads them. */
export interface RequestPartSchemas {
  readonly path?: z.ZodType | undefined;
  readonly query?: z.ZodType | undefined;
  readonly headers?: z.ZodType | undefined;
  readonly cookies?: z.ZodType | undefined;
  readonly parameters?: readonly ParameterWire[] | undefined;
}

/** How a security scheme carries its credential, as far as parameter parsing reads it. */
export interface CredentialPlace {
  readonly type: string;
  readonly in?: string | undefined;
  readonly name?: string | undefined;
}

/**
 * The query and cookie names of the API's `apiKey` security schemes: a credential, never a
 * member of an object parameter sent under its members' own names. Worked out once per API.
 */
export function credentialNames(schemes: { readonly [name: string]: CredentialPlace }): DeclaredNames {
  const names = { query: new Set<string>(), cookie: new Set<string>() };
  for (const scheme of Object.values(schemes)) {
    if (scheme.type !== 'apiKey' || scheme.name === undefined) continue;
    if (scheme.in === 'query') names.query.add(scheme.name);
    if (scheme.in === 'cookie') names.cookie.add(scheme.name);
  }
  return names;
}

/**
 * The query and cookie names an operation's object parameters cannot take: the ones it
 * declares (the members of its loose query and cookie objects), and the credentials'.
 */
export function claimedNames(op: { readonly request: RequestPartSchemas }, credentials: DeclaredNames | undefined): DeclaredNames {
  const names = (schema: unknown, more: ReadonlySet<string> | undefined): Set<string> => new Set([...Object.keys(objectMembers(schema) ?? {}), ...(more ?? [])]);
  return { query: names(op.request.query, credentials?.query), cookie: names(op.request.cookies, credentials?.cookie) };
}

/** A request as validation reads it. */
export interface RequestPartsInput {
  /** Path parameters, percent-decoded. */
  readonly pathParams: Record<string, string>;
  /** The path parameters still percent-encoded (for `request.parameters` styles). */
  readonly rawPathParams: Record<string, string>;
  /** The query, parsed or as its text (then the same as `rawQuery`): `queryObject` reads either. */
  readonly query: URLSearchParams | string;
  /** The query string without `?` (for `request.parameters` styles). */
  readonly rawQuery: string;
  /** Headers by lower-case name. */
  readonly headers: HeaderMap;
  /** The decoded body (undefined when none was sent). */
  readonly body: unknown;
  /** The schema the body is checked against; undefined leaves the body unchecked. */
  readonly bodySchema: z.ZodType | undefined;
  /** The operation's `claimedNames` with the API's API keys; without them, its own names alone. */
  readonly claimedNames?: DeclaredNames | undefined;
}

/** The validated (or, with validation off, parsed) parts of a request. */
export interface RequestParts {
  readonly path: unknown;
  readonly query: unknown;
  readonly headers: unknown;
  readonly cookies: unknown;
  readonly body: unknown;
}

/**
 * Parses the parameters of a request and (with `validate`) checks every part against the
 * operation's schemas: the parts as the schemas output them, or the error items of a 400.
 *
 * @example
 * validateRequestParts(operations.GetAccounts, { pathParams: {}, rawPathParams: {}, query, rawQuery, headers, body: undefined, bodySchema: undefined }, true)
 */
export function validateRequestParts(
  op: { readonly request: RequestPartSchemas },
  input: RequestPartsInput,
  validate: boolean,
): { ok: true; parts: RequestParts } | { ok: false; items: ErrorItem[] } {
  let query: unknown;
  let cookies: Record<string, unknown>;
  let path: Record<string, unknown> = input.pathParams;
  const headers: Record<string, unknown> = headerObject(input.headers);
  const cookieHeader = input.headers.cookie;
  const cookieText = Array.isArray(cookieHeader) ? cookieHeader.join('; ') : (cookieHeader as string | undefined);
  try {
    const styled = op.request.parameters;
    // OpenAPI 3.2 `in: querystring`: the whole query string is one value, the query part.
    const whole = listedIn(styled, 'querystring')?.values().next().value;
    const named = whole === undefined ? queryObject(input.query) : {};
    query = whole === undefined ? named : querystringValue(whole, input.rawQuery);
    cookies = cookieObject(cookieText);
    if (styled !== undefined && styled.length > 0) {
      // Only operations with styled parameters pay for this; the maps are this request's own.
      const maps = { path: { ...path }, query: named, headers, cookies };
      applyParameterStyles(styled, { path: input.rawPathParams, query: input.rawQuery, headers: input.headers, cookie: cookieText }, maps, input.claimedNames ?? claimedNames(op, undefined));
      path = maps.path;
    }
  } catch (error) {
    if (error instanceof ForbiddenNameError) {
      return { ok: false, items: [{ code: FAILURES.invalidParameter.code, message: error.message, path: error.field }] };
    }
    if (error instanceof ParameterStyleError) {
      return { ok: false, items: [{ code: FAILURES.invalidParameter.code, message: error.message, path: error.parameter.name }] };
    }
    throw error;
  }
  if (!validate) return { ok: true, parts: { path, query, headers, cookies, body: input.body } };

  const items: ErrorItem[] = [];
  const check = (location: Location, schema: z.ZodType | undefined, value: unknown): unknown => {
    if (!schema) return value;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    items.push(...issuesToErrors(location, result.error.issues));
    return undefined;
  };
  const parts = {
    path: check('path', op.request.path, path),
    query: check('query', op.request.query, query),
    headers: check('header', op.request.headers, headers),
    cookies: check('cookie', op.request.cookies, cookies),
    body: input.body === undefined ? input.body : check('body', input.bodySchema, input.body),
  };
  if (items.length > 0) return { ok: false, items };
  return { ok: true, parts };
}
