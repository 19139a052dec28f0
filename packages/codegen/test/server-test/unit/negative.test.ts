/** Requests wrong in exactly one place, made from a valid one. */
import { describe, expect, it } from 'vitest';
import type { SchemaNode } from '../../../src/ir/types.js';
import type { BodyPart, PartValue, RequestParts } from '../../../src/mock/sample-request.js';
import { mutations, type Mutation } from '../../../src/server-test/negative.js';
import { int, obj, operation, param, parts, prop, snapshot, str } from './fixtures.js';

const components = new Map<string, SchemaNode>([['NewItem', obj([prop('name', str({ minLength: 1 }), true), prop('count', int({ minimum: 0 }), true), prop('tags', { kind: 'array', items: str(), pointer: '#/t' })])]]);

const op = operation({
  operationId: 'createItem',
  method: 'post',
  path: '/shelves/{shelf}/items',
  parameters: [param('shelf', 'path', str({ patterns: ['^[a-z]+$'], minLength: 1 })), param('limit', 'query', int({ minimum: 1, maximum: 100 }), true)],
  requestBody: { required: true, content: [{ contentType: 'application/json', examples: [], schema: { kind: 'ref', name: 'NewItem', pointer: '#/r' } }] },
});

const base: RequestParts = parts({
  path: { shelf: { value: 'top' } },
  query: { limit: { value: 10 } },
  credentials: { headers: { authorization: 'Bearer good-token' }, query: { api_key: 'k-1' }, cookies: {} },
  body: { contentType: 'application/json', value: { name: 'widget', count: 2 } },
});

const plain = { securityRequired: false, hasCredentials: true, accepts: (type: string) => type === 'application/json' };

const descriptions = (list: readonly Mutation[]) => list.map((m) => m.description);

const partText = (part: PartValue | undefined): string | undefined => (part === undefined ? undefined : 'raw' in part ? `raw:${part.raw}` : `value:${JSON.stringify(part.value)}`);

function bodyPlaces(before: BodyPart | undefined, after: BodyPart | undefined): string[] {
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  if (before && after && 'value' in before && 'value' in after && before.contentType === after.contentType) {
    const a = before.value;
    const b = after.value;
    if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
      const x = a as Record<string, unknown>;
      const y = b as Record<string, unknown>;
      return [...new Set([...Object.keys(x), ...Object.keys(y)])].filter((k) => JSON.stringify(x[k]) !== JSON.stringify(y[k])).map((k) => `body/${k}`);
    }
  }
  return ['body'];
}

/** The places in which `after` differs from `before`: a parameter, the credentials, a body member or the body. */
function placesChanged(before: RequestParts, after: RequestParts): string[] {
  const out: string[] = [];
  for (const location of ['path', 'query', 'header', 'cookie'] as const) {
    for (const name of new Set([...Object.keys(before[location]), ...Object.keys(after[location])])) {
      if (partText(before[location][name]) !== partText(after[location][name])) out.push(`${location}.${name}`);
    }
  }
  if (JSON.stringify(before.credentials) !== JSON.stringify(after.credentials)) out.push('credentials');
  if (JSON.stringify(before.extraHeaders) !== JSON.stringify(after.extraHeaders)) out.push('extraHeaders');
  out.push(...bodyPlaces(before.body, after.body));
  return out;
}

