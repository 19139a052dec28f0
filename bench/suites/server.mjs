// Server: requests per second, p99 latency and server CPU per request of GET transactions
// (100 records, about 31 kB) through the generated v2.2 router (validation on, requests only,
// off), a plain Express route (`res.json` per request) and express-openapi-validator on the
// same handler; and a hub (router + paging adapter over an in-memory LFI, page 37 of 100)
// beside a plain route serving the same page; and the anchors: a raw node:http handler, plain
// Fastify, fastify-openapi-glue, and the router as the node:http listener itself and as a Fastify plugin. autocannon on 127.0.0.1 in this process; each
// server in its own child process, fresh ones every round, measured in turn.
// (This replaces packages/server-stubs/bench/validation.bench.mjs, which ran server and load
// generator in one process; `pnpm --filter @bank-data-sharing/server-stubs bench` runs this suite.)
import { bundledSpec, cpuMicros, cpuSlices, HUB_PATH, loadTest, PREFIX, SERVER_PATH, startServerProcess, TOKEN } from '../src/lib/http-bench.mjs';
import { median, summarize } from '../src/lib/stats.mjs';

const BAD_QUERY = 'fromBookingDateTime=not-a-date';
const BAD_PATH = `${PREFIX}/accounts/acc-001/transactions?${BAD_QUERY}`;

/** Every setup of the suite; `BENCH_SERVER_SETUPS=plain,validated` runs a subset. */
const SETUPS = [
  { id: 'validated', setup: 'router-validated', path: SERVER_PATH, bad: BAD_PATH, label: 'generated router, validation on (requests and responses, the default)' },
  { id: 'requests-only', setup: 'router-requests', path: SERVER_PATH, bad: BAD_PATH, label: 'generated router, requests validated, responses not' },
  { id: 'off', setup: 'router-off', path: SERVER_PATH, label: 'generated router, validation off' },
  { id: 'plain', setup: 'plain', path: SERVER_PATH, label: 'plain Express route, res.json per request' },
  { id: 'eov', setup: 'eov', path: SERVER_PATH, bad: BAD_PATH, label: 'express-openapi-validator (requests and responses)' },
  { id: 'hub', setup: 'hub', path: HUB_PATH, bad: `${HUB_PATH}&${BAD_QUERY}`, records: 100, label: 'hub: router + paging adapter, page 37 of 100' },
  { id: 'hub-plain', setup: 'hub-plain', path: HUB_PATH, records: 100, label: 'hub-plain: plain Express route, the same page' },
  // The anchors: what a request costs without the router, on bare node:http and on Fastify.
  { id: 'raw-node', setup: 'raw-node', path: SERVER_PATH, label: 'raw node:http handler, JSON.stringify, res.end(text)' },
  { id: 'fastify', setup: 'fastify', path: SERVER_PATH, label: 'plain Fastify route' },
  { id: 'fastify-glue', setup: 'fastify-glue', path: SERVER_PATH, bad: BAD_PATH, label: 'fastify-openapi-glue (request validation, response serialisation)' },
  { id: 'router-node', setup: 'router-node', path: SERVER_PATH, bad: BAD_PATH, label: 'generated router as the node:http listener, default checks' },
  { id: 'router-node-requests', setup: 'router-node-requests', path: SERVER_PATH, bad: BAD_PATH, label: 'generated router as the node:http listener, requests checked, responses not (the work glue does)' },
  { id: 'router-node-off', setup: 'router-node-off', path: SERVER_PATH, label: 'generated router as the node:http listener, validation off' },
  { id: 'router-node-text', setup: 'router-node-text', path: SERVER_PATH, label: 'generated router as the node:http listener, default checks, answers handed to Node as text (reuseAnswerBuffers: false)' },
  { id: 'router-fastify', setup: 'router-fastify', path: SERVER_PATH, bad: BAD_PATH, label: 'generated router as a Fastify plugin (native routes), default checks' },
];

