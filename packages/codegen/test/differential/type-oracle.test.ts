import { afterAll, describe, expect, it } from 'vitest';
import { removeScratchDirs } from '../support/generated-validators.js';
import {
  OFFICIAL_ACCOUNT_INFORMATION,
  OFFICIAL_BANK_INITIATION,
  OFFICIAL_OZONE,
  OWN_ACCOUNT_INFORMATION,
  specAvailable,
} from '../support/spec-files.js';
import { checkAgainstOracle } from '../support/type-oracle.js';
import { KNOWN_TYPE_MISMATCHES } from './known-type-mismatches.js';

// openapi-typescript (its own loader, its own reading of the file) is the type oracle: for
// every component schema, z.output of our validator must be assignable to its type.
// It runs with `emptyObjectsUnknown: true`: by default it types `{ type: object }` without
// properties as Record<string, never> (no members at all), where JSON Schema allows any member.

const SPECS = [OFFICIAL_ACCOUNT_INFORMATION, OFFICIAL_BANK_INITIATION, OFFICIAL_OZONE, OWN_ACCOUNT_INFORMATION];

describe('zod output types are assignable to openapi-typescript types', () => {
  afterAll(removeScratchDirs);

  it('has no allow-list entry naming a schema twice', () => {
    const keys = KNOWN_TYPE_MISMATCHES.flatMap((k) => k.schemas.map((s) => `${k.spec}|${s}`));
    expect(new Set(keys).size).toBe(keys.length);
  });

  for (const spec of SPECS) {
    it.skipIf(!specAvailable(spec))(spec.label, { timeout: 600_000 }, async () => {
      const check = await checkAgainstOracle(spec.file);
      const allowed = new Map(KNOWN_TYPE_MISMATCHES.filter((k) => k.spec === spec.label).flatMap((k) => k.schemas.map((s) => [s, k.id] as const)));
      const failing = new Set(check.errors.map((e) => e.schema));
      const unexplained = check.errors.filter((e) => e.schema === undefined || !allowed.has(e.schema)).map((e) => `${e.schema ?? '(outside the checks)'}: ${e.message}`);
      const stale = [...allowed].filter(([schema]) => !failing.has(schema)).map(([schema, id]) => `${id}: ${schema} now type-checks; remove it from the allow-list`);
      const known = [...allowed.keys()].filter((s) => failing.has(s));
      console.log(
        `type oracle ${spec.label}: ${check.schemas.length} component schemas compared, ${check.schemas.length - failing.size} assignable, ` +
          `${known.length} known mismatches${known.length ? ` (${known.join(', ')})` : ''}, ${unexplained.length} unexplained errors`,
      );
      // The negative control must fail, else the comparison proves nothing.
      expect(check.controlErrors).toBeGreaterThan(0);
      expect(check.schemas.length).toBeGreaterThan(0);
      expect(unexplained).toStrictEqual([]);
      expect(stale).toStrictEqual([]);
    });
  }
});
