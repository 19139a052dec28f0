/**
 * `testServer` against the hand-written Inventory server (planted/): with no defect it
 * reports nothing; with each planted defect it reports that defect, by the check that
 * names it, and only failures that follow from it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { testServer, type CheckName, type ServerTestReport } from '../../src/index.js';
import { DEFECTS, startPlantedServer, type DefectName, type PlantedServer } from './planted/planted-server.mjs';

const SPEC = path.join(path.dirname(fileURLToPath(import.meta.url)), 'planted/inventory.yaml');

/** Each defect, the operation where it must be found and the check that finds it. */
const EXPECTED: Record<DefectName, { operation: string; check: CheckName }> = {
  'missing-required-member': { operation: 'getItem', check: 'response-body' },
  'wrong-type': { operation: 'getItem', check: 'response-body' },
  'undeclared-status': { operation: 'getItem', check: 'undeclared-status' },
  'undeclared-content-type': { operation: 'getItem', check: 'undeclared-content-type' },
  'server-error-on-malformed': { operation: 'getItem', check: 'server-error' },
  'invalid-body-accepted': { operation: 'createItem', check: 'invalid-request-accepted' },
  'unenforced-security': { operation: 'listItems', check: 'security-not-enforced' },
  'missing-required-header': { operation: 'listItems', check: 'response-headers' },
  'page-skipping-record': { operation: 'listItems', check: 'paging' },
  'member-outside-closed-object': { operation: 'getItem', check: 'response-body' },
};

let server: PlantedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(defect?: DefectName, extra: Partial<Parameters<typeof testServer>[0]> = {}): Promise<ServerTestReport> {
  server = await startPlantedServer(defect ? { defect } : {});
  return testServer({ spec: SPEC, baseUrl: server.url, auth: { bearerAuth: 'good-token' }, maxExamples: 10, ...extra });
}

describe('codegen test on the Inventory server', () => {
  it('reports nothing on the correct server, having sent every kind of case', async () => {
    const report = await run();
    expect(report.failures).toEqual([]);
    expect(report.operations.map((o) => o.operation).sort()).toEqual(['createItem', 'getItem', 'listItems']);
    for (const op of report.operations) {
      expect(op.positive, op.operation).toBeGreaterThan(0);
      expect(op.negative, op.operation).toBeGreaterThan(0);
    }
    // Paging (listItems) and the link from createItem to getItem were followed.
    expect(report.operations.find((o) => o.operation === 'listItems')!.sequences).toBeGreaterThan(2);
    expect(report.operations.find((o) => o.operation === 'createItem')!.sequences).toBeGreaterThan(0);
    expect(report.timedOut).toBe(false);
  });

  it('has a test for every planted defect', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(DEFECTS.map((d) => d.name).sort());
  });

  for (const { name } of DEFECTS) {
    it(`finds ${name}`, async () => {
      const report = await run(name);
      const expected = EXPECTED[name];
      const found = report.failures.find((f) => f.operation === expected.operation && f.check === expected.check);
      expect(found, JSON.stringify(report.failures.map((f) => [f.operation, f.check, f.message]))).toBeDefined();
      // Every failure is one the defect explains: the same check (a link from createItem reads getItem).
      for (const failure of report.failures) expect([expected.check], `${failure.operation} ${failure.check}: ${failure.message}`).toContain(failure.check);
      // What a person needs to act: the request, a curl line that sends it, the answer.
      expect(found!.curl).toMatch(/^curl -i /);
      expect(found!.curl).toContain(server!.origin);
      expect(found!.request.url.startsWith(server!.url)).toBe(true);
      if (expected.check !== 'paging') expect(found!.response?.status).toBeTypeOf('number');
    });
  }

  it('names the pointer and rule of a body that breaks its schema', async () => {
    const report = await run('wrong-type');
    const found = report.failures.find((f) => f.check === 'response-body' && f.operation === 'getItem')!;
    expect(found.pointer).toBe('/quantity');
    expect(found.rule).toMatch(/number|integer/i);
  });

  it('shrinks an accepted invalid body to the one wrong member', async () => {
    const report = await run('invalid-body-accepted');
    const found = report.failures.find((f) => f.check === 'invalid-request-accepted')!;
    expect(found.mutation).toBeTruthy();
    const body = JSON.parse(found.request.body!) as Record<string, unknown>;
    // Optional members (tags) are gone; what is left is the required members or the one mutation.
    expect(Object.keys(body).length).toBeLessThanOrEqual(3);
    expect(body).not.toHaveProperty('tags');
  });

  it('sends the same requests for the same seed', async () => {
    const first = await run('missing-required-member', { seed: 42 });
    const port = new URL(server!.url).port;
    await server!.close();
    const second = await run('missing-required-member', { seed: 42 });
    const normalise = (report: ServerTestReport, p: string) => JSON.stringify(report.failures.map((f) => [f.check, f.request])).replaceAll(p, 'PORT');
    expect(normalise(second, new URL(server!.url).port)).toBe(normalise(first, port));
    expect(second.requests).toBe(first.requests);
  });

  it('runs only the operations asked for, and refuses names the file does not have', async () => {
    const report = await run(undefined, { operations: ['getItem'] });
    expect(report.operations.map((o) => o.operation)).toEqual(['getItem']);
    await server!.close();
    await expect(run(undefined, { operations: ['nope'] })).rejects.toThrow(/no operation named "nope"/);
  });
});
