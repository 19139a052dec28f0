/**
 * Disagreements already investigated, each with the side that is wrong and a minimal
 * reproduction. The differential tests fail on any disagreement no entry explains; the
 * reproductions are re-checked by known-disagreements.test.ts, which fails as soon as one
 * no longer reproduces (then the entry must go: for `generator` entries, that means the
 * generator was fixed).
 *
 * Entries whose `wrong` side is `generator` are bugs to fix in packages/codegen/src; the list
 * is meant to be emptied. Entries whose `wrong` side is `ajv-formats` document where the
 * independent validator is lenient or strict against the RFCs, and stay; `ajv` entries, where
 * ajv departs from JSON Schema itself (checked against the official test suite's verdict).
 */
import type { Disagreement } from '../support/differential.js';

export interface Reproduction {
  /** OpenAPI version of the document the schema sits in (default 3.0.3). */
  openapi?: '3.0.3' | '3.1.0';
  /** A component schema, as it would be written in such a file. */
  schema: Record<string, unknown>;
  instance: unknown;
  /** What JSON Schema (with OpenAPI 3.0 and the generator's allOf reading) says. */
  expected: 'valid' | 'invalid';
}

export interface KnownDisagreement {
  id: string;
  /**
   * The side that departs from JSON Schema / the RFCs; the other side is right.
   * `deliberate-reading`: the generator departs on purpose, and the README says so.
   */
  wrong: 'generator' | 'ajv' | 'ajv-formats' | 'deliberate-reading';
  reason: string;
  reproduction: Reproduction;
  matches(d: Disagreement): boolean;
}

const kind = (k: string, ajv: boolean) => (d: Disagreement) => d.kind === k && d.ajv === ajv && d.zod === !ajv;

