// What the server and client suites share: valid v2.2 transactions, HTTP servers run in a
// child process (src/workers/http-server.mjs, so that the load generator or the reader does
// not share a core and an event loop with the server it measures), and autocannon.
import { fork, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './paths.mjs';

const require = createRequire(import.meta.url);

export const PREFIX = '/open-finance/account-information/v2.2';
export const ACCOUNT = 'acc-001';
export const TOKEN = 'bench-token';
/** The route of the server suite: GET transactions with a filter, 100 records in the answer. */
export const SERVER_PATH = `${PREFIX}/accounts/${ACCOUNT}/transactions?fromBookingDateTime=2024-01-01T00%3A00%3A00Z`;
/** The route the client suite pages through. */
export const PAGED_PATH = `${PREFIX}/accounts/${ACCOUNT}/transactions`;

/** The route of the hub setups: page 37 of 100 (pages of 100 over 10,000 records). */
export const HUB_PATH = `${PAGED_PATH}?page=37`;

/**
 * The bundled v2.2 contract (spec/dist, gitignored) that express-openapi-validator reads;
 * bundled with spec/scripts/bundle.mjs when missing.
 */
export function bundledSpec() {
  const file = path.join(repoRoot, 'spec/dist/v2.2-account-information.yaml');
  if (!existsSync(file)) {
    const res = spawnSync(process.execPath, ['scripts/bundle.mjs'], { cwd: path.join(repoRoot, 'spec'), encoding: 'utf8', timeout: 120_000 });
    if (res.status !== 0 || !existsSync(file)) throw new Error(`bundling the v2.2 spec failed: ${(res.stderr || res.stdout || String(res.error)).trim().slice(0, 1000)}`);
  }
  return file;
}

/** `count` valid v2.2 transactions, newest first (one minute apart), ids descending. */
export function transactions(count, newest = Date.UTC(2026, 0, 1)) {
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(newest - i * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    return {
      TransactionId: `tx-${String(count - i).padStart(6, '0')}`,
      TransactionDateTime: at,
      TransactionType: 'POS',
      SubTransactionType: 'Purchase',
      CreditDebitIndicator: 'Debit',
      Status: 'Booked',
      BookingDateTime: at,
      TransactionInformation: `Card purchase ${i}`,
      Amount: { Amount: '12.50', Currency: 'AED' },
    };
  });
}

const workerPath = fileURLToPath(new URL('../workers/http-server.mjs', import.meta.url));

/**
 * Starts `setup` (see the worker) in a child Node process on 127.0.0.1.
 * @param {string} setup
 * @param {{ execArgv?: string[], env?: Record<string, string> }} [options]
 * @returns {Promise<{ origin: string, pid: number, cpu(): Promise<{ user: number, system: number }>, stop(): Promise<void> }>}
 */
export function startServerProcess(setup, { execArgv = [], env } = {}) {
  const child = fork(workerPath, [setup], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], ...(env ? { env: { ...process.env, ...env } } : {}) });
  let exited = false;
  const waiting = new Map();
  let seq = 0;
  child.on('message', (msg) => {
    if (msg?.type === 'cpu' && waiting.has(msg.seq)) {
      // The usage, with the rest of the report beside it for those who read it (router-profile.mjs).
      waiting.get(msg.seq)(Object.assign(msg.usage, { resources: msg.resources, gc: msg.gc }));
      waiting.delete(msg.seq);
    }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${setup}: the server process did not start within 30 s`));
    }, 30_000);
    child.once('exit', (code) => {
      exited = true;
      clearTimeout(timer);
      reject(new Error(`${setup}: the server process exited with ${code} before listening`));
    });
    child.on('message', (msg) => {
      if (msg?.type !== 'listening') return;
      clearTimeout(timer);
      resolve({
        origin: `http://127.0.0.1:${msg.port}`,
        pid: child.pid,
        cpu: () =>
          new Promise((done) => {
            const id = ++seq;
            waiting.set(id, done);
            child.send({ type: 'cpu', seq: id });
          }),
        stop: () =>
          new Promise((done) => {
            if (exited) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            // A clean exit, so that --cpu-prof can write its profile.
            child.send({ type: 'stop' });
          }),
      });
    });
  });
}

/**
 * One autocannon run against `url`, bounded by `duration` seconds.
 * @returns {Promise<{ rps: number, p99: number, p50: number, total: number, non2xx: number, errors: number, bytes: number }>}
 */
export async function loadTest(url, { connections = 10, duration = 5 } = {}) {
  const autocannon = require('autocannon');
  const result = await autocannon({ url, connections, duration, headers: { authorization: `Bearer ${TOKEN}`, accept: 'application/json' } });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytes: result.throughput.total,
  };
}

/** CPU microseconds (user + system) between two `process.cpuUsage()` readings. */
export const cpuMicros = (before, after) => after.user - before.user + (after.system - before.system);

/**
 * Server CPU per request of each server, from short slices measured in turn: `slices` slices of
 * `requests` requests per server, the order rotating every slice. The load of a shared machine
 * drifts over seconds, so two setups measured back to back in slices of about a quarter of a
 * second see nearly the same machine, and the ratio of each pair of slices is steadier than the
 * ratio of two 3-second runs. The requests go over a keep-alive agent with `connections`
 * sockets, in this process (as autocannon does); only the servers' CPU is counted.
 *
 * @param {Array<{ id: string, origin: string, path: string, cpu(): Promise<{ user: number, system: number }> }>} servers
 * @returns {Promise<Map<string, number[]>>} µs per request of each slice, by server id; slice i of one server was measured next to slice i of the others
 */
export async function cpuSlices(servers, { slices = 8, requests = 1000, connections = 10 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
  const get = (url) =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url}: status ${res.statusCode}`))));
        })
        .on('error', reject);
    });
  const load = async (url) => {
    let left = requests;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (left-- > 0) await get(url);
      }),
    );
  };
  const out = new Map(servers.map((s) => [s.id, []]));
  try {
    for (let i = 0; i < slices; i++) {
      for (let k = 0; k < servers.length; k++) {
        const s = servers[(i + k) % servers.length];
        const before = await s.cpu();
        await load(`${s.origin}${s.path}`);
        const after = await s.cpu();
        out.get(s.id).push(cpuMicros(before, after) / requests);
      }
    }
  } finally {
    agent.destroy();
  }
  return out;
}
