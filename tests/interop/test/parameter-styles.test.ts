/**
 * Every parameter style of the public parameters-style example (OpenAPI 3.0, and its 3.1
 * copy): each operation is called through the generated client with values fast-check draws
 * from the parameter's schema, and the server's handler must receive exactly those values.
 *
 * The values are drawn from what each form can carry. Where OpenAPI's forms are ambiguous the
 * generator below stays inside what the client accepts, and the client refuses the rest with
 * an error naming the parameter (asserted at the end):
 * - headers are not percent-encoded: a header's array items and object members cannot hold
 *   the `,` delimiter, and no header text can hold control characters, characters beyond
 *   Latin-1, or whitespace at either end (HTTP drops it). The generator draws visible ASCII.
 * - `spaceDelimited` items cannot hold a space: the encoded space is the delimiter itself.
 * - exploded `label` items and members cannot hold `.`, the delimiter: `%2E` is the same
 *   character to URLs (RFC 3986 normalization decodes it), so encoding it does not help.
 * - URLs remove the dot segments `.` and `..`, so no path segment can be one.
 * - empty arrays and objects are sent as nothing (RFC 6570 treats them as undefined), so they
 *   arrive as absent: the generator draws at least one item or member.
 * - members of a form-exploded object (query or cookie) are query names (cookies) of their
 *   own: the server gives the object every name no other parameter declares. A member named
 *   like another parameter would be read as that parameter; this file's members (`name`,
 *   `description`) collide with none.
 * - a path segment cannot be empty: path strings have at least one character.
 * Everything else, commas, `;`, `=`, `.`, `|`, `&`, `#`, `+`, `%`, spaces and unicode in items
 * and members, travels percent-encoded and arrives as sent.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWith, clientOf, generateApi, listen, oasExample, routerFactory, type Running } from './support/harness.js';

interface ParameterDoc {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  style?: string;
  explode?: boolean;
  required?: boolean;
  schema: { type: string; properties?: Record<string, unknown> };
}

interface OperationDoc {
  operationId: string;
  parameters: ParameterDoc[];
  /** The 3.1 copy declares no responses: what the router answers then is not this test's matter. */
  declaresResponses: boolean;
}

interface Received {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  cookies: Record<string, unknown>;
}

type Method = ((params: object) => Promise<{ status: number }>) & { operation: { operationId: string } };

const GROUP = { path: 'path', query: 'query', header: 'headers', cookie: 'cookies' } as const;

/** The operations of the file that take parameters (its form-data operations take bodies). */
function operationsOf(file: string): OperationDoc[] {
  const doc = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, { operationId: string; parameters?: ParameterDoc[]; responses?: object }>> };
  return Object.values(doc.paths)
    .flatMap((item) => Object.values(item))
    .filter((op) => (op.parameters ?? []).length > 0)
    .map((op) => ({ operationId: op.operationId, parameters: op.parameters!, declaresResponses: op.responses !== undefined }));
}

/** Characters that are delimiters somewhere, or need encoding, mixed with ordinary and unicode text. */
const tricky = fc.constantFrom(',', ';', '=', '.', '|', '&', '#', '+', '%', '%20', '?', '/', '[', ']', ' ', '"', "'", 'é', '中', '😀', '\u00a0');
const anyText = (minLength: number) => fc.string({ unit: fc.oneof(tricky, fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), minLength, maxLength: 8 });

/** Visible ASCII without the header delimiter; `inner` allows spaces between visible characters. */
const headerText = (withComma: boolean) =>
  fc
    .string({ unit: fc.constantFrom(...'abcXYZ019-_.:;=/?!@#$%&*()[]{}"\'~^`'.split(''), ' ', ...(withComma ? [','] : [])), minLength: 1, maxLength: 8 })
    .filter((s) => s.trim() === s);

function textFor(p: ParameterDoc, inItem: boolean): fc.Arbitrary<string> {
  if (p.in === 'header') return headerText(!inItem);
  if (inItem && p.style === 'spaceDelimited') return anyText(0).filter((s) => !s.includes(' '));
  if (inItem && p.style === 'label' && p.explode) return anyText(0).filter((s) => !s.includes('.'));
  // URLs drop the dot segments `.` and `..`: no path segment can be one (`.` in style label).
  if (p.in === 'path') return anyText(1).filter((s) => s !== '.' && s !== '..' && !(p.style === 'label' && s === '.'));
  return anyText(0);
}

