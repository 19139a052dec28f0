// One reader of the client suite in its own process: `node --expose-gc reader.mjs <origin> <kind>`.
// Each { type: 'read', seq } message reads all 10,000 transactions once and answers
// { type: 'read', seq, count, ms, cpu } (wall ms, CPU µs of this process); { type: 'stop' } exits.
// A process per reader, as a TPP's service runs the client alone: one reader's compiled code
// and garbage do not weigh on another's figures.
//
// Kinds, in pairs that do the same with the records:
//   client             readAll, validation on: every record in one array
//   client-novalidate  the same, validation off
//   raw                a hand-written fetch loop that also collects every record in one array
//   client-pages       pages(), validation on: counts the records of each page, keeps none
//   raw-count          the hand-written loop, counting the records, keeping none
//   raw-undici         the hand-written loop on undici's request API (the client's own
//                      transport), collecting every record: the client's cost above its transport
import { request } from 'undici';
import { createClient } from '@bank-data-sharing/client/v2.2';
import { pages, readAll, staticToken } from '@bank-data-sharing/client/runtime';
import { ACCOUNT, PAGED_PATH, TOKEN } from '../lib/http-bench.mjs';

const [origin, kind] = process.argv.slice(2);

const rawHeaders = () => ({ accept: 'application/json', authorization: `Bearer ${TOKEN}`, 'x-fapi-interaction-id': crypto.randomUUID() });
/** One page the way a caller would fetch it by hand: with fetch, or with undici's request API (the client's own transport). */
const pageByFetch = async (url) => (await fetch(url, { headers: rawHeaders() })).json();
const pageByUndici = async (url) => (await request(url, { headers: rawHeaders() })).body.json();

/** What a caller would write by hand: get a page, parse it, follow Links.Next; keep the records or count them. */
async function rawLoop(getPage, keep) {
  const out = [];
  let count = 0;
  let next = `${origin}${PAGED_PATH}`;
  while (next) {
    const body = await getPage(next);
    const records = body.Data.Transaction;
    if (keep) for (let i = 0; i < records.length; i++) out.push(records[i]);
    count += records.length;
    next = body.Links.Next;
  }
  return keep ? out.length : count;
}

function reader() {
  const params = { path: { AccountId: ACCOUNT } };
  switch (kind) {
    case 'raw':
      return () => rawLoop(pageByFetch, true);
    case 'raw-count':
      return () => rawLoop(pageByFetch, false);
    case 'raw-undici':
      return () => rawLoop(pageByUndici, true);
    case 'client':
    case 'client-novalidate': {
      const client = createClient({ origin, retry: false, tokens: staticToken(TOKEN), validate: kind === 'client' });
      return async () => (await readAll(client.GetAccountsAccountIdTransactions, params)).length;
    }
    case 'client-pages': {
      const client = createClient({ origin, retry: false, tokens: staticToken(TOKEN) });
      return async () => {
        let count = 0;
        for await (const page of pages(client.GetAccountsAccountIdTransactions, params)) count += page.result.body.Data.Transaction.length;
        return count;
      };
    }
    default:
      throw new Error(`unknown reader ${kind}`);
  }
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
