/**
 * Requests wrong in exactly one place, made from a valid one: a required parameter left
 * out, a parameter value its schema refuses, a body member missing, of the wrong type or
 * unknown where the body is closed, a body that is not JSON or not an object, a media type
 * the operation does not take, credentials missing or not valid. Every candidate but the
 * credential ones is put to the oracle (the generated router, which validates exactly as
 * the file says) and kept only when the oracle refuses it too: a case is never "wrong" by
 * a reading the file does not support.
 */
import type { OperationIR, ParameterIR, SchemaNode } from '../ir/types.js';
import type { BodyPart, PartValue, RequestParts } from '../mock/sample-request.js';

export interface Mutation {
  /** The one place made wrong, and how (for the report). */
  readonly description: string;
  readonly parts: RequestParts;
  /** Credentials cases are not put to the oracle: it cannot know which credentials are valid. */
  readonly kind: 'invalid' | 'credentials';
}

type Components = ReadonlyMap<string, SchemaNode>;

function resolve(node: SchemaNode | undefined, components: Components): SchemaNode | undefined {
  let current = node;
  for (let hops = 0; current?.kind === 'ref' && hops < 32; hops++) current = components.get(current.name);
  return current?.kind === 'ref' ? undefined : current;
}

const LOCATION_KEY = { path: 'path', query: 'query', header: 'header', cookie: 'cookie' } as const;

/** Texts the parameter's schema likely refuses, most telling first (the oracle decides). */
function wrongTexts(node: SchemaNode | undefined): string[] {
  const out: string[] = [];
  if (node?.kind === 'number') {
    if (node.integer) out.push('1.5');
    if (node.minimum !== undefined) out.push(String(node.minimum - 1));
    if (node.exclusiveMinimum !== undefined) out.push(String(node.exclusiveMinimum));
    if (node.maximum !== undefined) out.push(String(node.maximum + 1));
    if (node.exclusiveMaximum !== undefined) out.push(String(node.exclusiveMaximum));
    out.push('not-a-number');
  } else if (node?.kind === 'boolean') {
    out.push('not-a-boolean');
  } else if (node?.kind === 'string') {
    if (node.enum) out.push('not-one-of-the-enum');
    if (node.maxLength !== undefined) out.push('a'.repeat(node.maxLength + 1));
    if (node.minLength !== undefined && node.minLength > 0) out.push('a'.repeat(node.minLength - 1));
    if (node.patterns?.length || node.format) out.push('%7E%21%7E', '%20');
  } else if (node?.kind === 'literal') {
    out.push('not-the-constant');
  }
  return out;
}

/** Values of the right type its schema likely refuses: outside bounds, length, enum or pattern (the oracle decides). */
function outOfBounds(node: SchemaNode | undefined): unknown[] {
  const out: unknown[] = [];
  if (node?.kind === 'number') {
    if (node.minimum !== undefined) out.push(node.minimum - 1);
    if (node.exclusiveMinimum !== undefined) out.push(node.exclusiveMinimum);
    if (node.maximum !== undefined) out.push(node.maximum + 1);
    if (node.exclusiveMaximum !== undefined) out.push(node.exclusiveMaximum);
    if (node.integer) out.push(1.5);
  } else if (node?.kind === 'string') {
    if (node.enum) out.push('not-one-of-the-enum');
    if (node.maxLength !== undefined) out.push('a'.repeat(node.maxLength + 1));
    if (node.minLength !== undefined && node.minLength > 0) out.push('a'.repeat(node.minLength - 1));
    if (node.patterns?.length || node.format) out.push('~!~');
  } else if (node?.kind === 'array') {
    if (node.maxItems !== undefined) out.push(Array.from({ length: node.maxItems + 1 }, () => null));
  }
  return out;
}

/** The wrong-typed replacement for a body member's value. */
function wrongTyped(value: unknown): unknown {
  if (typeof value === 'string') return 12345;
  if (typeof value === 'number') return 'not-a-number';
  if (typeof value === 'boolean') return 'not-a-boolean';
  if (Array.isArray(value)) return 'not-an-array';
  if (value === null) return { unexpected: true };
  return 'not-an-object';
}

const UNKNOWN_MEMBER = 'codegenTestUnknownMember';

function withBody(parts: RequestParts, body: BodyPart | undefined): RequestParts {
  const { body: _old, ...rest } = parts;
  return body ? { ...rest, body } : rest;
}

function withParam(parts: RequestParts, location: Exclude<ParameterIR['in'], 'querystring'>, name: string, value: PartValue | undefined): RequestParts {
  const key = LOCATION_KEY[location];
  const values = { ...parts[key] };
  if (value === undefined) delete values[name];
  else values[name] = value;
  return { ...parts, [key]: values };
}

/**
 * Candidates wrong in one place each, in a fixed order (the same base, the same list). The
 * caller keeps the ones the oracle refuses, up to its bound.
 */
