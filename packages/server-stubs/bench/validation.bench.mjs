// Request-validation overhead of the generated router, measured over loopback with
// autocannon: GET transactions (100 records) through the v2.2 router with validation on,
// with validation off, and a bare Express route returning the same bytes.
// Run after `pnpm build`: `pnpm --filter @bank-data-sharing/server-stubs bench`.
// Environment: BENCH_DURATION (seconds, default 5), BENCH_WARMUP (default 2),
// BENCH_CONNECTIONS (default 10), BENCH_ROUNDS (default 2). The setups run in turn, round
// after round, and the best round of each is reported: other load on the machine only
// ever slows a round down.
import os from 'node:os';
import http from 'node:http';
import express from 'express';
import autocannon from 'autocannon';
import { generateKeyPair } from 'jose';
import { createRouter } from '@bank-data-sharing/server-stubs/v2.2';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 2));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const PREFIX = '/open-finance/account-information/v2.2';
const PATH = `${PREFIX}/accounts/acc-001/transactions?fromBookingDateTime=2024-01-01T00%3A00%3A00Z`;
const TOKEN = 'bench-token';

/** 100 valid v2.2 transactions, newest first. */
function transactions() {
  const newest = Date.UTC(2025, 2, 14, 12);
  return Array.from({ length: 100 }, (_, i) => {
    const at = new Date(newest - i * 3_600_000).toISOString().replace('.000Z', 'Z');
    return {
      TransactionId: `t${String(100 - i).padStart(4, '0')}`,
      TransactionDateTime: at,
      TransactionType: 'POS',
      SubTransactionType: 'Purchase',
      CreditDebitIndicator: 'Debit',
      Status: 'Booked',
      BookingDateTime: at,
      TransactionInformation: `Card purchase ${i}`,
      Amount: { Amount: '10.00', Currency: 'AED' },
    };
  });
}

const RECORDS = transactions();
const body = (self) => ({ Data: { AccountId: 'acc-001', Transaction: RECORDS }, Links: { Self: self }, Meta: { TotalPages: 1 } });

function notUsed() {
  throw new Error('not used by the benchmark');
}

/** The whole v2.2 handler set: only the benchmarked operation does anything. */
const handlers = new Proxy(
  { GetAccountsAccountIdTransactions: (req) => ({ status: 200, body: body(req.url) }) },
  { get: (target, name) => target[name] ?? notUsed, has: () => true },
);

// v2.2 accepts signed bodies (consent patch, attestation): the router wants a verification key.
const tppKeys = await generateKeyPair('ES256');

function routerApp({ requests, responses }) {
  const app = express();
  app.use(
    createRouter(handlers, {
      authorize: ({ credential }) => (credential === TOKEN ? { scopes: ['openid', 'accounts'], permissions: ['ReadTransactionsBasic'] } : undefined),
      verification: { key: tppKeys.publicKey, algorithms: ['ES256'] },
      validateRequests: requests,
      validateResponses: responses,
    }),
  );
  return app;
}

function bareApp(origin) {
  const app = express();
  // The same bytes the router sends, prepared once.
  const bytes = Buffer.from(JSON.stringify(body(`${origin}${PATH}`)));
  app.get(`${PREFIX}/accounts/:id/transactions`, (_req, res) => {
    res.set({ 'content-type': 'application/json; charset=utf-8', 'x-fapi-interaction-id': '0f8fad5b-d9cb-469f-a165-70867728950e' });
    res.end(bytes);
  });
  return app;
}

async function run(url, duration) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: `Bearer ${TOKEN}` } });
  return result;
}

async function measure(name, makeApp) {
  const live = http.createServer();
  await new Promise((resolve) => live.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${live.address().port}`;
  live.on('request', makeApp(origin));
  const url = `${origin}${PATH}`;
  try {
    const probe = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    const bytes = (await probe.arrayBuffer()).byteLength;
    if (probe.status !== 200) throw new Error(`${name}: probe answered ${probe.status}`);
    if (WARMUP > 0) await run(url, WARMUP);
    const result = await run(url, DURATION);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return { name, rps: result.requests.average, p99: result.latency.p99, bytes };
  } finally {
    live.closeAllConnections();
    await new Promise((resolve) => live.close(resolve));
  }
}

const SETUPS = [
  ['generated router, requests and responses validated (default)', () => routerApp({ requests: true, responses: true })],
  ['generated router, requests validated, responses not (production)', () => routerApp({ requests: true, responses: false })],
  ['generated router, validation off', () => routerApp({ requests: false, responses: false })],
  ['bare Express route, same bytes', (origin) => bareApp(origin)],
];
const rows = SETUPS.map(([name]) => ({ name, rps: 0, p99: 0, bytes: 0 }));
for (let round = 0; round < ROUNDS; round++) {
  for (const [i, [name, makeApp]] of SETUPS.entries()) {
    const result = await measure(name, makeApp);
    if (result.rps > rows[i].rps) rows[i] = result;
  }
}

const [all, requestOnly, off] = rows.map((r) => r.rps);
console.log(`GET ${PATH.replace(PREFIX, '{prefix}')} (100 transactions, ${rows[0].bytes} bytes)`);
console.log(
  `autocannon on 127.0.0.1: ${CONNECTIONS} connections, ${WARMUP} s warm-up then ${DURATION} s measured, best of ${ROUNDS} rounds per row; ` +
    `Node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), server and load generator in one process`,
);
console.log('');
console.log('| setup | requests/s | p99 latency (ms) |');
console.log('| --- | ---: | ---: |');
for (const row of rows) console.log(`| ${row.name} | ${Math.round(row.rps)} | ${row.p99} |`);
console.log('');
const cost = (rps) => `${((1 - rps / off) * 100).toFixed(1)} %`;
console.log(`Against validation off: request validation costs ${cost(requestOnly)} of throughput, request and response validation ${cost(all)}.`);
