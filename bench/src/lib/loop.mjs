// An explicit throughput loop. Each case is a function returning true when its input is valid.
// 1. warm-up: call it for `warmupMs` (so the JIT has optimised it);
// 2. calibrate: find a batch size that takes about `batchMs`;
// 3. time `batches` batches of each case, interleaving the cases batch by batch (the order
//    rotates every round) so a drift of the machine hits every case alike;
// 4. report ops/s as the median over batches, with min–max and IQR.
// Each batch is timed on two clocks: wall (performance.now) and the process's CPU time
// (process.cpuUsage, user + system, all threads, so GC helper threads count). `clock` picks
// the one reported; on a shared machine CPU time is far steadier, since time spent waiting
// for a core is not counted. Both are returned.
// Every call's result is counted and checked afterwards (all must be valid), which both keeps
// the work from being optimised away and proves that what was timed succeeded.
import { summarize } from './stats.mjs';

const MAX_BATCH = 5_000_000;

function timeBatch(fn, iterations) {
  let ok = 0;
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < iterations; i++) if (fn()) ok++;
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000, ok };
}

/**
 * @param {{ id: string, fn: () => boolean }[]} cases
 * @param {{ warmupMs?: number, batchMs?: number, batches?: number, clock?: 'cpu' | 'wall' }} [options]
 */
export function measureThroughput(cases, { warmupMs = 300, batchMs = 50, batches = 10, clock = 'cpu' } = {}) {
  const elapsed = (t) => (clock === 'cpu' ? t.cpuMs : t.wallMs);
  const plan = cases.map((c) => {
    // warm-up, bounded by time and by count
    const warmEnd = performance.now() + warmupMs;
    let warmCalls = 0;
    while (performance.now() < warmEnd && warmCalls < 10 * MAX_BATCH) {
      timeBatch(c.fn, 64);
      warmCalls += 64;
    }
    // calibrate: double until a batch takes at least a quarter of batchMs, then scale
    let iterations = 16;
    let sample = timeBatch(c.fn, iterations);
    while (elapsed(sample) < batchMs / 4 && iterations < MAX_BATCH) {
      iterations *= 2;
      sample = timeBatch(c.fn, iterations);
    }
    iterations = Math.max(1, Math.min(MAX_BATCH, Math.round((iterations * batchMs) / Math.max(elapsed(sample), 0.001))));
    return { ...c, warmCalls, iterations, cpu: [], wall: [], calls: 0, ok: 0 };
  });
  for (let b = 0; b < batches; b++) {
    for (let k = 0; k < plan.length; k++) {
      const p = plan[(b + k) % plan.length];
      const t = timeBatch(p.fn, p.iterations);
      // a batch too short for the CPU clock's resolution would divide by ~0: count it as 1 µs
      p.cpu.push(p.iterations / (Math.max(t.cpuMs, 0.001) / 1000));
      p.wall.push(p.iterations / (Math.max(t.wallMs, 0.001) / 1000));
      p.calls += p.iterations;
      p.ok += t.ok;
    }
  }
  return plan.map((p) => {
    if (p.ok !== p.calls) throw new Error(`${p.id}: ${p.calls - p.ok} of ${p.calls} timed calls reported invalid`);
    const samples = clock === 'cpu' ? p.cpu : p.wall;
    return {
      id: p.id,
      clock,
      opsPerSec: summarize(samples),
      samples,
      wallOpsPerSec: summarize(p.wall),
      cpuOpsPerSec: summarize(p.cpu),
      batches,
      batchSize: p.iterations,
      warmupMs,
      warmupCalls: p.warmCalls,
    };
  });
}
