// Times a stream of small Server-Sent Events through the generated router and client of the
// OpenAPI 3.2 test document: validated on both ends, and with validation off on both ends (the
// same router, client and codecs, writing and parsing only). Server and client share this
// process, so a rate is what one core does for both ends; setups alternate per round.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import express from 'express';

const config = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { dir, events, rounds, warmups } = config;

const { createRouter } = await import(path.join(dir, 'server/index.js'));
const { createClient } = await import(path.join(dir, 'client/index.js'));

const DATA = JSON.stringify({ symbol: 'ABC', price: 101.25, at: '2026-01-01T10:00:00Z' });

function events$(count) {
  return (function* () {
    for (let n = 1; n <= count; n++) yield { id: String(n), event: 'quote', data: DATA };
  })();
}

async function serve(validate) {
  const app = express();
  app.use(
    createRouter(
      { streamQuotes: () => ({ status: 200, body: events$(events) }) },
      { authorize: () => ({ scopes: [] }), validateRequests: validate, validateResponses: validate, onMissingHandlers: () => undefined },
    ),
  );
  const server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

const setups = [
  { id: 'validated', validate: true },
  { id: 'unvalidated', validate: false },
];
for (const setup of setups) {
  setup.running = await serve(setup.validate);
  setup.client = createClient({ baseUrl: `${setup.running.origin}/feed`, credentials: { bearer: 't' }, retry: false, validate: setup.validate });
  setup.rates = [];
}

async function readAll(setup) {
  const started = process.hrtime.bigint();
  const result = await setup.client.streamQuotes();
  let count = 0;
  let last;
  for await (const item of result.body) {
    count++;
    last = item;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (count !== events || last.id !== String(events)) throw new Error(`${setup.id}: read ${count} events, expected ${events}`);
  return count / seconds;
}

try {
  for (let i = 0; i < warmups; i++) for (const setup of setups) await readAll(setup);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < setups.length; k++) {
      const setup = setups[(round + k) % setups.length];
      setup.rates.push(await readAll(setup));
    }
  }
  console.log(JSON.stringify({ ok: true, events, node: process.version, rates: Object.fromEntries(setups.map((s) => [s.id, s.rates])) }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, error: String(error?.stack ?? error) }));
} finally {
  for (const setup of setups) setup.running.server.close();
}