/** The ratios printed, each taken round by round; shown when both setups ran. */
const RATIOS = [
  { id: 'validated-vs-plain', a: 'validated', b: 'plain', label: 'router validated ÷ plain Express (throughput)', goal: { text: '≥ 0.80×', test: (m) => m >= 0.8 } },
  { id: 'validated-vs-eov', a: 'validated', b: 'eov', label: 'router validated ÷ express-openapi-validator (throughput)', goal: { text: '≥ 2×', test: (m) => m >= 2 } },
  { id: 'validated-vs-off', a: 'validated', b: 'off', label: 'validation on ÷ validation off (throughput)', goal: { text: 'within 20 % (≥ 0.80×)', test: (m) => m >= 0.8 } },
  { id: 'requests-only-vs-off', a: 'requests-only', b: 'off', label: 'requests validated only ÷ validation off (throughput)', goal: { text: 'within 20 % (≥ 0.80×)', test: (m) => m >= 0.8 } },
  { id: 'off-vs-plain', a: 'off', b: 'plain', label: 'router validation off ÷ plain Express (throughput)' },
  { id: 'hub-vs-hub-plain', a: 'hub', b: 'hub-plain', label: 'hub ÷ hub-plain, same page (throughput)', goal: { text: 'within 25 % (≥ 0.75×)', test: (m) => m >= 0.75 } },
];

/** Ratios of server CPU per request (a ÷ b, lower is better), each taken round by round. */
const CPU_RATIOS = [
  { id: 'router-node-vs-glue-cpu', a: 'router-node', b: 'fastify-glue', label: 'router on node:http, default checks ÷ fastify-openapi-glue (server CPU/request)', goal: { text: '≤ 1.0×', test: (m) => m <= 1 } },
  { id: 'router-fastify-vs-glue-cpu', a: 'router-fastify', b: 'fastify-glue', label: 'router as a Fastify plugin, default checks ÷ fastify-openapi-glue (server CPU/request)', goal: { text: '≤ 1.0×', test: (m) => m <= 1 } },
  { id: 'router-node-off-vs-raw-cpu', a: 'router-node-off', b: 'raw-node', label: 'router on node:http, checks off ÷ raw node:http (server CPU/request)', goal: { text: '≤ 1.2×', test: (m) => m <= 1.2 } },
  { id: 'validated-vs-plain-cpu', a: 'validated', b: 'plain', label: 'router in Express, default checks ÷ plain Express res.json (server CPU/request)', goal: { text: '≤ 1.0×', test: (m) => m <= 1 } },
  { id: 'hub-vs-hub-plain-cpu', a: 'hub', b: 'hub-plain', label: 'hub ÷ hub-plain, same page (server CPU/request)', goal: { text: '≤ 1.1×', test: (m) => m <= 1.1 } },
  { id: 'router-node-vs-raw-cpu', a: 'router-node', b: 'raw-node', label: 'router on node:http, default checks ÷ raw node:http (server CPU/request)' },
  { id: 'router-node-requests-vs-glue-cpu', a: 'router-node-requests', b: 'fastify-glue', label: 'router on node:http, requests checked only ÷ fastify-openapi-glue, the same work (server CPU/request)' },
  { id: 'router-node-vs-text-cpu', a: 'router-node', b: 'router-node-text', label: 'router on node:http, answers in reused buffers ÷ handed to Node as text (server CPU/request)' },
  { id: 'glue-vs-raw-cpu', a: 'fastify-glue', b: 'raw-node', label: 'fastify-openapi-glue ÷ raw node:http (server CPU/request)' },
];

function selectedSetups() {
  const wanted = process.env.BENCH_SERVER_SETUPS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted) return SETUPS;
  const unknown = wanted.filter((id) => !SETUPS.some((s) => s.id === id));
  if (unknown.length > 0) throw new Error(`BENCH_SERVER_SETUPS: unknown setup ${unknown.join(', ')} (known: ${SETUPS.map((s) => s.id).join(', ')})`);
  return SETUPS.filter((s) => wanted.includes(s.id));
}

