/**
 * The LFI guard: a concurrency bound with a bounded queue, a circuit breaker with a probe
 * after the pause, retries with jittered backoff inside the caller's deadline; and over
 * loopback, a dead or hanging LFI answered in milliseconds once the circuit is open.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLfiGuard, fetchLfiJson, LfiResponseError, LfiUnavailableError } from '../src/runtime/index.js';

const down = () => Promise.reject(new LfiUnavailableError('refused', 'http://lfi'));
const notFound = () => Promise.reject(new LfiResponseError(404, undefined));
const kindOf = async (promise: Promise<unknown>) => promise.then(() => 'ok', (error: unknown) => (error instanceof LfiUnavailableError ? error.kind : (error as Error).constructor.name));

describe('createLfiGuard', () => {
  it('opens after consecutive failures, answers at once with Retry-After, probes after the pause, closes on success', async () => {
    let clock = 0;
    const guard = createLfiGuard({ failureThreshold: 3, openMs: 5_000, attempts: 1, now: () => clock });
    for (let i = 0; i < 3; i++) expect(await kindOf(guard.run(down))).toBe('refused');
    expect(guard.state().circuit).toBe('open');
    let called = 0;
    const counted = () => {
      called++;
      return Promise.resolve('fine');
    };
    const refused = await guard.run(counted).catch((error: LfiUnavailableError) => error);
    expect(refused).toBeInstanceOf(LfiUnavailableError);
    expect([(refused as LfiUnavailableError).kind, (refused as LfiUnavailableError).retryAfter, (refused as LfiUnavailableError).errors[0]!.code]).toEqual(['circuit-open', 5, 'GenericRecoverableError']);
    expect(called).toBe(0);
    clock = 5_000;
    expect(guard.state().circuit).toBe('half-open');
    // A failed probe opens it again for a whole pause.
    expect(await kindOf(guard.run(down))).toBe('refused');
    expect(guard.state().circuit).toBe('open');
    clock = 10_000;
    await expect(guard.run(counted)).resolves.toBe('fine');
    expect(guard.state()).toMatchObject({ circuit: 'closed', consecutiveFailures: 0 });
  });

  it('counts only unavailability: an error status is an answer', async () => {
    const guard = createLfiGuard({ failureThreshold: 2, attempts: 1 });
    await kindOf(guard.run(down));
    expect(await kindOf(guard.run(notFound))).toBe('LfiResponseError');
    await kindOf(guard.run(down));
    expect(guard.state().circuit).toBe('closed');
    const unavailable = () => Promise.reject(new LfiResponseError(503, undefined));
    await kindOf(guard.run(unavailable));
    expect(guard.state().circuit).toBe('open');
  });

  it('lets one probe through at a time when half-open', async () => {
    let clock = 0;
    const guard = createLfiGuard({ failureThreshold: 1, openMs: 100, attempts: 1, now: () => clock });
    await kindOf(guard.run(down));
    clock = 100;
    let release!: (v: string) => void;
    const probe = guard.run(() => new Promise<string>((resolve) => (release = resolve)));
    expect(await kindOf(guard.run(() => Promise.resolve('x')))).toBe('circuit-open');
    release('done');
    await expect(probe).resolves.toBe('done');
    await expect(guard.run(() => Promise.resolve('x'))).resolves.toBe('x');
  });

  it('bounds concurrent calls and the queue; beyond both, overloaded at once', async () => {
    const guard = createLfiGuard({ maxConcurrent: 2, maxQueued: 1 });
    const releases: Array<() => void> = [];
    const hold = () => new Promise<string>((resolve) => releases.push(() => resolve('held')));
    const first = guard.run(hold);
    const second = guard.run(hold);
    const queued = guard.run(hold);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(guard.state()).toMatchObject({ active: 2, queued: 1 });
    const beyond = await guard.run(hold).catch((error: LfiUnavailableError) => error);
    expect([(beyond as LfiUnavailableError).kind, (beyond as LfiUnavailableError).retryAfter]).toEqual(['overloaded', 1]);
    releases.shift()!();
    await first;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(guard.state()).toMatchObject({ active: 2, queued: 0 });
    for (const release of releases.splice(0)) release();
    await Promise.all([second, queued]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    releases.splice(0).forEach((r) => r());
    expect(guard.state()).toMatchObject({ active: 0, queued: 0 });
  });

  it('a queued call ends at its deadline', async () => {
    const guard = createLfiGuard({ maxConcurrent: 1, maxQueued: 5 });
    let release!: () => void;
    const holding = guard.run(() => new Promise<void>((resolve) => (release = resolve)));
    const started = performance.now();
    expect(await kindOf(guard.run(() => Promise.resolve(), { signal: AbortSignal.timeout(100) }))).toBe('timeout');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(guard.state().queued).toBe(0);
    release();
    await holding;
  });

  it('retries idempotent calls with jittered backoff, never past the deadline, never non-idempotent ones', async () => {
    const guard = createLfiGuard({ attempts: 3, baseDelayMs: 20, failureThreshold: 100, random: () => 1 });
    let calls = 0;
    const flaky = () => (++calls < 3 ? down() : Promise.resolve('third time'));
    await expect(guard.run(flaky, { idempotent: true })).resolves.toBe('third time');
    expect(calls).toBe(3);
    calls = 0;
    expect(await kindOf(guard.run(flaky, { idempotent: false }))).toBe('refused');
    expect(calls).toBe(1);
    // A deadline shorter than the backoff: one try, then the deadline's answer.
    const slow = createLfiGuard({ attempts: 5, baseDelayMs: 5_000, failureThreshold: 100, random: () => 1 });
    calls = 0;
    const started = performance.now();
    expect(await kindOf(slow.run(() => (calls++, down()), { idempotent: true, signal: AbortSignal.timeout(50) }))).toBe('refused');
    expect(calls).toBe(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('never retries sooner than the LFI’s Retry-After, and not at all when it asks for longer than the guard waits', async () => {
    const waits: number[] = [];
    const guard = createLfiGuard({ attempts: 2, maxDelayMs: 2_000, failureThreshold: 100, random: () => 0, wait: async (ms) => (waits.push(ms), true) });
    let calls = 0;
    const busy = (seconds: number) => () => (++calls === 1 ? Promise.reject(new LfiResponseError(503, undefined, seconds)) : Promise.resolve('back'));
    // Retry-After: 1, within the guard's 2 s: one retry, after a full second.
    await expect(guard.run(busy(1), { idempotent: true })).resolves.toBe('back');
    expect([calls, waits]).toEqual([2, [1_000]]);
    // Retry-After: 7, beyond it: one call, and the TPP is told to come back in 7 s.
    calls = 0;
    waits.length = 0;
    const refused = await guard.run(busy(7), { idempotent: true }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LfiResponseError);
    expect([(refused as LfiResponseError).status, (refused as LfiResponseError).retryAfter, (refused as LfiResponseError).errors[0]!.code]).toEqual([500, 7, 'GenericRecoverableError']);
    expect([calls, waits]).toEqual([1, []]);
    // Without Retry-After the backoff is the guard's own.
    calls = 0;
    await expect(guard.run(() => (++calls === 1 ? Promise.reject(new LfiResponseError(503, undefined)) : Promise.resolve('back')), { idempotent: true })).resolves.toBe('back');
    expect(waits).toEqual([0]);
  });
});

describe('the guard over loopback', () => {
  it('a hanging LFI costs the timeout until the circuit opens, then milliseconds; a healthy one is unaffected', async () => {
    const sockets = new Set<Socket>();
    const start = async (handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; origin: string }> => {
      const server = createServer(handler);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
    };
    const hanging = await start(() => {});
    const healthy = await start((_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[]}'));
    try {
      const hangingGuard = createLfiGuard({ failureThreshold: 3, openMs: 60_000, attempts: 1 });
      const healthyGuard = createLfiGuard();
      const timings: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const kind = await kindOf(fetchLfiJson(`${hanging.origin}/x`, { guard: hangingGuard, timeoutMs: 200 }));
        timings.push(performance.now() - started);
        expect(kind).toBe(i < 3 ? 'timeout' : 'circuit-open');
      }
      expect(Math.min(...timings.slice(0, 3))).toBeGreaterThanOrEqual(150);
      expect(Math.max(...timings.slice(3))).toBeLessThan(20);
      const started = performance.now();
      await expect(fetchLfiJson(`${healthy.origin}/x`, { guard: healthyGuard })).resolves.toEqual({ data: [] });
      expect(performance.now() - started).toBeLessThan(200);
    } finally {
      for (const s of sockets) s.destroy();
      await Promise.all([hanging, healthy].map(({ server }) => new Promise<void>((resolve) => server.close(() => resolve()))));
    }
  });
});
