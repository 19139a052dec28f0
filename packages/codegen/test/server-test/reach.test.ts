/**
 * `testServer` on servers it was never told an id of, one per way an API names and creates its
 * items (reach/): every operation is reached, the item answers are checked, and a defect
 * planted in the item answer is found. And a run that cannot reach an operation says so, and why.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { testServer, type CheckName, type ServerTestReport } from '../../src/index.js';
import { DEFECTS, STYLES, startReachServer, type DefectName, type ReachServer, type StyleName } from './reach/reach-server.mjs';
import { startStateServer } from './reach/state-server.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SPEC: Record<StyleName, string> = Object.fromEntries(STYLES.map((style) => [style, path.join(HERE, 'reach', `${style}.yaml`)])) as Record<StyleName, string>;
const ITEM_OPERATION: Record<StyleName, string> = { 'named-differently': 'getAccount', 'fill-by-post': 'getNote', 'location-only': 'getOrder', 'id-member': 'getWidget' };
const FOUND_BY: Record<DefectName, CheckName> = {
  'missing-member': 'response-body',
  'extra-member': 'response-body',
  'bad-date-time': 'response-body',
  'wrong-content-type': 'undeclared-content-type',
  'no-credential-check': 'security-not-enforced',
};

let server: ReachServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(style: StyleName, defect?: DefectName, extra: Partial<Parameters<typeof testServer>[0]> = {}): Promise<ServerTestReport> {
  server = await startReachServer(style, defect ? { defect } : {});
  return testServer({ spec: SPEC[style], baseUrl: server.url, auth: { bearerAuth: 'good-token' }, maxExamples: 6, ...extra });
}

const failures = (report: ServerTestReport) => report.failures.map((f) => `${f.operation} ${f.check}: ${f.message}`);

describe.each(STYLES)('codegen test reaches every operation of %s without --set', (style) => {
  it('reaches each operation, with 2xx answers to the item operation, and reports nothing', async () => {
    const report = await run(style);
    expect(failures(report)).toEqual([]);
    for (const op of report.operations) expect([op.operation, op.reached, op.why]).toEqual([op.operation, true, undefined]);
    const item = report.operations.find((o) => o.operation === ITEM_OPERATION[style])!;
    expect(item.statuses['200']).toBeGreaterThan(0);
    expect(item.coverage.seen).toContain('200');
  });

  it.each(DEFECTS)('finds %s planted in the item answer', async (defect) => {
    const report = await run(style, defect);
    const check = FOUND_BY[defect];
    expect(
      report.failures.some((f) => f.operation === ITEM_OPERATION[style] && f.check === check),
      JSON.stringify(failures(report)),
    ).toBe(true);
  });
});

describe('operations not reached', () => {
  it('says why when every answer is 404, and names the parameter to --set', async () => {
    const report = await run('named-differently', undefined, { operations: ['getAccount'] });
    const item = report.operations[0]!;
    expect(item.reached).toBe(false);
    expect(item.why).toBe('every answer 404: no id the server knows for accountId; pass --set accountId=<id> or seed the server with data');
    expect(item.coverage).toEqual({ seen: ['401', '404'], never: ['200'] });
    expect(report.failures).toEqual([]);
  });

  it('says why when every answer is 401', async () => {
    const report = await run('id-member', undefined, { auth: { bearerAuth: 'wrong-token' } });
    for (const op of report.operations) expect(op.why, op.operation).toBe('every answer 401: the credentials given do not grant it; pass others with --auth or --header');
  });

  it('reports a server that refuses every valid request with 400 as a failure of its own', async () => {
    server = await startReachServer('location-only', { refuseCreation: true });
    const report = await testServer({ spec: SPEC['location-only'], baseUrl: server.url, auth: { bearerAuth: 'good-token' }, maxExamples: 6 });
    const place = report.operations.find((o) => o.operation === 'placeOrder')!;
    expect(place.reached).toBe(false);
    expect(place.why).toBe('every answer 400 to requests the file accepts: reported as valid-request-refused');
    const refused = report.failures.find((f) => f.check === 'valid-request-refused')!;
    expect(refused.operation).toBe('placeOrder');
    expect(refused.message).toMatch(/^all \d+ valid request\(s\) were answered 400/);
    expect(refused.response?.status).toBe(400);
    // Nothing was created: the order's item operation is not reached either, and says why.
    expect(report.operations.find((o) => o.operation === 'getOrder')!.why).toMatch(/^every answer 404: no id the server knows for orderRef/);
  });
});

describe('a second try after the changes', () => {
  const spec = path.join(HERE, 'reach', 'state-change.yaml');

  it('reaches an operation that needs a state a later change sets', async () => {
    server = await startStateServer();
    const report = await testServer({ spec, baseUrl: server.url, maxExamples: 4 });
    expect(failures(report)).toEqual([]);
    expect(report.operations.map((o) => o.operation)).toEqual(['listBoxes', 'sealBox', 'closeBox']);
    const seal = report.operations.find((o) => o.operation === 'sealBox')!;
    expect(seal.reached).toBe(true);
    expect(seal.statuses['201']).toBeGreaterThan(0);
    expect(seal.notes, JSON.stringify(seal.notes)).toContain('not reached at first (every answer 400/404: no success answer); tried again after the other operations, and reached');
  });

  it('withdraws the refusal of its first try once reached', async () => {
    server = await startStateServer();
    // The box's id everywhere: the first try's answers are all 400, a valid-request-refused until the second try.
    const report = await testServer({ spec, baseUrl: server.url, maxExamples: 4, values: { boxId: 'bx-41q' } });
    expect(failures(report)).toEqual([]);
    const seal = report.operations.find((o) => o.operation === 'sealBox')!;
    expect([seal.reached, seal.failures]).toEqual([true, 0]);
    expect(seal.notes).toContain('not reached at first (every answer 400 to requests the file accepts: reported as valid-request-refused); tried again after the other operations, and reached');
  });
});
