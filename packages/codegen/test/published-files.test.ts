/**
 * Other publishers' OpenAPI files, read from their packages on the registry (pinned
 * devDependencies, never copied here): every target generates, type-checks strictly and passes
 * `verify`, and what they rely on validates as they mean it. Scalar's Galaxy example binds a
 * generic paginated resource to its item type with `$dynamicRef`/`$dynamicAnchor`.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, verify, writeFiles } from '../src/index.js';
import { PUBLISHED_FILES } from './support/corpus-files.js';
import { removeScratchDirs, scratchDir } from './support/generated-validators.js';

const GALAXY = PUBLISHED_FILES.find((file) => file.includes('galaxy'))!;

type Parse = { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } };
type Schema = { safeParse(value: unknown): Parse };
interface Validators {
  schemas: Record<string, Schema>;
  operations: Record<string, { responses: Record<string, { content?: Record<string, Schema> }> }>;
}
type Mock = (options?: Record<string, unknown>) => { status: number; body: unknown };

afterAll(removeScratchDirs);

describe('Scalar Galaxy (@scalar/galaxy, OpenAPI 3.1.1)', () => {
  it('passes verify with every target: no diagnostics, every example valid, no type error', { timeout: 120_000 }, async () => {
    const report = await verify({ spec: GALAXY });
    expect(report.diagnostics.filter((d) => d.severity !== 'info')).toStrictEqual([]);
    expect(report.exampleFailures).toStrictEqual([]);
    expect(report.typeErrors).toStrictEqual([]);
    expect(report.examplesChecked).toBeGreaterThan(50);
    expect(report.ok).toBe(true);
  });

  describe('its paginated planets, bound with $dynamicRef', () => {
    let v: Validators;
    let mocks: Record<string, Mock>;
    beforeAll(async () => {
      const dir = await scratchDir('galaxy');
      const result = await generate({ spec: GALAXY, targets: ['validators', 'mocks'] });
      await writeFiles(dir, result.files, { check: false });
      v = (await import(pathToFileURL(path.join(dir, 'validators/index.ts')).href)) as Validators;
      ({ mocks } = (await import(pathToFileURL(path.join(dir, 'mocks/index.ts')).href)) as { mocks: Record<string, Mock> });
    }, 120_000);

    const planets = () => v.operations['getAllData']!.responses['200']!.content!['application/json']!;

    it('takes pages of planets and refuses items that are not planets, naming the member', () => {
      // `data` is optional: some pages leave it out.
      const pages = Array.from({ length: 40 }, (_, i) => mocks['getAllData']!({ seed: i + 1 }).body as { data?: Array<Record<string, unknown>> });
      const full = pages.find((page) => (page.data ?? []).length > 0);
      expect(full, 'a mock page with planets').toBeDefined();
      for (const page of pages) expect(planets().safeParse(page).success, JSON.stringify(page).slice(0, 200)).toBe(true);
      const planet = full!.data![0]!;
      expect(planets().safeParse({ ...full, data: [42] }).success).toBe(false);
      const wrongName = planets().safeParse({ ...full, data: [{ ...planet, name: 17 }] });
      expect(wrongName.success).toBe(false);
      expect(wrongName.error!.issues.map((i) => i.path.join('.'))).toContain('data.0.name');
    });

    it('leaves the generic resource alone without items, as its own $dynamicAnchor says (not: {})', () => {
      const page = mocks['getAllData']!({ seed: 1 }).body as Record<string, unknown>;
      expect(v.schemas['PaginatedResource']!.safeParse({ ...page, data: [] }).success).toBe(true);
      expect(v.schemas['PaginatedResource']!.safeParse({ ...page, data: [{ name: 'Mars' }] }).success).toBe(false);
    });
  });
});