export function mutations(op: OperationIR, base: RequestParts, components: Components, options: { securityRequired: boolean; hasCredentials: boolean; accepts: (contentType: string) => boolean }): Mutation[] {
  const out: Mutation[] = [];
  if (options.securityRequired) {
    out.push({ kind: 'credentials', description: 'credentials left out', parts: { ...base, credentials: { headers: {}, query: {}, cookies: {} } } });
    if (options.hasCredentials) {
      const swap = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, v.replace(/\S+$/, 'codegen-test-invalid-credential')]));
      out.push({
        kind: 'credentials',
        description: 'credentials not valid (codegen-test-invalid-credential)',
        parts: { ...base, credentials: { headers: swap(base.credentials.headers), query: swap(base.credentials.query), cookies: swap(base.credentials.cookies) } },
      });
    }
  }

  for (const param of op.parameters) {
    // The generator refuses `querystring` parameters today (build-ir.ts), so none reaches here.
    if (param.in === 'querystring') continue;
    const values = base[LOCATION_KEY[param.in]];
    if (param.required && param.in !== 'path' && values[param.name] !== undefined) {
      out.push({ kind: 'invalid', description: `required ${param.in} parameter ${param.name} left out`, parts: withParam(base, param.in, param.name, undefined) });
    }
    for (const text of wrongTexts(resolve(param.schema, components))) {
      // An empty path segment names no resource of this operation: a router's 404 for it is right.
      if (param.in === 'path' && (text === '' || text === '%20')) continue;
      const shown = text.length > 40 ? `${text.slice(0, 20)}… (${text.length} characters)` : text;
      out.push({ kind: 'invalid', description: `${param.in} parameter ${param.name} = ${JSON.stringify(shown)}`, parts: withParam(base, param.in, param.name, { raw: param.in === 'header' ? decodeURIComponent(text) : text }) });
    }
  }

  const body = base.body;
  if (body && 'value' in body) {
    const value = body.value;
    const schema = resolve(op.requestBody?.content.find((m) => m.contentType === body.contentType)?.schema, components);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const record = value as Record<string, unknown>;
      const object = schema?.kind === 'object' ? schema : undefined;
      for (const property of object?.properties ?? []) {
        if (property.required && property.name in record) {
          const { [property.name]: _gone, ...rest } = record;
          out.push({ kind: 'invalid', description: `required body member ${property.name} left out`, parts: withBody(base, { contentType: body.contentType, value: rest }) });
        }
      }
      for (const [name, member] of Object.entries(record)) {
        out.push({ kind: 'invalid', description: `body member ${name} of the wrong type (${JSON.stringify(wrongTyped(member))})`, parts: withBody(base, { contentType: body.contentType, value: { ...record, [name]: wrongTyped(member) } }) });
      }
      for (const property of object?.properties ?? []) {
        if (!(property.name in record)) continue;
        for (const value of outOfBounds(resolve(property.schema, components))) {
          const shown = JSON.stringify(value);
          out.push({
            kind: 'invalid',
            description: `body member ${property.name} = ${shown.length > 40 ? `${shown.slice(0, 20)}… (${shown.length} characters)` : shown}`,
            parts: withBody(base, { contentType: body.contentType, value: { ...record, [property.name]: value } }),
          });
        }
      }
      out.push({ kind: 'invalid', description: `unknown body member ${UNKNOWN_MEMBER}`, parts: withBody(base, { contentType: body.contentType, value: { ...record, [UNKNOWN_MEMBER]: 1 } }) });
      // One level down: a closed object inside the body.
      for (const [name, member] of Object.entries(record)) {
        if (member !== null && typeof member === 'object' && !Array.isArray(member)) {
          out.push({
            kind: 'invalid',
            description: `unknown member ${UNKNOWN_MEMBER} in body member ${name}`,
            parts: withBody(base, { contentType: body.contentType, value: { ...record, [name]: { ...(member as object), [UNKNOWN_MEMBER]: 1 } } }),
          });
        }
      }
    }
    out.push({ kind: 'invalid', description: 'a body of the wrong type (an array)', parts: withBody(base, { contentType: body.contentType, value: [] }) });
    if (/json/i.test(body.contentType)) out.push({ kind: 'invalid', description: 'a body that is not JSON', parts: withBody(base, { contentType: body.contentType, raw: '{"unterminated' }) });
    const unsupported = 'application/x-codegen-test';
    if (!options.accepts(unsupported)) out.push({ kind: 'invalid', description: `a body of an undeclared media type (${unsupported})`, parts: withBody(base, { contentType: unsupported, raw: 'codegen test' }) });
  }
  if (body && op.requestBody?.required) out.push({ kind: 'invalid', description: 'the required body left out', parts: withBody(base, undefined) });
  return out;
}
