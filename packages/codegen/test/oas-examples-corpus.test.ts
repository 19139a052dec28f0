/**
 * Every OpenAPI 3.0 and 3.1 JSON document of ReadMe's example collection (the pinned
 * devDependency @readme/oas-examples, read from node_modules, never copied here) generates
 * every target, type-checks strictly and passes `verify`. The only failures allowed are
 * examples that are wrong in the publisher's file, each listed below with the reason.
 * All documents share one TypeScript program (`verifyAll`), which keeps the run short.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyAll, type VerifyReport } from '../src/index.js';
import { TARGETS } from '../src/generate.js';

const EXAMPLES = path.dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json'));
const VERSIONS = ['3.0', '3.1'] as const;

/** The documents, as `<version>/<file>` (their folders also hold sub-folders: only files count). */
const DOCUMENTS = VERSIONS.flatMap((version) =>
  readdirSync(path.join(EXAMPLES, version, 'json'), { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => `${version}/${entry.name}`)
    .sort(),
);

const PRIMITIVE = '#/paths/~1requestBody-primitive-example';
const JSON_BODY = 'content/application~1json/examples';
const JSON_TEXT = 'the value is a string holding JSON text, not the JSON value the schema describes';

/** Examples the publisher wrote wrong: document, pointer, and why. Nothing else may fail. */
const PUBLISHER_MISTAKES: ReadonlyArray<{ document: string; pointer: string; why: string }> = [
  ...['put', 'patch'].flatMap((method) =>
    ['requestBody', 'responses/200'].flatMap((where) =>
      ['cat', 'dog'].map((name) => ({
        document: '3.0/request-examples.json',
        pointer: `${PRIMITIVE}/${method}/${where}/${JSON_BODY}/${name}/value`,
        why: `${JSON_TEXT} (${method === 'put' ? 'an array of pets' : 'a pet object'})`,
      })),
    ),
  ),
  {
    document: '3.0/schema-circular.json',
    pointer: '#/components/schemas/FormDataBodyPart/example',
    why: 'a curl form argument ("file=@2018-report.pdf") given as the example of an object schema',
  },
  ...['Trip/properties/id', 'Booking/properties/id', 'Booking/properties/trip_id'].map((member) => ({
    document: '3.1/train-travel.json',
    pointer: `#/components/schemas/${member}/examples/0`,
    why: '"4f4e4e1-c824-..." has 7 hex digits in its first group: not a UUID, which format: uuid requires',
  })),
  {
    document: '3.1/train-travel.json',
    pointer: '#/paths/~1bookings~1{bookingId}~1payment/post/responses/200/content/application~1json/examples/Card/value',
    why: 'a response example carrying the card "cvc", which the schema marks writeOnly (never in a response)',
  },
];

describe('@readme/oas-examples: every 3.0 and 3.1 JSON document', () => {
  const reports = new Map<string, VerifyReport>();

  beforeAll(async () => {
    const list = DOCUMENTS.map((document) => ({ spec: path.join(EXAMPLES, document.split('/')[0]!, 'json', document.split('/')[1]!) }));
    const all = await verifyAll(list);
    all.forEach((report, i) => reports.set(DOCUMENTS[i]!, report));
  }, 600_000);

  it('finds the whole collection', () => {
    // 41 documents of 3.0 and 12 of 3.1 in the pinned version.
    expect(DOCUMENTS.filter((d) => d.startsWith('3.0/'))).toHaveLength(41);
    expect(DOCUMENTS.filter((d) => d.startsWith('3.1/'))).toHaveLength(12);
  });

  for (const document of DOCUMENTS) {
    it(`${document}: every target generates, type-checks strictly, and its examples validate`, () => {
      const report = reports.get(document)!;
      expect(report.targets).toStrictEqual(expect.arrayContaining([...TARGETS]));
      expect(report.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
      expect(report.typeErrors).toStrictEqual([]);
      const expected = PUBLISHER_MISTAKES.filter((m) => m.document === document).map((m) => m.pointer).sort();
      expect(report.exampleFailures.map((f) => f.pointer).sort()).toStrictEqual(expected);
      expect(report.ok).toBe(expected.length === 0);
    });
  }

  it('names each listed mistake by a warning at generation too, where the mismatch is sure without formats', () => {
    const warned = (document: string) => new Set(reports.get(document)!.diagnostics.filter((d) => d.code === 'example-mismatch').map((d) => d.pointer));
    for (const mistake of PUBLISHER_MISTAKES.filter((m) => m.document !== '3.1/train-travel.json')) {
      expect(warned(mistake.document), `${mistake.document} ${mistake.pointer}`).toContain(mistake.pointer);
    }
  });
});
