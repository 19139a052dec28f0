// Reads all transactions from a paging server `runs` times with the generated client, then
// exits: the process `profile.mjs client` runs under --cpu-prof.
// Usage: node client-reader.mjs <origin> <runs> <validate: on|off>
import { createClient } from '@bank-data-sharing/client/v2.2';
import { readAll, staticToken } from '@bank-data-sharing/client/runtime';
import { ACCOUNT, TOKEN } from '../lib/http-bench.mjs';

const [origin, runsText = '10', validate = 'on'] = process.argv.slice(2);
const client = createClient({ origin, retry: false, tokens: staticToken(TOKEN), validate: validate !== 'off' });
let records = 0;
const started = performance.now();
for (let i = 0; i < Number(runsText); i++) records += (await readAll(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } })).length;
const ms = performance.now() - started;
process.stdout.write(`${JSON.stringify({ records, ms, rate: (records / ms) * 1000 })}\n`);
