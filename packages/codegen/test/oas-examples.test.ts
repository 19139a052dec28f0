/**
 * ReadMe's example documents about discriminators and polymorphism (the devDependency
 * @readme/oas-examples, read from node_modules: never copied here). Each generates and
 * type-checks (`verify`), as the 3.0 file it is and as the same document read as 3.1; its
 * request bodies answer as OpenAPI says (the discriminator is a hint: oneOf stays "exactly
 * one", so the documents' open variants that overlap are refused where both match), checked
 * by hand on the documents' own cases and against ajv by the differential.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verify } from '../src/index.js';
import { DEFAULT_OPTIONS, formatCheckDisagreement, formatCounts, formatDisagreement, runDifferential } from './support/differential.js';
import { removeScratchDirs, scratchDir } from './support/generated-validators.js';
import { loadValidators, type LoadedValidators } from './helpers/generated.js';
import { explain } from './differential/known-disagreements.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

const EXAMPLES = path.dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json'));
const FILES = ['discriminators', 'polymorphism'] as const;

async function document(name: string): Promise<Json> {
  return load(await readFile(path.join(EXAMPLES, '3.0', 'yaml', `${name}.yaml`), 'utf8')) as Json;
}

/** The same document read as OpenAPI 3.1 (these files use no keyword 3.1 reads otherwise). */
function as31(doc: Json): Json {
  return { ...structuredClone(doc), openapi: '3.1.0' };
}

/**
 * The document with every JSON request body's schema also listed as a component schema
 * (`Body_<operationId>`), so that the validators and ajv can be asked about it by name.
 */
function withBodies(doc: Json): Json {
  const copy = structuredClone(doc);
  const components = copy['components'] as Json;
  const schemas = components['schemas'] as Json;
  const bodies = isObject(components['requestBodies']) ? components['requestBodies'] : {};
  for (const [route, item] of Object.entries(copy['paths'] as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      if (!isObject(operation) || !isObject(operation['requestBody'])) continue;
      let body = operation['requestBody'];
      if (typeof body['$ref'] === 'string') body = bodies[body['$ref'].split('/').pop()!] as Json;
      const schema = ((body['content'] as Json)['application/json'] as Json | undefined)?.['schema'];
      if (schema === undefined) continue;
      const id = typeof operation['operationId'] === 'string' ? operation['operationId'] : `${method}${route.replace(/[^A-Za-z0-9]+/g, '_')}`;
      schemas[`Body_${id}`] = schema;
    }
  }
  return copy;
}

afterAll(removeScratchDirs);

for (const name of FILES) {
  for (const version of ['3.0', '3.1'] as const) {
    describe(`@readme/oas-examples ${name} (${version})`, () => {
      let doc: Json;
      beforeAll(async () => {
        const original = await document(name);
        doc = version === '3.1' ? as31(original) : original;
      });

      it('generates and type-checks (verify)', { timeout: 120_000 }, async () => {
        const file = path.join(await scratchDir('oas-examples'), `${name}.json`);
        await writeFile(file, JSON.stringify(doc));
        const report = await verify({ spec: file });
        expect(report.diagnostics.filter((d) => d.severity === 'error')).toStrictEqual([]);
        expect(report.typeErrors).toStrictEqual([]);
        expect(report.exampleFailures).toStrictEqual([]);
        expect(report.ok).toBe(true);
      });

      it('agrees with ajv (plain oneOf/anyOf) on every schema and request body', { timeout: 120_000 }, async () => {
        const file = path.join(await scratchDir('oas-examples'), `${name}.json`);
        await writeFile(file, JSON.stringify(withBodies(doc)));
        const report = await runDifferential(file, DEFAULT_OPTIONS);
        console.log(formatCounts(`oas-examples ${name} ${version}`, report));
        expect(report.skipped).toStrictEqual([]);
        // The documents' oneOfs of open variants overlap: the instance generator, which builds a
        // value from one variant, makes values that match two. Both validators must refuse those.
        expect(report.generatorRejects.filter((d) => d.zod).map(formatDisagreement)).toStrictEqual([]);
        expect(report.disagreements.filter((d) => explain(d).length === 0).map(formatDisagreement)).toStrictEqual([]);
        expect(report.checkDisagreements.map(formatCheckDisagreement)).toStrictEqual([]);
        expect(report.checked.schemas).toBeGreaterThan(0);
      });
    });
  }
}