export default {
  id: 'server',
  title: 'Server stubs over HTTP (GET transactions, 100 records)',
  description: 'autocannon req/s, p99 and server CPU/request (user, system): generated v2.2 router (validation on, requests only, off; in Express and on node:http), plain Express, express-openapi-validator, hub vs plain page, raw node:http, Fastify, fastify-openapi-glue',
  async run(ctx) {
    const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
    const duration = Number(process.env.BENCH_DURATION ?? (ctx.quick ? 2 : 3));
    const warmup = Number(process.env.BENCH_WARMUP ?? (ctx.quick ? 1 : 2));
    const rounds = Number(process.env.BENCH_ROUNDS ?? (ctx.quick ? 2 : 9));
    // The CPU ratios come from short slices measured in turn after each round's runs (cpuSlices).
    const slices = Number(process.env.BENCH_CPU_SLICES ?? (ctx.quick ? 2 : 8));
    const sliceRequests = Number(process.env.BENCH_SLICE_REQUESTS ?? (ctx.quick ? 300 : 1000));
    const servers = selectedSetups().map((s) => ({ ...s, rps: [], p99: [], cpuPerRequest: [], userPerRequest: [], systemPerRequest: [], sliceCpu: [] }));
    if (servers.some((s) => s.id === 'eov' || s.id === 'fastify-glue')) bundledSpec(); // bundle once here, not in a server
    const sizes = new Map();
    for (let round = 0; round < rounds; round++) {
      // Fresh server processes every round: a process whose compiled code came out better or
      // worse (JIT, heap layout) would otherwise tilt one setup for the whole run.
      const running = [];
      try {
        for (const s of servers) running.push({ s, ...(await startServerProcess(s.setup)) });
        if (round === 0) for (const [path, bytes] of await sanityChecks(running)) sizes.set(path, bytes);
        for (const { s, origin } of running) {
          ctx.progress(`round ${round + 1}/${rounds}: warm-up ${s.id} (${warmup} s)`);
          if (warmup > 0) await loadTest(`${origin}${s.path}`, { connections, duration: warmup });
        }
        // Rotate the order each round so that a drift of the machine hits every setup alike.
        for (let k = 0; k < running.length; k++) {
          const { s, origin, cpu } = running[(round + k) % running.length];
          ctx.progress(`round ${round + 1}/${rounds}: ${s.id} (${duration} s)`);
          const before = await cpu();
          const r = await loadTest(`${origin}${s.path}`, { connections, duration });
          const after = await cpu();
          if (r.non2xx > 0 || r.errors > 0) throw new Error(`${s.id}: ${r.non2xx} non-2xx answers and ${r.errors} errors under load`);
          s.rps.push(r.rps);
          s.p99.push(r.p99);
          s.cpuPerRequest.push(cpuMicros(before, after) / r.total);
          s.userPerRequest.push((after.user - before.user) / r.total);
          s.systemPerRequest.push((after.system - before.system) / r.total);
        }
        if (slices > 0) {
          ctx.progress(`round ${round + 1}/${rounds}: CPU slices (${slices} × ${sliceRequests} requests per setup, in turn)`);
          const sliced = await cpuSlices(
            running.map(({ s, origin, cpu }) => ({ id: s.id, origin, path: s.path, cpu })),
            { slices, requests: sliceRequests, connections },
          );
          for (const s of servers) s.sliceCpu.push(...sliced.get(s.id));
        }
      } finally {
        for (const r of running) await r.stop();
      }
    }
    const runs = `${rounds} rounds × ${duration} s, ${warmup} s warm-up`;
    const bytes = (path) => (sizes.get(path) ?? 0).toLocaleString('en-US');
    ctx.note(
      `GET {prefix}/accounts/acc-001/transactions?fromBookingDateTime=… answered with 100 transactions (${bytes(SERVER_PATH)} bytes); the hub setups GET {prefix}/accounts/acc-001/transactions?page=37 (100 of 10,000 records, ${bytes(HUB_PATH)} bytes). ` +
        `autocannon in the harness process, ${connections} connections, over 127.0.0.1; each server in its own Node process (${process.version}), ${rounds} rounds, each with ${servers.length} fresh server processes (so that no setup keeps one process's luck with the JIT for the whole run), each warmed up for ${warmup} s, then measured in turn for ${duration} s each, the order rotating every round. ` +
        'In the first round every setup is checked to answer the same body as the others on its route (the origin in Links aside), and every validating setup to answer 400 to a malformed fromBookingDateTime. ' +
        'req/s: median over rounds (spread over rounds); p99: median of the rounds\' p99. "server CPU/request" is the server process\'s own CPU time (user + system, and each apart, from process.cpuUsage()) over the round divided by the requests it answered: steadier than req/s on a shared machine. Throughput ratios are taken round by round (setups measured seconds apart), then the median. ' +
        `The CPU ratios (a ÷ b, lower is better) come from slices: after each round's runs, ${slices} slices of ${sliceRequests} requests per setup over a keep-alive agent with ${connections} sockets, the setups in turn and the order rotating every slice, so that the two sides of a ratio are measured a fraction of a second apart; the ratio of each pair of slices, then the median over all rounds' slices (IQR beside it).`,
    );
    for (const s of servers) {
      ctx.row({
        id: `${s.id}-rps`,
        label: `${s.label}: requests/s`,
        unit: 'req/s',
        samples: s.rps,
        runs,
        detail: `server CPU/request ${median(s.cpuPerRequest).toFixed(0)} µs (${Math.min(...s.cpuPerRequest).toFixed(0)}–${Math.max(...s.cpuPerRequest).toFixed(0)})`,
        extra: { cpuMicrosPerRequest: summarize(s.cpuPerRequest) },
      });
      ctx.row({
        id: `${s.id}-cpu`,
        label: `${s.label}: server CPU per request`,
        unit: 'µs',
        samples: s.cpuPerRequest,
        runs,
        detail: `user ${median(s.userPerRequest).toFixed(0)} µs, system ${median(s.systemPerRequest).toFixed(0)} µs`,
      });
      ctx.row({ id: `${s.id}-cpu-user`, label: `${s.label}: server user CPU per request`, unit: 'µs', samples: s.userPerRequest, runs });
      ctx.row({ id: `${s.id}-cpu-system`, label: `${s.label}: server system (kernel) CPU per request`, unit: 'µs', samples: s.systemPerRequest, runs });
      ctx.row({ id: `${s.id}-p99`, label: `${s.label}: p99 latency`, unit: 'ms', samples: s.p99, runs });
      if (s.records) {
        ctx.row({ id: `${s.id}-records`, label: `${s.label}: records/s`, unit: 'rec/s', samples: s.rps.map((x) => x * s.records), runs, detail: `server CPU per page (${s.records} records) ${median(s.cpuPerRequest).toFixed(0)} µs` });
      }
    }
    const byId = new Map(servers.map((s) => [s.id, s]));
    for (const ratio of RATIOS) {
      const a = byId.get(ratio.a);
      const b = byId.get(ratio.b);
      if (!a || !b) continue;
      ctx.row({
        id: ratio.id,
        label: ratio.label,
        unit: '×',
        samples: a.rps.map((x, i) => x / b.rps[i]),
        runs: `${rounds} rounds`,
        goal: ratio.goal,
        detail: `by server CPU/request: ${(median(b.cpuPerRequest) / median(a.cpuPerRequest)).toFixed(2)}×; p99 ${median(a.p99).toFixed(1)} vs ${median(b.p99).toFixed(1)} ms`,
      });
    }
    for (const ratio of CPU_RATIOS) {
      const a = byId.get(ratio.a);
      const b = byId.get(ratio.b);
      if (!a || !b) continue;
      const bySlices = slices > 0;
      const inRounds = (x) => `${median(x.cpuPerRequest).toFixed(0)} µs in the rounds' runs (user ${median(x.userPerRequest).toFixed(0)}, system ${median(x.systemPerRequest).toFixed(0)})`;
      const share = (x) => (bySlices ? `${median(x.sliceCpu).toFixed(0)} µs in slices, ${inRounds(x)}` : inRounds(x));
      ctx.row({
        id: ratio.id,
        label: ratio.label,
        unit: '×',
        samples: bySlices ? a.sliceCpu.map((x, i) => x / b.sliceCpu[i]) : a.cpuPerRequest.map((x, i) => x / b.cpuPerRequest[i]),
        runs: bySlices ? `${rounds} rounds × ${slices} slices of ${sliceRequests} requests` : `${rounds} rounds`,
        ...(ratio.goal ? { goal: ratio.goal } : {}),
        detail: `${ratio.a} ${share(a)} vs ${ratio.b} ${share(b)}`,
      });
    }
  },
};

