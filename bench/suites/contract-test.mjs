// `codegen test` measured: how fast it checks a server, and what it finds. Against the sandbox
// (the hub's TPP-facing v2.2 API and the LFI's v2.2 paging contract, in this process on
// 127.0.0.1, small data, hub page size 25), runs of `testServer` with 100 examples per
// operation: wall time of a whole run (generation of the validators, router and mocks
// included) and requests per second. Then the hand-written Inventory server, correct and with
// each of its 10 planted defects: the failures `codegen test` reports (the Dredd suite runs
// Dredd on the same servers).
import { KeyObject } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '../src/lib/paths.mjs';

const codegenIndex = pathToFileURL(path.join(repoRoot, 'packages/codegen/dist/index.js')).href;
const sandboxIndex = pathToFileURL(path.join(repoRoot, 'apps/sandbox/dist/index.js')).href;
const plantedServer = pathToFileURL(path.join(repoRoot, 'packages/codegen/test/server-test/planted/planted-server.mjs')).href;
const plantedSpec = path.join(repoRoot, 'packages/codegen/test/server-test/planted/inventory.yaml');
const SMALL_DATA = { seed: 7, customers: 2, years: 0.25, perDay: 2 };
const EXAMPLES = 100;

export default {
  id: 'contract-test',
  title: 'codegen test: checking a running server against its file',
  description: 'testServer against the sandbox hub (v2.2) and LFI (v2.2) with 100 examples per operation (wall time, requests/s), and on the planted-defect Inventory server (what it finds)',
  async run(ctx) {
    const { requestSigner, testServer } = await import(codegenIndex);
    const { startSandbox } = await import(sandboxIndex);
    const runs = ctx.quick ? 1 : 3;
    const sandbox = await startSandbox({ hubPort: 0, lfiPort: 0, data: SMALL_DATA, pageSize: 25, onError: () => {} });
    try {
      const targets = [
        {
          id: 'hub-v2.2',
          label: 'sandbox hub v2.2 (TPP-facing)',
          options: () => {
            const consent = sandbox.createConsent().consent.Data;
            return {
              spec: path.join(repoRoot, 'spec/v2.2/account-information.yaml'),
              baseUrl: sandbox.baseUrls['v2.2'],
              auth: { '*': sandbox.issueToken(consent.ConsentId).accessToken },
              values: { ConsentId: consent.ConsentId },
              // Signed request bodies (attestations) with the sandbox TPP's registered key.
              signRequest: requestSigner({ key: KeyObject.from(sandbox.tppKey.privateKey), kid: sandbox.tppKey.kid, issuer: 'sandbox-tpp' }),
            };
          },
        },
        { id: 'lfi-v2.2', label: 'sandbox LFI v2.2 (hub-to-LFI)', options: () => ({ spec: path.join(repoRoot, 'spec/v2.2/lfi-paging.yaml'), baseUrl: `${sandbox.lfiUrl}/lfi/v2.2`, auth: { '*': sandbox.hubCredential } }) },
      ];
      for (const target of targets) {
        const seconds = [];
        const rates = [];
        let last;
        // One warm-up run: module loading and the JIT are not what a user waits for twice.
        for (let i = 0; i <= runs; i++) {
          ctx.progress(`${target.id} run ${i}/${runs}`);
          const started = performance.now();
          last = await testServer({ ...target.options(), maxExamples: EXAMPLES });
          const elapsed = (performance.now() - started) / 1000;
          if (i === 0) continue;
          seconds.push(elapsed);
          rates.push(last.requests / elapsed);
        }
        const detail = `${last.operations.length} operations, ${last.requests} requests per run, ${last.failures.length} failure(s)`;
        ctx.row({ id: `${target.id}-wall`, label: `${target.label}: a run of ${EXAMPLES} examples per operation (wall)`, unit: 's', samples: seconds, runs: `${runs} runs, 1 warm-up`, goal: { text: '< 60 s', test: (m) => m < 60 }, detail });
        ctx.row({ id: `${target.id}-rate`, label: `${target.label}: requests per second`, unit: 'req/s', samples: rates, runs: `${runs} runs, 1 warm-up`, detail: 'requests sent to the server under test (the oracle requests to the generated router on loopback are not counted)' });
      }
    } finally {
      await sandbox.close();
    }

    const { DEFECTS, startPlantedServer } = await import(plantedServer);
    for (const variant of [undefined, ...DEFECTS.map((d) => d.name)]) {
      const server = await startPlantedServer(variant ? { defect: variant } : {});
      try {
        const report = await testServer({ spec: plantedSpec, baseUrl: server.url, auth: { bearerAuth: 'good-token' }, maxExamples: 20 });
        const checks = [...new Set(report.failures.map((f) => `${f.operation} ${f.check}`))];
        const verdict = variant === undefined ? (report.failures.length === 0 ? 'clean' : 'false report') : report.failures.length > 0 ? 'found' : 'not found';
        ctx.row({ id: `planted-${variant ?? 'correct'}`, label: `${variant ?? 'correct'}: failures reported`, unit: 'failing', samples: [report.failures.length], runs: '1 run, 20 examples', detail: `${verdict}${checks.length ? `: ${checks.join(', ')}` : ''}; ${report.requests} requests` });
      } finally {
        await server.close();
      }
    }
    ctx.note('Wall time is the whole testServer call: generating and loading the validators, router and mocks of the file into a temporary folder, then every request. Identical valid requests are sent once (an operation without parameters has few distinct ones), so requests per run are fewer than operations × examples. The oracle requests (each invalid case first put to the generated router on loopback) are not counted as requests.');
  },
};
