// Client: records per second reading 10,000 transactions (100 pages of 100) with the generated
// v2.2 client (`readAll`, validation on and off) next to a raw `fetch` loop over the same server.
// Two servers, each in its own child process: the hub (the generated v2.2 router with the
// paging adapter over an in-memory LFI) and a static server sending prepared pages (which
// isolates the client's own cost). The readers run in this process, one after the other.
// (This replaces packages/client/bench/paging.bench.mjs; `pnpm --filter @bank-data-sharing/client
// bench` runs this suite.)
import { createClient } from '@bank-data-sharing/client/v2.2';
import { readAll, staticToken } from '@bank-data-sharing/client/runtime';
import { ACCOUNT, cpuMicros, PAGED_PATH, startServerProcess, TOKEN } from '../src/lib/http-bench.mjs';
import { median, summarize } from '../src/lib/stats.mjs';

const RECORDS = 10_000;

/** The readers; each returns how many records it read. */
function readers(origin) {
  const validating = createClient({ origin, retry: false, tokens: staticToken(TOKEN) });
  const trusting = createClient({ origin, retry: false, tokens: staticToken(TOKEN), validate: false });
  return [
    { id: 'client', label: 'client, validation on', read: async () => (await readAll(validating.getAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })).length },
    { id: 'client-novalidate', label: 'client, validation off', read: async () => (await readAll(trusting.getAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })).length },
    {
      id: 'raw',
      label: 'raw fetch loop (no checks)',
      // What a caller would write by hand: fetch, parse, follow Links.Next.
      read: async () => {
        let count = 0;
        let next = `${origin}${PAGED_PATH}`;
        while (next) {
          const response = await fetch(next, { headers: { accept: 'application/json', authorization: `Bearer ${TOKEN}`, 'x-fapi-interaction-id': crypto.randomUUID() } });
          const body = await response.json();
          count += body.Data.Transaction.length;
          next = body.Links.Next;
        }
        return count;
      },
    },
  ];
}

/** Reads once; records/s on the wall clock, and this process's CPU µs per record. */
async function timed(reader) {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const count = await reader.read();
  const ms = performance.now() - t0;
  const cpu = cpuMicros(cpu0, process.cpuUsage());
  if (count !== RECORDS) throw new Error(`${reader.id} read ${count} records, expected ${RECORDS}`);
  return { rate: (count / ms) * 1000, cpuPerRecord: cpu / count };
}

export default {
  id: 'client',
  title: 'Client paging over HTTP (10,000 transactions, 100 pages)',
  description: 'records/s through the generated client (validation on, off) vs a raw fetch loop, against the hub and a static server',
  async run(ctx) {
    const runs = Number(process.env.BENCH_RUNS ?? (ctx.quick ? 3 : 15));
    const warmups = 2;
    ctx.note(
      `Each reader reads all ${RECORDS.toLocaleString('en-US')} transactions (100 pages of 100, following Links.Next) ${warmups} times to warm up, then ${runs} timed times; the three readers alternate run by run, so a drift of the machine hits all alike. ` +
        'records/s: median over runs (spread over runs), wall clock. "client CPU/record" is this process\'s CPU time (user + system) per record read: the client\'s own cost, steadier than the wall clock on a shared machine. ' +
        'The ratios are taken per run (client run ÷ the raw run next to it), then the median. The server runs in a child process: ' +
        '"hub" is the generated v2.2 router (default validation) answering with the paging adapter from an in-memory LFI (records pre-sorted; a page is a slice), so every page costs what a hub page costs; ' +
        '"static" sends prepared bytes, so nearly all the time is the reader\'s.',
    );
    for (const server of [
      { id: 'hub', setup: 'hub', label: 'hub' },
      { id: 'static', setup: 'static', label: 'static pages' },
    ]) {
      const proc = await startServerProcess(server.setup);
      try {
        const list = readers(proc.origin).map((r) => ({ ...r, rates: [], cpu: [] }));
        ctx.progress(`${server.id}: warm-up`);
        for (let i = 0; i < warmups; i++) for (const r of list) await timed(r);
        for (let run = 0; run < runs; run++) {
          ctx.progress(`${server.id}: run ${run + 1}/${runs}`);
          for (let k = 0; k < list.length; k++) {
            const r = list[(run + k) % list.length];
            const t = await timed(r);
            r.rates.push(t.rate);
            r.cpu.push(t.cpuPerRecord);
          }
        }
        const runsText = `${runs} runs + ${warmups} warm-up`;
        for (const r of list) {
          ctx.row({
            id: `${server.id}-${r.id}`,
            label: `${server.label}: ${r.label}`,
            unit: 'rec/s',
            samples: r.rates,
            runs: runsText,
            detail: `client CPU/record ${median(r.cpu).toFixed(2)} µs`,
            extra: { cpuMicrosPerRecord: summarize(r.cpu) },
          });
        }
        const [validating, trusting, raw] = list;
        for (const [c, id, text] of [
          [validating, 'client-vs-raw', 'client (validation on) ÷ raw loop'],
          [trusting, 'client-novalidate-vs-raw', 'client (validation off) ÷ raw loop'],
        ]) {
          ctx.row({
            id: `${server.id}-${id}`,
            label: `${server.label}: ${text}`,
            unit: '×',
            samples: c.rates.map((x, i) => x / raw.rates[i]),
            runs: `${runs} runs`,
            goal: { text: 'within 10 % (≥ 0.90×)', test: (m) => m >= 0.9 },
            detail: `client CPU/record ${median(c.cpu).toFixed(2)} µs vs ${median(raw.cpu).toFixed(2)} µs raw`,
          });
        }
      } finally {
        await proc.stop();
      }
    }
  },
};
