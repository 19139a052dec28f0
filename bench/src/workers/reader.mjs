// One reader of the client suite in its own process: `node --expose-gc reader.mjs <origin> <kind>`,
// kind `client` (validation on), `client-novalidate` or `raw` (a hand-written fetch loop). Each
// { type: 'read', seq } message reads all 10,000 transactions once and answers
// { type: 'read', seq, count, ms, cpu } (wall ms, CPU µs of this process); { type: 'stop' } exits.
// A process per reader, as a TPP's service runs the client alone: one reader's compiled code
// and garbage do not weigh on another's figures.
import { createClient } from '@bank-data-sharing/client/v2.2';
import { readAll, staticToken } from '@bank-data-sharing/client/runtime';
import { ACCOUNT, PAGED_PATH, TOKEN } from '../lib/http-bench.mjs';

const [origin, kind] = process.argv.slice(2);

function reader() {
  if (kind === 'raw') {
    // What a caller would write by hand: fetch, parse, follow Links.Next.
    return async () => {
      let count = 0;
      let next = `${origin}${PAGED_PATH}`;
      while (next) {
        const response = await fetch(next, { headers: { accept: 'application/json', authorization: `Bearer ${TOKEN}`, 'x-fapi-interaction-id': crypto.randomUUID() } });
        const body = await response.json();
        count += body.Data.Transaction.length;
        next = body.Links.Next;
      }
      return count;
    };
  }
  if (kind !== 'client' && kind !== 'client-novalidate') throw new Error(`unknown reader ${kind}`);
  const client = createClient({ origin, retry: false, tokens: staticToken(TOKEN), validate: kind === 'client' });
  return async () => (await readAll(client.getAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })).length;
}

const read = reader();
process.on('message', async (msg) => {
  if (msg?.type === 'stop') process.exit(0);
  if (msg?.type !== 'read') return;
  try {
    // Garbage of the run before is collected off the clock.
    globalThis.gc?.();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const count = await read();
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    process.send({ type: 'read', seq: msg.seq, count, ms, cpu: cpu.user + cpu.system });
  } catch (error) {
    process.send({ type: 'read', seq: msg.seq, error: String(error?.stack ?? error) });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