/** The origin-free JSON of a body, so that servers on different ports compare equal. */
const canonical = (text, origin) => JSON.stringify(JSON.parse(text.split(origin).join('ORIGIN')));

/**
 * Before anything is timed: every setup answers its route with 200 and the same body as the
 * other setups on that route, and every validating setup answers 400 to a malformed query
 * parameter. Returns the body size per route.
 */
async function sanityChecks(running) {
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
  const bodies = new Map();
  const sizes = new Map();
  for (const { s, origin } of running) {
    const probe = await fetch(`${origin}${s.path}`, { headers });
    const text = await probe.text();
    if (probe.status !== 200) throw new Error(`${s.id}: the probe was answered ${probe.status}: ${text.slice(0, 300)}`);
    const body = canonical(text, origin);
    const first = bodies.get(s.path);
    if (first && first.body !== body) throw new Error(`${s.id} answers another body than ${first.id} on ${s.path}`);
    if (!first) bodies.set(s.path, { id: s.id, body });
    sizes.set(s.path, Buffer.byteLength(text) - origin.length * (text.split(origin).length - 1) + 'http://127.0.0.1:NNNNN'.length * (text.split(origin).length - 1));
    if (s.bad) {
      const bad = await fetch(`${origin}${s.bad}`, { headers });
      await bad.arrayBuffer();
      if (bad.status !== 400) throw new Error(`${s.id}: a malformed fromBookingDateTime was answered ${bad.status}, not 400`);
    }
  }
  return sizes;
}