describe('@readme/oas-examples: the documents\' own cases', () => {
  const validators: Record<string, LoadedValidators> = {};
  beforeAll(async () => {
    for (const name of FILES) {
      for (const version of ['3.0', '3.1']) {
        const original = await document(name);
        validators[`${name} ${version}`] = await loadValidators(withBodies(version === '3.1' ? as31(original) : original));
      }
    }
  }, 120_000);

  const answer = (file: (typeof FILES)[number], schema: string, value: unknown, expected: boolean) => {
    for (const version of ['3.0', '3.1']) {
      const v = validators[`${file} ${version}`]!;
      expect(v.schemas[schema]!.safeParse(value).success, `${file} ${version} ${schema}: ${JSON.stringify(value)}`).toBe(expected);
      const check = (v['checks'] as Record<string, ((value: unknown) => boolean) | undefined>)[schema];
      if (check) expect(check(value), `check of ${schema} (${file} ${version}): ${JSON.stringify(value)}`).toBe(expected);
    }
  };

  it('discriminator with and without mapping: exactly one of the open options, whatever the tag says', () => {
    for (const body of ['Body_oneOfWithTopLevelDiscriminatorAndMapping', 'Body_oneOfWithTopLevelDiscriminatorNoMapping', 'Body_patch_mapping_of_schema_names']) {
      // Only Option One fits (optiontwo must be a string).
      answer('discriminators', body, { discrim: 'Option One', optionone: 1, optiontwo: 2 }, true);
      // The tag names Option One, but Option Two fits alone: valid.
      answer('discriminators', body, { discrim: 'Option One', optionone: 'x' }, true);
      // Both open options match: oneOf refuses it, though the tag names one of them.
      answer('discriminators', body, { discrim: 'Option One', optionone: 1 }, false);
      // Both require the tag.
      answer('discriminators', body, { optionone: 1, optiontwo: 2 }, false);
    }
  });

  it('a discriminator whose property is a level up, or on a base schema, changes nothing', () => {
    // connector_properties: oneOf of two open objects without required members: both match.
    answer('discriminators', 'Body_oneOfWithImproperlyPlacedDiscriminator', { connector_type: 's3Import', connector_properties: { s3_bucket: 'b' } }, false);
    answer('discriminators', 'Body_oneOfWithImproperlyPlacedDiscriminator', { connector_type: 's3Import', connector_properties: { s3_bucket: 'b', gcs_bucket: 1 } }, true);
    // BaseVehicle (Redocly's discriminator without oneOf) is the object it declares.
    answer('discriminators', 'Body_redoclyQuirk', { vehicle: { powerSource: 'electricity', chargeSpeed: 'not checked' } }, true);
    answer('discriminators', 'Body_redoclyQuirk', { vehicle: { topSpeed: 'fast' } }, false);
  });

  it('identical variants never satisfy oneOf (the formData quirk), discriminator or not', () => {
    const event = { event_type: 'application_approved', event_id: 'e', buyer_id: 'b' };
    answer('discriminators', 'Body_post_potentially_undefined_formData', event, false);
    answer('discriminators', 'ApplicationApprovedEvent', event, true);
  });

  it('pets: a discriminator on the base schema, variants extending it with allOf', () => {
    for (const file of FILES) {
      const body = file === 'polymorphism' ? 'Body_patch_pets' : 'Body_patch_embedded_discriminator';
      // A cat that barks wrongly fits Cat alone.
      answer(file, body, { pet_type: 'Cat', hunts: true, bark: 'no' }, true);
      // Both open variants match a plain cat: refused by oneOf.
      answer(file, body, { pet_type: 'Cat', hunts: true }, false);
      answer(file, body, { hunts: true }, false);
      answer(file, 'Pet', { pet_type: 'Dog', anything: 1 }, true);
    }
  });
});