function valueFor(p: ParameterDoc): fc.Arbitrary<unknown> {
  if (p.schema.type === 'array') {
    // No path segment may come out as `.` or `..` (one item `.`; in style label, empty items).
    const segment = (a: string[]) => (p.style === 'label' ? `.${a.join(p.explode ? '.' : ',')}` : a.join(','));
    return fc.array(textFor(p, true), { minLength: 1, maxLength: 4 }).filter((a) => p.in !== 'path' || !['.', '..'].includes(segment(a)));
  }
  if (p.schema.type === 'object') {
    const members = Object.fromEntries(Object.keys(p.schema.properties ?? {}).map((name) => [name, textFor(p, true)]));
    return fc.record(members, { requiredKeys: [] }).filter((o) => Object.keys(o).length > 0);
  }
  return textFor(p, false);
}

/** Parameters grouped as the client takes them; optional ones are sometimes left out. */
function paramsFor(op: OperationDoc): fc.Arbitrary<Record<string, Record<string, unknown>>> {
  const entries = op.parameters.map((p) => {
    const value = valueFor(p);
    return (p.required || p.in === 'path' ? value : fc.option(value, { nil: undefined })).map((v) => [p, v] as const);
  });
  return fc.tuple(...entries).map((pairs) => {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [p, v] of pairs) if (v !== undefined) (out[GROUP[p.in]] ??= {})[p.name] = v;
    return out;
  });
}

/** What the handler must have received: the sent values, headers by lower-case name. */
function receivedPart(received: Received, p: ParameterDoc): unknown {
  return received[GROUP[p.in]][p.in === 'header' ? p.name.toLowerCase() : p.name];
}

for (const version of ['3.0', '3.1'] as const) {
  describe(`parameters-style (${version}): every style round-trips client to server`, () => {
    const file = oasExample(version, 'parameters-style');
    const operations = operationsOf(file);
    let running: Running;
    let methods: Map<string, Method>;
    let received: Received | undefined;

    beforeAll(async () => {
      const api = await generateApi(file, `parameters-style-${version}`);
      const capture = (request: Received) => {
        received = { path: request.path, query: request.query, headers: request.headers, cookies: request.cookies };
        return { status: 200 };
      };
      const handlers = Object.fromEntries(operations.map((op) => [op.operationId, capture]));
      running = await listen(appWith(routerFactory(api)(handlers, { onError: () => undefined, onMissingHandlers: () => undefined })));
      const client = clientOf<Method>(api, { baseUrl: running.origin });
      methods = new Map(Object.values(client).filter((m) => typeof m === 'function' && m.operation).map((m) => [m.operation.operationId, m]));
    });
    afterAll(() => running?.close());

    it('covers the file: 19 operations with parameters, each with a client method', () => {
      expect(operations).toHaveLength(19);
      for (const op of operations) expect(methods.has(op.operationId), op.operationId).toBe(true);
    });

    for (const op of operations) {
      it(`${op.operationId}: the handler receives exactly what the client sent`, async () => {
        await fc.assert(
          fc.asyncProperty(paramsFor(op), async (params) => {
            received = undefined;
            const status = await methods.get(op.operationId)!(params).then(
              (result) => result.status,
              (error: { status?: number }) => error.status,
            );
            if (op.declaresResponses) expect(status).toBe(200);
            expect(received, `answered ${status}`).toBeDefined();
            for (const p of op.parameters) expect(receivedPart(received!, p), `${p.in} ${p.name}`).toEqual(params[GROUP[p.in]]?.[p.name]);
            // Nothing else arrives in the query or the cookies (an exploded object's members are its own).
            expect(Object.keys(received!.query).sort()).toEqual(Object.keys(params['query'] ?? {}).sort());
            expect(Object.keys(received!.cookies).sort()).toEqual(Object.keys(params['cookies'] ?? {}).sort());
          }),
          { numRuns: 60, seed: 18 },
        );
      });
    }
  });
}
