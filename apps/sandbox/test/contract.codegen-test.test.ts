/**
 * The sandbox checked against its own contracts by `codegen test`: the hub's TPP-facing API
 * (v2.1 and v2.2, a consent-bound token, the consent's ids) and the LFI's hub-to-LFI paging
 * contract (the hub's credential). No failure may be reported, and the runs must have
 * reached data (2xx answers, paging followed), not just been refused: every operation is
 * reached with the seeded data and the consent's id alone (the rest is harvested from answers).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyObject } from 'node:crypto';
import { requestSigner, testServer, type ServerTestReport } from '@bank-data-sharing/codegen';
import { startSandbox, type Sandbox } from '../src/sandbox/start-sandbox.js';
import { SMALL_DATA } from './e2e.fixtures.js';

const spec = (file: string) => fileURLToPath(new URL(`../../../spec/${file}`, import.meta.url));

let sandbox: Sandbox;
const errors: unknown[] = [];
beforeAll(async () => {
  // A small hub page size makes the TPP-side lists several pages long.
  sandbox = await startSandbox({ hubPort: 0, lfiPort: 0, data: SMALL_DATA, pageSize: 25, onError: (error, context) => errors.push({ error: error instanceof Error ? error.message : error, ...context }) });
});
afterAll(() => sandbox.close());

function summary(report: ServerTestReport) {
  return report.failures.map((f) => `${f.operation} ${f.check}: ${f.message}${f.mutation ? ` (${f.mutation})` : ''}\n  ${f.curl}`);
}

function unreached(report: ServerTestReport) {
  return report.operations.filter((o) => !o.reached).map((o) => `${o.operation}: ${o.why}`);
}

function statuses(report: ServerTestReport, operation: string): Record<string, number> {
  return report.operations.find((o) => o.operation === operation)?.statuses ?? {};
}

describe.each(['v2.1', 'v2.2'] as const)('codegen test against the sandbox %s', (version) => {
  it('hub (TPP-facing): no failure, data reached, pages followed', async () => {
    // A consent of its own: the run also patches consents (revoking one ends its token).
    const consent = sandbox.createConsent().consent.Data;
    const token = sandbox.issueToken(consent.ConsentId);
    const report = await testServer({
      spec: spec(`${version}/account-information.yaml`),
      baseUrl: sandbox.baseUrls[version],
      auth: { '*': token.accessToken },
      values: { ConsentId: consent.ConsentId },
      // Signed request bodies with the sandbox TPP's registered key, as a TPP signs them.
      signRequest: requestSigner({ key: KeyObject.from(sandbox.tppKey.privateKey), kid: sandbox.tppKey.kid, issuer: 'sandbox-tpp' }),
      maxExamples: 8,
    });
    expect(summary(report)).toEqual([]);
    expect(unreached(report)).toEqual([]);
    if (version === 'v2.2') {
      // Attestations are signed bodies: created (201), and a body signed with another key refused.
      expect(statuses(report, 'CreateAccountAccessConsentAttestation')['201']).toBeGreaterThan(0);
      expect(report.operations.find((o) => o.operation === 'CreateAccountAccessConsentAttestation')!.negative).toBeGreaterThan(1);
    }
    expect(statuses(report, 'GetAccounts')['200']).toBeGreaterThan(0);
    expect(statuses(report, 'GetAccountsAccountIdTransactions')['200']).toBeGreaterThan(0);
    // Transactions run to several pages of 25: Links.Next was followed, twice over.
    expect(report.operations.find((o) => o.operation === 'GetAccountsAccountIdTransactions')!.sequences).toBeGreaterThan(4);
    expect(errors.splice(0)).toEqual([]);
  });

  it('LFI (hub-to-LFI paging contract): no failure, pages read with two page sizes', async () => {
    const report = await testServer({
      spec: spec(`${version}/lfi-paging.yaml`),
      baseUrl: `${sandbox.lfiUrl}/lfi/${version}`,
      auth: { '*': sandbox.hubCredential },
      maxExamples: 8,
    });
    expect(summary(report)).toEqual([]);
    expect(unreached(report)).toEqual([]);
    expect(statuses(report, 'LfiGetAccountsAccountIdTransactions')['200']).toBeGreaterThan(0);
    expect(report.operations.find((o) => o.operation === 'LfiGetAccountsAccountIdTransactions')!.sequences).toBeGreaterThan(2);
    expect(errors.splice(0)).toEqual([]);
  });
});
