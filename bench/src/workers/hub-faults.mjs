// The hub under faults, in its own process: `node hub-faults.mjs`. In this one process (so
// that they compete for it as a hub's LFIs do):
//   healthy  a sandbox hub in front of the sandbox LFI (small data)
//   hanging  a sandbox hub in front of an LFI that accepts connections and never answers
//   down     a sandbox hub in front of an LFI whose port refuses connections
//   huge     a sandbox hub in front of an LFI that streams a 50 MB answer to every call
// It tells its parent the hubs' URLs and tokens (IPC { type: 'ready', hubs }), answers
// { type: 'memory' } with its resident memory now and at its peak, and exits on { type: 'stop' }.
import { createServer } from 'node:http';
import { startSandbox } from '../../../apps/sandbox/dist/index.js';

const SMALL = { seed: 7, customers: 2, years: 0.25, perDay: 2 };
const sockets = new Set();
const servers = [];

async function lfiServer(handler) {
  const server = createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${server.address().port}`;
}

const hanging = await lfiServer(() => {});
const chunk = Buffer.alloc(64 * 1024, 0x20);
const huge = await lfiServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  let sent = 0;
  const pump = () => {
    while (sent < 50 * 1024 * 1024) {
      sent += chunk.byteLength;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.on('close', () => (sent = Infinity));
  pump();
});
// A port that refuses: bound, then released.
const closed = createServer();
await new Promise((resolve) => closed.listen(0, '127.0.0.1', resolve));
const down = `http://127.0.0.1:${closed.address().port}`;
await new Promise((resolve) => closed.close(resolve));

const quiet = { onError: () => {}, onLfiFailure: () => {} };
const healthyHub = await startSandbox({ hubPort: 0, lfiPort: 0, data: SMALL, ...quiet });
const elsewhere = (origin) => startSandbox({ hubPort: 0, data: SMALL, lfi: { origin, credential: 'bench', accountIds: ['acc-1'] }, lfiAccess: { timeoutMs: 2_000, requestDeadlineMs: 2_000 }, ...quiet });
const hubs = { healthy: healthyHub, hanging: await elsewhere(hanging), down: await elsewhere(down), huge: await elsewhere(huge) };

process.on('message', async (msg) => {
  if (msg?.type === 'memory') {
    process.send({ type: 'memory', seq: msg.seq, rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024 });
  } else if (msg?.type === 'stop') {
    for (const s of sockets) s.destroy();
    await Promise.all(Object.values(hubs).map((h) => h.close()));
    for (const server of servers) server.close();
    process.exit(0);
  }
});
process.send({
  type: 'ready',
  hubs: Object.fromEntries(Object.entries(hubs).map(([name, h]) => [name, { url: `${h.baseUrls['v2.2']}/accounts`, token: h.seeded.token.accessToken }])),
});
