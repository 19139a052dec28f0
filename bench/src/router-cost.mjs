#!/usr/bin/env node
// The generated v2.2 router's own CPU per request, without HTTP: the router is called with
// stub request and response objects (the bench server's route, handler and options), so
// that what is left is routing, Accept, security, request checks, the handler, the response
// check and serialisation, and none of Express, Node's HTTP code or the socket.
//
//   node src/router-cost.mjs [--rounds 3] [--requests 20000]
//
// Each measurement runs in a fresh Node process (modes alternating, one of each per round),
// and prints the median CPU time per request of each mode, with a 100-transaction body and
// with a one-transaction body, beside JSON.stringify and Buffer.from of the same body alone.
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ACCOUNT, SERVER_PATH, TOKEN, transactions } from './lib/http-bench.mjs';
import { median } from './lib/stats.mjs';
import { optionReader } from './lib/args.mjs';

const args = process.argv.slice(2);
const text = optionReader(args);
const option = (name, fallback) => {
  const value = text(name, undefined);
  return value === undefined ? fallback : Number(value);
};
const requests = option('requests', 20_000);

if (args[0] === '--child') await child(args[1], args[2], requests);
else parent(option('rounds', 3));

function parent(rounds) {
  const modes = [];
  for (const records of ['100', '1']) for (const mode of ['validated', 'requests', 'off', 'serialise']) if (mode !== 'serialise' || records === '100') modes.push([mode, records]);
  const samples = new Map(modes.map((m) => [m.join('/'), []]));
  const self = fileURLToPath(import.meta.url);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < modes.length; k++) {
      const [mode, records] = modes[(round + k) % modes.length];
      const res = spawnSync(process.execPath, [self, '--child', mode, records, '--requests', String(requests)], { encoding: 'utf8', timeout: 120_000 });
      if (res.status !== 0) throw new Error(`${mode}: ${res.stderr}`);
      const out = JSON.parse(res.stdout.trim());
      for (const [key, value] of Object.entries(out)) {
        const id = `${mode}/${records}${key === 'cpu' ? '' : `/${key}`}`;
        if (!samples.has(id)) samples.set(id, []);
        samples.get(id).push(value);
      }
    }
  }
  process.stdout.write(`CPU per request, median of ${rounds} fresh processes each (${requests.toLocaleString('en-US')} requests after 5,000 warm-up):\n`);
  for (const [id, values] of samples) if (values.length > 0) process.stdout.write(`  ${id.padEnd(30)} ${median(values).toFixed(1).padStart(7)} µs  (${values.map((v) => v.toFixed(1)).join(', ')})\n`);
}

async function child(mode, records, n) {
  const page = transactions(Number(records), Date.UTC(2025, 2, 14, 12));
  const body = (self) => ({ Data: { AccountId: ACCOUNT, Transaction: page }, Links: { Self: self }, Meta: { TotalPages: 1 } });
  const cpuPer = (f, count) => {
    const start = process.cpuUsage();
    for (let i = 0; i < count; i++) f();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / count;
  };
  if (mode === 'serialise') {
    const text = JSON.stringify(body('http://127.0.0.1:40000/x'));
    cpuPer(() => JSON.stringify(body('x')), 3000);
    const stringify = cpuPer(() => JSON.stringify(body('http://127.0.0.1:40000/x')), n);
    cpuPer(() => Buffer.from(text, 'utf8'), 3000);
    const buffer = cpuPer(() => Buffer.from(text, 'utf8'), n);
    process.stdout.write(`${JSON.stringify({ stringify, bufferFrom: buffer })}\n`);
    return;
  }
  const { createRouter } = await import('@bank-data-sharing/server-stubs/v2.2');
  const handlers = new Proxy(
    { GetAccountsAccountIdTransactions: (req) => ({ status: 200, body: body(req.url) }) },
    { get: (target, name) => target[name] ?? (() => { throw new Error('not used'); }), has: () => true },
  );
  const router = createRouter(handlers, {
    authorize: ({ credential }) => (credential === TOKEN ? { scopes: ['openid', 'accounts'], permissions: ['ReadTransactionsBasic'] } : undefined),
    verification: { key: generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey, algorithms: ['ES256'] },
    validateRequests: mode !== 'off',
    validateResponses: mode === 'validated',
    onMissingHandlers: () => {},
  });
  const headers = { host: '127.0.0.1:40000', authorization: `Bearer ${TOKEN}`, accept: 'application/json' };
  const once = () =>
    new Promise((resolve, reject) => {
      const sent = {};
      const res = {
        statusCode: 200,
        headersSent: false,
        writableEnded: false,
        destroyed: false,
        setHeader: (name, value) => void (sent[name] = value),
        getHeader: (name) => sent[name],
        end(payload) {
          this.writableEnded = true;
          if (this.statusCode !== 200) reject(new Error(`answered ${this.statusCode}`));
          else resolve(payload);
        },
      };
      router({ url: SERVER_PATH, method: 'GET', headers, socket: {} }, res, () => reject(new Error('not handled')));
    });
  for (let i = 0; i < 5000; i++) await once();
  const start = process.cpuUsage();
  for (let i = 0; i < n; i++) await once();
  const used = process.cpuUsage(start);
  process.stdout.write(`${JSON.stringify({ cpu: (used.user + used.system) / n })}\n`);
}