export const KNOWN_DISAGREEMENTS: KnownDisagreement[] = [
  {
    id: 'ajv-formats-date-time-offset-without-colon',
    wrong: 'ajv-formats',
    reason:
      'RFC 3339 §5.6: time-numoffset = ("+" / "-") time-hour ":" time-minute. ajv-formats makes the colon optional ' +
      '(`(?::?(\\d\\d))?`), so it accepts "+0400". The generated validator rejects it, as JSON Schema (format per the RFC 3339 ABNF) requires.',
    reproduction: { schema: { type: 'string', format: 'date-time' }, instance: '2024-01-31T10:00:00+0400', expected: 'invalid' },
    matches: kind('date-time:offset without colon', true),
  },
  {
    id: 'ajv-formats-date-time-offset-hours-only',
    wrong: 'ajv-formats',
    reason: 'RFC 3339 §5.6 requires the minutes of a numeric offset; ajv-formats accepts "+04".',
    reproduction: { schema: { type: 'string', format: 'date-time' }, instance: '2024-01-31T10:00:00+04', expected: 'invalid' },
    matches: kind('date-time:offset hours only', true),
  },
  {
    id: 'ajv-formats-date-time-space-separator',
    wrong: 'ajv-formats',
    reason:
      'RFC 3339 §5.6: date-time = full-date "T" full-time ("t" also allowed, §5.6 note on case). The note about a space is ' +
      'an option for applications by agreement, not the ABNF that JSON Schema\'s "date-time" format names; ajv-formats splits on any whitespace.',
    reproduction: { schema: { type: 'string', format: 'date-time' }, instance: '2024-01-31 10:00:00Z', expected: 'invalid' },
    matches: kind('date-time:space separator', true),
  },
  {
    id: 'ajv-formats-uri-empty-path',
    wrong: 'ajv-formats',
    reason:
      'RFC 3986 §3: URI = scheme ":" hier-part, and hier-part may be path-empty, so "urn:" is a URI. ajv-formats\' full "uri" ' +
      'pattern requires at least one character after the scheme. The generated validator accepts it, which is right.',
    reproduction: { schema: { type: 'string', format: 'uri' }, instance: 'urn:', expected: 'valid' },
    matches: kind('uri:scheme only (valid)', false),
  },
  {
    id: 'ajv-formats-email-quoted-local-part',
    wrong: 'ajv-formats',
    reason:
      'RFC 5321 §4.1.2: Local-part = Dot-string / Quoted-string, so "some one"@example.com is an address (JSON Schema\'s "email" ' +
      'names RFC 5321 §4.1.2). ajv-formats\' pattern allows dot-atoms only.',
    reproduction: { schema: { type: 'string', format: 'email' }, instance: '"some one"@example.com', expected: 'valid' },
    matches: kind('email:quoted local part (valid)', false),
  },
  {
    id: 'ajv-formats-email-address-literal',
    wrong: 'ajv-formats',
    reason: 'RFC 5321 §4.1.2: the domain may be an address-literal, "[" IPv4 "]" or "[IPv6:...]". ajv-formats accepts domain names only.',
    reproduction: { schema: { type: 'string', format: 'email' }, instance: 'someone@[192.168.0.1]', expected: 'valid' },
    matches: kind('email:IP literal domain (valid)', false),
  },
  {
    id: 'ajv-formats-uuid-urn-prefix',
    wrong: 'ajv-formats',
    reason:
      'JSON Schema\'s "uuid" format is the UUID of RFC 4122 §3 (the hex-and-hyphens string), not its URN form. ajv-formats also ' +
      'accepts a leading "urn:uuid:".',
    reproduction: { schema: { type: 'string', format: 'uuid' }, instance: 'urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380', expected: 'invalid' },
    matches: kind('uuid:urn prefix', true),
  },
  {
    id: 'deliberate-typeless-schema-read-by-its-keywords',
    wrong: 'deliberate-reading',
    reason:
      'A schema without "type" accepts values of every type; "properties", "required" and "additionalProperties" only constrain ' +
      'objects (JSON Schema validation §6, OpenAPI 3.0 §4.7.24). schema-to-ir.ts inferTypes() reads such a schema as an object ' +
      '(likewise pattern/minLength as a string, minimum as a number), so the validator rejects null, strings, numbers, booleans ' +
      'and arrays that the schema allows. Seen on the official "Links" schema (no type, required: [Self], additionalProperties: false). ' +
      'Kept on purpose: nobody means "Links may be a string". The README documents it beside the allOf reading, and the ' +
      'generator reports each such schema as a "type-inferred" warning naming its pointer.',
    reproduction: {
      schema: { required: ['id'], properties: { id: { type: 'string' } }, additionalProperties: false },
      instance: 'not an object',
      expected: 'valid',
    },
    // Only under the lenient reading (3.0 by default): read exactly (3.1), such a disagreement is a bug.
    matches: (d) => d.reading === 'lenient' && d.kind.endsWith('(no type keyword: valid in JSON Schema)') && d.ajv && !d.zod,
  },
  {
    id: 'ajv-if-without-then-else-ignored',
    wrong: 'ajv',
    reason:
      'JSON Schema 2020-12 §10.2.2.1: "if" is evaluated, and its annotations collected, whether or not "then" and "else" are ' +
      'present; so unevaluatedProperties sees the members a passing "if" evaluated (the official suite\'s unevaluatedProperties.json, ' +
      '"unevaluatedProperties can see annotations from if without then and else", says valid). ajv ignores "if" without "then" ' +
      'and "else" altogether, so it rejects those members. Seen on ClosedBareIf of json-schema-keywords.differential.test.ts.',
    reproduction: {
      openapi: '3.1.0',
      schema: { type: 'object', if: { properties: { x: { const: 1 } }, required: ['x'] }, unevaluatedProperties: false },
      instance: { x: 1 },
      expected: 'valid',
    },
    matches: (d) => d.schema === 'ClosedBareIf' && d.reading === 'exact' && !d.ajv && d.zod && d.ajvErrors.includes('must NOT have unevaluated properties'),
  },
];

/** The entries that explain a disagreement (normally zero or one). */
export function explain(d: Disagreement): KnownDisagreement[] {
  return KNOWN_DISAGREEMENTS.filter((k) => k.matches(d));
}