describe('mutations', () => {
  const list = mutations(op, base, components, plain);

  it('lists the expected cases, in order', () => {
    expect(descriptions(list)).toEqual([
      'path parameter shelf = "%7E%21%7E"',
      'required query parameter limit left out',
      'query parameter limit = "1.5"',
      'query parameter limit = "0"',
      'query parameter limit = "101"',
      'query parameter limit = "not-a-number"',
      'required body member name left out',
      'required body member count left out',
      'body member name of the wrong type (12345)',
      'body member count of the wrong type ("not-a-number")',
      'body member name = ""',
      'body member count = -1',
      'body member count = 1.5',
      'unknown body member codegenTestUnknownMember',
      'a body of the wrong type (an array)',
      'a body that is not JSON',
      'a body of an undeclared media type (application/x-codegen-test)',
      'the required body left out',
    ]);
    expect(list.every((m) => m.kind === 'invalid')).toBe(true);
  });

  it('changes each request in exactly one place', () => {
    const expected: Record<string, string> = {
      'path parameter shelf = "%7E%21%7E"': 'path.shelf',
      'required query parameter limit left out': 'query.limit',
      'query parameter limit = "1.5"': 'query.limit',
      'required body member name left out': 'body/name',
      'required body member count left out': 'body/count',
      'body member name of the wrong type (12345)': 'body/name',
      'body member name = ""': 'body/name',
      'body member count = -1': 'body/count',
      'unknown body member codegenTestUnknownMember': 'body/codegenTestUnknownMember',
      'a body of the wrong type (an array)': 'body',
      'a body that is not JSON': 'body',
      'a body of an undeclared media type (application/x-codegen-test)': 'body',
      'the required body left out': 'body',
    };
    for (const mutation of list) {
      const changed = placesChanged(base, mutation.parts);
      expect(changed, mutation.description).toHaveLength(1);
      const place = expected[mutation.description];
      if (place !== undefined) expect(changed[0], mutation.description).toBe(place);
    }
  });

  it('makes the wrong values as described', () => {
    const find = (description: string) => list.find((m) => m.description === description)!.parts;
    expect(find('query parameter limit = "1.5"').query['limit']).toEqual({ raw: '1.5' });
    expect(find('path parameter shelf = "%7E%21%7E"').path['shelf']).toEqual({ raw: '%7E%21%7E' });
    expect(find('required query parameter limit left out').query).toEqual({});
    expect(find('body member count of the wrong type ("not-a-number")').body).toEqual({ contentType: 'application/json', value: { name: 'widget', count: 'not-a-number' } });
    expect(find('a body of the wrong type (an array)').body).toEqual({ contentType: 'application/json', value: [] });
    expect(find('a body that is not JSON').body).toEqual({ contentType: 'application/json', raw: '{"unterminated' });
    expect(find('a body of an undeclared media type (application/x-codegen-test)').body).toEqual({ contentType: 'application/x-codegen-test', raw: 'codegen test' });
    expect('body' in find('the required body left out')).toBe(false);
  });

  it('never makes a path segment empty or blank', () => {
    for (const mutation of list) {
      for (const value of Object.values(mutation.parts.path)) {
        const text = 'raw' in value ? decodeURIComponent(value.raw) : String(value.value);
        expect(text.trim(), mutation.description).not.toBe('');
      }
    }
    // The same schema on a query parameter does give the empty and the blank texts.
    const queried = operation({ operationId: 'q', parameters: [param('shelf', 'query', str({ patterns: ['^[a-z]+$'], minLength: 1 }), true)] });
    const texts = mutations(queried, parts({ query: { shelf: { value: 'top' } } }), components, plain).map((m) => partText(m.parts.query['shelf']));
    expect(texts).toEqual([undefined, 'raw:', 'raw:%7E%21%7E', 'raw:%20']);
  });

  it('leaves the base request as it was', () => {
    const before = snapshot(base);
    mutations(op, base, components, { securityRequired: true, hasCredentials: true, accepts: () => false });
    expect(snapshot(base)).toEqual(before);
  });

  it('leaves out the media type case where the operation takes any media type, and the body case where the body is optional', () => {
    const optional = { ...op, requestBody: { ...op.requestBody!, required: false } };
    const names = descriptions(mutations(optional, base, components, { ...plain, accepts: () => true }));
    expect(names).not.toContain('the required body left out');
    expect(names.some((n) => n.startsWith('a body of an undeclared media type'))).toBe(false);
    expect(names).toContain('a body that is not JSON');
  });

  it('adds an unknown member inside a nested object', () => {
    const nested = parts({ ...base, body: { contentType: 'application/json', value: { name: 'w', count: 1, meta: { colour: 'red' } } } });
    const found = mutations(op, nested, components, plain).find((m) => m.description === 'unknown member codegenTestUnknownMember in body member meta');
    expect(found?.parts.body).toEqual({ contentType: 'application/json', value: { name: 'w', count: 1, meta: { colour: 'red', codegenTestUnknownMember: 1 } } });
  });

  describe('credentials', () => {
    it('has no credential cases when the operation needs none', () => {
      expect(list.some((m) => m.kind === 'credentials')).toBe(false);
    });

    it('leaves the credentials out first when the operation needs them', () => {
      const withSecurity = mutations(op, base, components, { ...plain, securityRequired: true, hasCredentials: false });
      expect(withSecurity[0]).toMatchObject({ kind: 'credentials', description: 'credentials left out' });
      expect(withSecurity[0]!.parts.credentials).toEqual({ headers: {}, query: {}, cookies: {} });
      expect(withSecurity.filter((m) => m.kind === 'credentials')).toHaveLength(1);
      expect(descriptions(withSecurity.slice(1))).toEqual(descriptions(list));
    });

    it('sends credentials that are not valid only where valid ones are known', () => {
      const withSecurity = mutations(op, base, components, { ...plain, securityRequired: true, hasCredentials: true });
      const [leftOut, invalid] = withSecurity;
      expect(leftOut!.description).toBe('credentials left out');
      expect(invalid).toMatchObject({ kind: 'credentials', description: 'credentials not valid (codegen-test-invalid-credential)' });
      expect(invalid!.parts.credentials).toEqual({ headers: { authorization: 'Bearer codegen-test-invalid-credential' }, query: { api_key: 'codegen-test-invalid-credential' }, cookies: {} });
      expect(placesChanged(base, invalid!.parts)).toEqual(['credentials']);
      expect(placesChanged(base, leftOut!.parts)).toEqual(['credentials']);
      expect(withSecurity.filter((m) => m.kind === 'credentials')).toHaveLength(2);
    });
  });
});
