import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAjvOracle, type AjvOracle } from '../support/ajv-oracle.js';
import { loadGeneratedValidators, removeScratchDirs, scratchDir, type ParseableSchema } from '../support/generated-validators.js';
import { KNOWN_DISAGREEMENTS } from './known-disagreements.js';

// Each documented disagreement must still reproduce exactly as documented: the wrong side
// says the opposite of `expected`, the other side says `expected`. When the generator is
// fixed, its entry fails here and must be removed from the allow-list.

const componentName = (id: string): string => id.replace(/[^A-Za-z0-9]/g, '_');

describe('known disagreements still reproduce', () => {
  const byVersion = new Map<string, { schemas: Record<string, ParseableSchema>; oracle: AjvOracle }>();

  beforeAll(async () => {
    for (const openapi of ['3.0.3', '3.1.0']) {
      const entries = KNOWN_DISAGREEMENTS.filter((k) => (k.reproduction.openapi ?? '3.0.3') === openapi);
      if (entries.length === 0) continue;
      const document = {
        openapi,
        info: { title: 'Known disagreements', version: '1' },
        paths: {},
        components: { schemas: Object.fromEntries(entries.map((k) => [componentName(k.id), k.reproduction.schema])) },
      };
      const dir = await scratchDir('known');
      const file = path.join(dir, 'spec.json');
      await writeFile(file, JSON.stringify(document, null, 2));
      byVersion.set(openapi, { schemas: (await loadGeneratedValidators(file)).schemas, oracle: buildAjvOracle(document) });
    }
  }, 60_000);
  afterAll(removeScratchDirs);

  it('lists each disagreement once, with a reason', () => {
    const ids = KNOWN_DISAGREEMENTS.map((k) => k.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const k of KNOWN_DISAGREEMENTS) expect(k.reason.length).toBeGreaterThan(40);
  });

  for (const known of KNOWN_DISAGREEMENTS) {
    it(`${known.id} (${known.wrong} is wrong)`, () => {
      const name = componentName(known.id);
      const { instance, expected } = known.reproduction;
      const { schemas, oracle } = byVersion.get(known.reproduction.openapi ?? '3.0.3')!;
      const expectedValid = expected === 'valid';
      const zod = schemas[name]!.safeParse(instance).success;
      const ajv = oracle.validate(name, instance);
      // The generator departs from JSON Schema when it is wrong, or on purpose.
      const generatorDeparts = known.wrong === 'generator' || known.wrong === 'deliberate-reading';
      const right = generatorDeparts ? ajv : zod;
      const wrong = generatorDeparts ? zod : ajv;
      expect({ right, wrong }).toStrictEqual({ right: expectedValid, wrong: !expectedValid });
    });
  }
});
