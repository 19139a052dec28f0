// The hub under faults (issue "The hub under faults"): in one hub process, a hub in front of a
// healthy LFI beside hubs in front of a hanging LFI, a down one and one sending 50 MB answers
// (src/workers/hub-faults.mjs). Figures: the healthy hub's throughput and p99 while the hanging
// LFI is under load, against the same alone; the time to answer a TPP whose LFI is down, before
// and after the circuit opens; the hub process's memory growth while its LFI sends 50 MB answers.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { median } from '../src/lib/stats.mjs';

const require = createRequire(import.meta.url);
/** TPP requests per second to the hub whose LFI hangs: steady traffic, not a flood. */
const HANGING_RATE = 100;
const worker = fileURLToPath(new URL('../src/workers/hub-faults.mjs', import.meta.url));

function startWorker() {
  const child = fork(worker, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let seq = 0;
  const waiting = new Map();
  child.on('message', (msg) => {
    if (msg?.type === 'memory') waiting.get(msg.seq)?.(msg);
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the hub process did not start within 60 s'));
    }, 60_000);
    child.once('exit', (code) => reject(new Error(`the hub process exited with ${code}`)));
    child.on('message', (msg) => {
      if (msg?.type !== 'ready') return;
      clearTimeout(timer);
      resolve({
        hubs: msg.hubs,
        memory: () =>
          new Promise((done) => {
            const id = ++seq;
            waiting.set(id, done);
            child.send({ type: 'memory', seq: id });
          }),
        stop: () =>
          new Promise((done) => {
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.removeAllListeners('exit');
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.send({ type: 'stop' });
          }),
      });
    });
  });
}

function load(hub, { connections, duration, rate }) {
  const autocannon = require('autocannon');
  return autocannon({ url: hub.url, connections, duration, timeout: 10, ...(rate ? { overallRate: rate } : {}), headers: { authorization: `Bearer ${hub.token}`, accept: 'application/json' } }).then((r) => ({
    rps: r.requests.average,
    p99: r.latency.p99,
    total: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  }));
}

async function timed(hub) {
  const started = performance.now();
  const res = await fetch(hub.url, { headers: { authorization: `Bearer ${hub.token}` } });
  const body = await res.json().catch(() => undefined);
  return { ms: performance.now() - started, status: res.status, code: body?.Errors?.[0]?.Code, retryAfter: res.headers.get('retry-after') };
}

export default {
  id: 'hub-faults',
  title: 'The hub under faults',
  description: 'healthy hub throughput and p99 beside a hanging LFI, time to answer when the LFI is down before and after the circuit opens, memory while an LFI sends 50 MB answers',
  async run(ctx) {
    const duration = ctx.quick ? 3 : 6;
    const rounds = ctx.quick ? 1 : 3;
    const hubProcess = await startWorker();
    try {
      const { hubs } = hubProcess;
      // Warm-up: JIT and the sandbox's first pages.
      await load(hubs.healthy, { connections: 10, duration: 2 });
      const alone = [];
      const beside = [];
      for (let round = 0; round < rounds; round++) {
        ctx.progress(`round ${round + 1}/${rounds}: the healthy hub alone, then beside the hanging LFI`);
        alone.push(await load(hubs.healthy, { connections: 10, duration }));
        const [healthy, hanging] = await Promise.all([load(hubs.healthy, { connections: 10, duration }), load(hubs.hanging, { connections: 50, duration, rate: HANGING_RATE })]);
        beside.push({ ...healthy, hangingAnswered: hanging.total, hangingNon2xx: hanging.non2xx });
      }
      const ratio = median(beside.map((b) => b.rps)) / median(alone.map((a) => a.rps));
      ctx.row({ id: 'healthy-alone-rps', label: 'healthy hub, alone: requests/s (GET /accounts)', unit: 'req/s', samples: alone.map((a) => a.rps), runs: `${rounds} rounds of ${duration} s, 10 connections` });
      ctx.row({
        id: 'healthy-beside-rps',
        label: `healthy hub, while ${HANGING_RATE} req/s go to the hanging LFI's hub: requests/s`,
        unit: 'req/s',
        samples: beside.map((b) => b.rps),
        runs: `${rounds} rounds of ${duration} s, 10 connections (+ 50 at ${HANGING_RATE} req/s)`,
        detail: `the hanging hub answered ${beside.map((b) => b.hangingAnswered).join(', ')} requests (all ${beside.every((b) => b.hangingNon2xx === b.hangingAnswered) ? 'non-2xx' : 'mixed'})`,
      });
      ctx.row({ id: 'healthy-ratio', label: 'healthy hub beside the hanging LFI / alone (throughput)', unit: '×', samples: [ratio], runs: 'medians of the rounds', goal: { text: '≥ 0.9×', test: (m) => m >= 0.9 } });
      ctx.row({ id: 'healthy-alone-p99', label: 'healthy hub, alone: p99', unit: 'ms', samples: alone.map((a) => a.p99), runs: `${rounds} rounds` });
      ctx.row({ id: 'healthy-beside-p99', label: 'healthy hub, beside the hanging LFI: p99', unit: 'ms', samples: beside.map((b) => b.p99), runs: `${rounds} rounds` });

      ctx.progress('the down LFI: sequential requests until the circuit opens');
      const answers = [];
      for (let i = 0; i < 15; i++) answers.push(await timed(hubs.down));
      const before = answers.filter((a) => a.retryAfter === null);
      const after = answers.filter((a) => a.retryAfter !== null);
      ctx.row({ id: 'down-before-open', label: 'LFI down, circuit closed: time to answer the TPP', unit: 'ms', samples: before.map((a) => a.ms), runs: `${before.length} sequential requests`, detail: `answers: ${[...new Set(before.map((a) => `${a.status} ${a.code}`))].join(', ')}` });
      ctx.row({ id: 'down-after-open', label: 'LFI down, circuit open: time to answer the TPP', unit: 'ms', samples: after.map((a) => a.ms), runs: `${after.length} sequential requests`, detail: `answers: ${[...new Set(after.map((a) => `${a.status} ${a.code} Retry-After ${a.retryAfter}`))].join(', ')}` });

      ctx.progress('the 50 MB LFI: memory of the hub process');
      const idle = await hubProcess.memory();
      const huge = await load(hubs.huge, { connections: 10, duration });
      const after50 = await hubProcess.memory();
      ctx.row({
        id: 'huge-memory-growth',
        label: 'peak memory growth of the hub process while its LFI sends 50 MB answers',
        unit: 'MB',
        samples: [(after50.maxRss - idle.rss) / 1024 / 1024],
        runs: `${duration} s, 10 connections`,
        detail: `resident ${Math.round(idle.rss / 1048576)} MB before, peak ${Math.round(after50.maxRss / 1048576)} MB (the peak includes start-up); ${huge.total} TPP requests answered, ${huge.non2xx} non-2xx; limit 16 MB per answer`,
      });
      ctx.note('One hub process holds four sandbox hubs (each with one LFI), standing for one hub with four LFIs: they share its event loop and memory. autocannon runs in the harness process over 127.0.0.1. The LFI guard has its defaults (16 concurrent calls, 32 queued, circuit open after 5 consecutive failures for 10 s, one retry); the hubs in front of the faulty LFIs allow 2 s per call and per TPP request.');
    } finally {
      await hubProcess.stop();
    }
  },
};
