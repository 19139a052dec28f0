// Paging throughput: the generated client (validation on) against a raw fetch loop, both
// reading the same 10,000 transactions (100 pages of 100) from one loopback server.
// Run after a build: `pnpm --filter @bank-data-sharing/client bench` (or `node bench/paging.bench.mjs`).
// Options: RUNS=<n> (default 11), PAGES=<n> (default 100), PAGE_SIZE=<n> (default 100).
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import { performance } from 'node:perf_hooks';

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(new URL('generated/v2.2/index.js', dist))) {
  process.stderr.write('paging.bench: build the package first (pnpm build)\n');
  process.exit(1);
}
const { createClient } = await import(new URL('generated/v2.2/index.js', dist).href);
const { readAll } = await import(new URL('runtime/index.js', dist).href);

const RUNS = Number(process.env.RUNS ?? 11);
const PAGES = Number(process.env.PAGES ?? 100);
const PAGE_SIZE = Number(process.env.PAGE_SIZE ?? 100);
const ACCOUNT = 'acc-bench';
const PREFIX = '/open-finance/account-information/v2.2';
const PATH = `${PREFIX}/accounts/${ACCOUNT}/transactions`;

function transaction(i) {
  const at = new Date(Date.UTC(2026, 0, 1) - i * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    TransactionId: `tx-${String(PAGES * PAGE_SIZE - i).padStart(6, '0')}`,
    TransactionDateTime: at,
    TransactionType: 'POS',
    SubTransactionType: 'Purchase',
    CreditDebitIndicator: 'Debit',
    Status: 'Booked',
    BookingDateTime: at,
    TransactionInformation: `Card purchase ${i}`,
    Amount: { Amount: '12.50', Currency: 'AED' },
  };
}

// Bodies are built once, so the server costs the same for both readers.
let origin = '';
const bodies = [];
function buildBodies() {
  for (let page = 1; page <= PAGES; page++) {
    const records = Array.from({ length: PAGE_SIZE }, (_, k) => transaction((page - 1) * PAGE_SIZE + k));
    const url = (p) => `${origin}${PATH}?page=${p}`;
    const links = { Self: url(page), First: url(1), Last: url(PAGES) };
    if (page > 1) links.Prev = url(page - 1);
    if (page < PAGES) links.Next = url(page + 1);
    bodies[page] = Buffer.from(JSON.stringify({ Data: { AccountId: ACCOUNT, Transaction: records }, Links: links, Meta: { TotalPages: PAGES } }));
  }
}

const server = createServer((req, res) => {
  const url = new URL(req.url, origin);
  const page = Number(url.searchParams.get('page') ?? '1');
  const body = bodies[page];
  const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };
  const id = req.headers['x-fapi-interaction-id'];
  if (typeof id === 'string') headers['x-fapi-interaction-id'] = id;
  res.writeHead(200, headers);
  res.end(body);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
origin = `http://127.0.0.1:${server.address().port}`;
buildBodies();

const client = createClient({ origin, retry: false });

async function viaClient() {
  const records = await readAll(client.getAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } });
  return records.length;
}

// The same reading a caller would write by hand: fetch, parse, follow Links.Next. No checks.
async function viaRawFetch() {
  let count = 0;
  let next = `${origin}${PATH}`;
  while (next) {
    const response = await fetch(next, { headers: { accept: 'application/json', 'x-fapi-interaction-id': crypto.randomUUID() } });
    const body = await response.json();
    count += body.Data.Transaction.length;
    next = body.Links.Next;
  }
  return count;
}

async function measure(fn) {
  const start = performance.now();
  const count = await fn();
  const ms = performance.now() - start;
  if (count !== PAGES * PAGE_SIZE) throw new Error(`read ${count} records, expected ${PAGES * PAGE_SIZE}`);
  return (count / ms) * 1000;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (n) => Math.round(n).toLocaleString('en-US');

try {
  // One warm-up each (JIT, connection pool), then alternate so drift hits both alike.
  await measure(viaClient);
  await measure(viaRawFetch);
  const results = { client: [], raw: [] };
  for (let run = 0; run < RUNS; run++) {
    results.client.push(await measure(viaClient));
    results.raw.push(await measure(viaRawFetch));
  }
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  console.log(`Paging benchmark: ${PAGES} pages x ${PAGE_SIZE} transactions over loopback, ${RUNS} runs each`);
  console.log(`Node ${process.version}, ${os.platform()} ${os.arch()}, ${os.cpus().length} x ${cpu}`);
  console.log('');
  console.log('reader                          median rec/s   min rec/s   max rec/s   spread');
  for (const [name, xs] of [
    ['client (validation on)', results.client],
    ['raw fetch loop (no checks)', results.raw],
  ]) {
    const med = median(xs);
    const spread = ((Math.max(...xs) - Math.min(...xs)) / med) * 100;
    console.log(`${name.padEnd(30)}  ${fmt(med).padStart(12)}  ${fmt(Math.min(...xs)).padStart(10)}  ${fmt(Math.max(...xs)).padStart(10)}   ${spread.toFixed(1)}%`);
  }
  console.log('');
  console.log(`client / raw: ${(median(results.client) / median(results.raw)).toFixed(2)} (the difference is validation, interaction-id checks and bookkeeping)`);
} finally {
  server.closeAllConnections();
  server.close();
}
