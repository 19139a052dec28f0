// Client: records per second reading 10,000 transactions (100 pages of 100) with the generated
// v2.2 client (`readAll`, validation on and off) next to a raw `fetch` loop over the same server,
// and next to a raw loop on undici's request API (the client's own transport).
// Two servers, each in its own child process: the hub (the generated v2.2 router with the
// paging adapter over an in-memory LFI) and a static server sending prepared pages (which
// isolates the client's own cost). Each reader runs in its own process (workers/reader.mjs).
// (This replaces packages/client/bench/paging.bench.mjs; `pnpm --filter @bank-data-sharing/client
// bench` runs this suite.)
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServerProcess } from '../src/lib/http-bench.mjs';
import { median, summarize } from '../src/lib/stats.mjs';

const RECORDS = 10_000;
const READER = fileURLToPath(new URL('../src/workers/reader.mjs', import.meta.url));
// Compared in pairs that do the same with the records (see workers/reader.mjs).
const READERS = [
  { id: 'client', label: 'client readAll, validation on' },
  { id: 'client-novalidate', label: 'client readAll, validation off' },
  { id: 'raw', label: 'raw fetch loop collecting the records (no checks)' },
  { id: 'client-pages', label: 'client pages(), validation on, records counted' },
  { id: 'raw-count', label: 'raw fetch loop, records counted (no checks)' },
  { id: 'raw-undici', label: 'raw undici request() loop collecting the records (no checks)' },
];
// The goal (#8) is set against the raw fetch loop; the undici pair has none: it shows what the
// client costs above its own transport.
const WITHIN_10_PERCENT = { text: 'within 10 % (≥ 0.90×)', test: (m) => m >= 0.9 };
const PAIRS = [
  ['client', 'raw', 'client-vs-raw', 'client readAll (validation on) ÷ raw fetch loop, both keeping every record', WITHIN_10_PERCENT],
  ['client-novalidate', 'raw', 'client-novalidate-vs-raw', 'client readAll (validation off) ÷ raw fetch loop, both keeping every record', WITHIN_10_PERCENT],
  ['client-pages', 'raw-count', 'client-pages-vs-raw-count', 'client pages() (validation on) ÷ raw fetch loop, both keeping none', WITHIN_10_PERCENT],
  ['client', 'raw-undici', 'client-vs-raw-undici', 'client readAll (validation on) ÷ raw undici request() loop, both keeping every record', undefined],
  ['client-novalidate', 'raw-undici', 'client-novalidate-vs-raw-undici', 'client readAll (validation off) ÷ raw undici request() loop, both keeping every record', undefined],
];

/** A reader process (see workers/reader.mjs); `read()` runs one timed read there. */
function startReader(origin, kind) {
  const child = fork(READER, [origin, kind], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let seq = 0;
  const waiting = new Map();
  let failed;
  child.on('message', (msg) => {
    if (msg?.type === 'read' && waiting.has(msg.seq)) {
      waiting.get(msg.seq)(msg);
      waiting.delete(msg.seq);
    }
  });
  child.on('exit', (code) => {
    failed = new Error(`reader ${kind} exited with ${code}`);
    for (const done of waiting.values()) done({ error: failed.message });
    waiting.clear();
  });
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`reader ${kind} did not start within 30 s`)), 30_000);
    child.once('message', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return {
    ready,
    /** One read, bounded by 2 minutes: records/s on the wall clock, and CPU µs per record. */
    read: () =>
      new Promise((resolve, reject) => {
        if (failed) return reject(failed);
        const id = ++seq;
        const timer = setTimeout(() => reject(new Error(`reader ${kind}: a read took over 2 minutes`)), 120_000);
        waiting.set(id, (msg) => {
          clearTimeout(timer);
          if (msg.error) return reject(new Error(`reader ${kind}: ${msg.error}`));
          if (msg.count !== RECORDS) return reject(new Error(`reader ${kind} read ${msg.count} records, expected ${RECORDS}`));
          resolve({ rate: (msg.count / msg.ms) * 1000, cpuPerRecord: msg.cpu / msg.count });
        });
        child.send({ type: 'read', seq: id });
      }),
    stop: () => {
      if (child.exitCode === null && child.connected) child.send({ type: 'stop' });
    },
  };
}

export default {
  id: 'client',
  title: 'Client paging over HTTP (10,000 transactions, 100 pages)',
  description: 'records/s through the generated client (readAll with validation on and off, pages()) vs raw fetch loops (and a raw undici request() loop) doing the same with the records, against the hub and a static server',
  async run(ctx) {
    const runs = Number(process.env.BENCH_RUNS ?? (ctx.quick ? 3 : 21));
    const warmups = ctx.quick ? 1 : 5;
    ctx.note(
      `Each reader runs in its own Node process (as a TPP service runs the client alone, so one reader's compiled code and garbage do not weigh on another) and reads all ${RECORDS.toLocaleString('en-US')} transactions (100 pages of 100, following Links.Next): ${warmups} warm-up read(s), then ${runs} timed reads; the readers alternate run by run, so a drift of the machine hits all alike. ` +
        'A full garbage collection runs in the reader before every run, off the clock. ' +
        'records/s: median over runs (spread over runs), wall clock. "client CPU/record" is the reader process\'s CPU time (user + system) per record read: the client\'s own cost, steadier than the wall clock on a shared machine. ' +
        'The ratios are taken per run (client run ÷ the raw run of the same round), then the median, in pairs that do the same with the records: readAll returns all 10,000 (so its raw loop collects them too: every page stays alive, which costs garbage collection), pages() hands them out page by page (so its raw loop only counts them). The server runs in a child process: ' +
        '"hub" is the generated v2.2 router (default validation) answering with the paging adapter from an in-memory LFI (records pre-sorted; a page is a slice), so every page costs what a hub page costs; ' +
        '"static" sends prepared bytes, so nearly all the time is the reader\'s.',
    );
    for (const server of [
      { id: 'hub', setup: 'hub', label: 'hub' },
      { id: 'static', setup: 'static', label: 'static pages' },
    ]) {
      const proc = await startServerProcess(server.setup);
      let list = [];
      try {
        list = READERS.map((r) => ({ ...r, ...startReader(proc.origin, r.id), rates: [], cpu: [] }));
        await Promise.all(list.map((r) => r.ready));
        ctx.progress(`${server.id}: warm-up`);
        for (let i = 0; i < warmups; i++) for (const r of list) await r.read();
        for (let run = 0; run < runs; run++) {
          ctx.progress(`${server.id}: run ${run + 1}/${runs}`);
          for (let k = 0; k < list.length; k++) {
            const r = list[(run + k) % list.length];
            const t = await r.read();
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
        const byId = new Map(list.map((r) => [r.id, r]));
        for (const [clientId, rawId, id, text, goal] of PAIRS) {
          const c = byId.get(clientId);
          const raw = byId.get(rawId);
          ctx.row({
            id: `${server.id}-${id}`,
            label: `${server.label}: ${text}`,
            unit: '×',
            samples: c.rates.map((x, i) => x / raw.rates[i]),
            runs: `${runs} runs`,
            ...(goal ? { goal } : {}),
            detail: `client CPU/record ${median(c.cpu).toFixed(2)} µs vs ${median(raw.cpu).toFixed(2)} µs raw`,
          });
        }
      } finally {
        for (const r of list) r.stop();
        await proc.stop();
      }
    }
  },
};
