// Server: requests per second and p99 latency of GET transactions (100 records, about 30 kB)
// through the generated v2.2 router with validation on, with request validation only, with
// validation off, and through a bare Express route sending the same bytes. autocannon on
// 127.0.0.1 in this process; each server in its own child process (one core each on a 2-core
// machine), four fresh ones every round, measured in turn.
// (This replaces packages/server-stubs/bench/validation.bench.mjs, which ran server and load
// generator in one process; `pnpm --filter @bank-data-sharing/server-stubs bench` runs this suite.)
import { cpuMicros, loadTest, SERVER_PATH, startServerProcess } from '../src/lib/http-bench.mjs';
import { median, summarize } from '../src/lib/stats.mjs';

const SETUPS = [
  { id: 'validated', setup: 'router-validated', label: 'generated router, validation on (requests and responses, the default)' },
  { id: 'requests-only', setup: 'router-requests', label: 'generated router, requests validated, responses not' },
  { id: 'off', setup: 'router-off', label: 'generated router, validation off' },
  { id: 'bare', setup: 'bare', label: 'bare Express route, same bytes' },
];

export default {
  id: 'server',
  title: 'Server stubs over HTTP (GET transactions, 100 records)',
  description: 'autocannon req/s and p99 through the generated v2.2 router (validation on, requests only, off) and a bare Express route',
  async run(ctx) {
    const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
    const duration = Number(process.env.BENCH_DURATION ?? (ctx.quick ? 2 : 3));
    const warmup = Number(process.env.BENCH_WARMUP ?? (ctx.quick ? 1 : 2));
    const rounds = Number(process.env.BENCH_ROUNDS ?? (ctx.quick ? 2 : 9));
    const servers = SETUPS.map((s) => ({ ...s, rps: [], p99: [], cpuPerRequest: [] }));
    let bodyBytes = 0;
    for (let round = 0; round < rounds; round++) {
      // Fresh server processes every round: a process whose compiled code came out better or
      // worse (JIT, heap layout) would otherwise tilt one setup for the whole run.
      const running = [];
      try {
        for (const s of servers) running.push({ s, ...(await startServerProcess(s.setup)) });
        if (round === 0) bodyBytes = await sameAnswers(running);
        for (const { s, origin } of running) {
          ctx.progress(`round ${round + 1}/${rounds}: warm-up ${s.id} (${warmup} s)`);
          if (warmup > 0) await loadTest(`${origin}${SERVER_PATH}`, { connections, duration: warmup });
        }
        // Rotate the order each round so that a drift of the machine hits every setup alike.
        for (let k = 0; k < running.length; k++) {
          const { s, origin, cpu } = running[(round + k) % running.length];
          ctx.progress(`round ${round + 1}/${rounds}: ${s.id} (${duration} s)`);
          const before = await cpu();
          const r = await loadTest(`${origin}${SERVER_PATH}`, { connections, duration });
          const after = await cpu();
          if (r.non2xx > 0 || r.errors > 0) throw new Error(`${s.id}: ${r.non2xx} non-2xx answers and ${r.errors} errors under load`);
          s.rps.push(r.rps);
          s.p99.push(r.p99);
          s.cpuPerRequest.push(cpuMicros(before, after) / r.total);
        }
      } finally {
        for (const r of running) await r.stop();
      }
    }
    const runs = `${rounds} rounds × ${duration} s, ${warmup} s warm-up`;
    ctx.note(
      `GET {prefix}/accounts/acc-001/transactions?fromBookingDateTime=… answered with 100 transactions (${bodyBytes.toLocaleString('en-US')} bytes). ` +
        `autocannon in the harness process, ${connections} connections, over 127.0.0.1; each server in its own Node process (${process.version}), ${rounds} rounds, each with four fresh server processes (so that no setup keeps one process's luck with the JIT for the whole run), each warmed up for ${warmup} s, then measured in turn for ${duration} s each, the order rotating every round. ` +
        'req/s: median over rounds (spread over rounds); p99: median of the rounds\' p99. "server CPU/request" is the server process\'s own CPU time (user + system) over the round divided by the requests it answered: steadier than req/s on a shared machine.',
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
      ctx.row({ id: `${s.id}-p99`, label: `${s.label}: p99 latency`, unit: 'ms', samples: s.p99, runs });
    }
    const [validated, requestsOnly, off] = servers;
    for (const [setup, id, label] of [
      [validated, 'validated-vs-off', 'validation on ÷ validation off (throughput)'],
      [requestsOnly, 'requests-only-vs-off', 'requests validated only ÷ validation off (throughput)'],
    ]) {
      ctx.row({
        id,
        label,
        unit: '×',
        samples: setup.rps.map((x, i) => x / off.rps[i]),
        runs: `${rounds} rounds`,
        goal: { text: 'within 20 % (≥ 0.80×)', test: (m) => m >= 0.8 },
        detail: `by server CPU/request: ${(median(off.cpuPerRequest) / median(setup.cpuPerRequest)).toFixed(2)}×`,
      });
    }
  },
};

/** Every setup answers the probe with 200 and a body of the same size; returns that size. */
async function sameAnswers(running) {
  const sizes = new Set();
  for (const { s, origin } of running) {
    const probe = await fetch(`${origin}${SERVER_PATH}`, { headers: { authorization: 'Bearer bench-token' } });
    const bytes = (await probe.arrayBuffer()).byteLength;
    if (probe.status !== 200) throw new Error(`${s.id}: the probe was answered ${probe.status}`);
    sizes.add(bytes - origin.length); // Links.Self holds the origin, whose port differs
  }
  if (sizes.size !== 1) throw new Error(`the setups answer bodies of different sizes: ${[...sizes].join(', ')}`);
  return [...sizes][0] + running[0].origin.length;
}
