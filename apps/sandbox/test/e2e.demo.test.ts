/**
 * What a new user runs: the printed `curl` line, the demo (over the sandbox helper routes
 * only), the helper routes themselves, and the command-line options.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseStartArgs, UsageError } from '../src/cli/args.js';
import { banner, curlLine, demoLine, docsUrl } from '../src/cli/banner.js';
import { parseDemoArgs } from '../src/cli/demo-args.js';
import { demoFailureLine } from '../src/demo/failure.js';
import { runDemo } from '../src/demo/run-demo.js';
import { openSession, sandboxIsUp } from '../src/demo/session.js';
import { SMALL_DATA, startE2E, type E2E } from './e2e.fixtures.js';

const run = promisify(execFile);

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(() => e2e.expectWireClean());

async function hasCurl(): Promise<boolean> {
  try {
    await run('curl', ['--version']);
    return true;
  } catch {
    return false;
  }
}

describe('the start output', () => {
  it('prints base URLs, the token, the consent and a curl line that works when pasted', async () => {
    const lines = banner(e2e.sandbox, { ...SMALL_DATA }).join('\n');
    expect(lines).toContain(e2e.sandbox.baseUrls['v2.2']);
    expect(lines).toContain(e2e.sandbox.baseUrls['v2.1']);
    expect(lines).toContain(e2e.sandbox.seeded.token.accessToken);
    expect(lines).toContain(e2e.sandbox.seeded.consent.consent.Data.ConsentId);
    const line = curlLine(e2e.sandbox);
    expect(lines).toContain(line);
    // The docs address beside the token, and the portal is there.
    expect(lines).toContain(`API docs  ${e2e.sandbox.hubUrl}/docs `);
    const docs = await fetch(docsUrl(e2e.sandbox), { signal: AbortSignal.timeout(30_000) });
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('href="/docs/v2.2"');
    // The demo hint finds this hub: on another port than the demo's default, it says --hub.
    expect(e2e.sandbox.hubUrl).not.toBe('http://127.0.0.1:4010');
    expect(lines).toContain(`pnpm demo -- --hub ${e2e.sandbox.hubUrl} `);
    expect(parseDemoArgs(demoLine(e2e.sandbox).split(' ').slice(2), {}).hubUrl).toBe(e2e.sandbox.hubUrl);
    expect(demoLine({ ...e2e.sandbox, hubUrl: 'http://127.0.0.1:4010' })).toBe('pnpm demo');
    if (!(await hasCurl())) return; // the line's shape is checked above; running it needs curl
    // Run exactly as a user would paste it, through a shell.
    const { stdout } = await run('sh', ['-c', line], { timeout: 30_000 });
    const body = JSON.parse(stdout) as { Data: { Account: { AccountId: string }[] } };
    expect(body.Data.Account.map((a) => a.AccountId).sort()).toEqual([...e2e.sandbox.seeded.consent.accountIds].sort());
  });
});

describe('the demo', () => {
  it('reads every account and one full history with the generated client', async () => {
    expect(await sandboxIsUp(e2e.sandbox.hubUrl)).toBe(true);
    const lines: string[] = [];
    const report = await runDemo(await openSession(e2e.sandbox.hubUrl), (line) => lines.push(line), { fetch: e2e.wire.fetch });
    const customer = e2e.sandbox.stores['v2.2'].customers()[0]!;
    expect(report.accounts).toBe(customer.accountIds.length);
    const accountId = report.history.accountId;
    const total = e2e.sandbox.stores['v2.2'].list('transactions', { accountId, pageSize: 1_000_000 }).data.length;
    expect(report.history).toMatchObject({ transactions: total, pages: Math.ceil(total / 100), ordered: true, unique: true });
    expect(report.signedBy).toBe(e2e.sandbox.jwks.keys[0]?.kid);
    expect(lines.some((line) => line.startsWith(`transactions of ${accountId}: ${total} in`))).toBe(true);
  });

  it('reports a failed read as one line naming the operation and the status, not a stack trace', async () => {
    const failed = await e2e.clients()['v2.2'].GetAccountsAccountIdBalances({ path: { AccountId: 'acc-nobody' } }).catch((error: unknown) => error);
    const line = demoFailureLine(failed);
    expect(line).toMatch(/^demo: GetAccountsAccountIdBalances failed with HTTP 4\d\d: \S+ .+ \(x-fapi-interaction-id \S+\)$/);
    expect(line).not.toContain('\n');
    // Anything else is a bug of the demo: its stack is kept.
    expect(demoFailureLine(new TypeError('x is undefined'))).toBeUndefined();
  });

  it('says when no sandbox answers', async () => {
    expect(await sandboxIsUp('http://127.0.0.1:1')).toBe(false);
  });
});

describe('the /sandbox helper routes', () => {
  const post = (path: string, body: unknown, form = false) =>
    fetch(`${e2e.sandbox.hubUrl}/sandbox${path}`, {
      method: 'POST',
      headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json' },
      body: form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body),
    });

  it('issues tokens and single-use refresh tokens', async () => {
    const consentId = e2e.sandbox.seeded.consent.consent.Data.ConsentId;
    const issued = await post('/token', { grant_type: 'client_credentials', consent_id: consentId }, true);
    expect(issued.status).toBe(200);
    const token = (await issued.json()) as { access_token: string; expires_in: number; refresh_token: string; scope: string };
    expect(token).toMatchObject({ expires_in: 600, scope: 'openid accounts' });
    expect((await e2e.clients(token.access_token)['v2.2'].GetAccounts()).status).toBe(200);

    const refreshed = await post('/token', { grant_type: 'refresh_token', refresh_token: token.refresh_token }, true);
    expect(refreshed.status).toBe(200);
    const again = await post('/token', { grant_type: 'refresh_token', refresh_token: token.refresh_token }, true);
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: string }).error).toBe('invalid_grant');
    expect((await post('/token', { grant_type: 'password' }, true)).status).toBe(400);
  });

  it('creates consents, changes their status, and refuses unknown customers or accounts', async () => {
    const created = await post('/consents', { permissions: ['ReadAccountsBasic'] });
    expect(created.status).toBe(201);
    const consent = (await created.json()) as { consentId: string; status: string; permissions: string[] };
    expect(consent).toMatchObject({ status: 'Authorized', permissions: ['ReadAccountsBasic'] });
    const expired = await post(`/consents/${consent.consentId}/status`, { status: 'Expired' });
    expect(((await expired.json()) as { status: string }).status).toBe('Expired');
    expect((await post(`/consents/${consent.consentId}/status`, { status: 'Authorized' })).status).toBe(400);
    expect((await post('/consents', { customerId: 'cus-nobody' })).status).toBe(404);
    expect((await post('/consents', { accountIds: ['acc-not-hers'] })).status).toBe(400);
    expect((await post('/consents', { permissions: ['ReadEverything'] })).status).toBe(400);
  });

  it('registers TPP public keys and refuses private ones', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    expect((await post('/tpp-keys', { ...(await exportJWK(publicKey)), kid: 'tpp-2' })).status).toBe(201);
    expect((await post('/tpp-keys', { ...(await exportJWK(privateKey)), kid: 'tpp-3' })).status).toBe(400);
    expect((await post('/tpp-keys', { kty: 'EC' })).status).toBe(400);
  });
});

describe('command-line options', () => {
  it('start: defaults, environment, flags and mistakes', () => {
    expect(parseStartArgs([], {})).toMatchObject({ hubPort: 4010, lfiPort: 4011, seed: 1, customers: 3, years: 2, perDay: 3 });
    expect(parseStartArgs([], { SANDBOX_HUB_PORT: '5000' }).hubPort).toBe(5000);
    expect(parseStartArgs(['--hub-port', '0', '--years', '0.5'], {})).toMatchObject({ hubPort: 0, years: 0.5 });
    expect(parseStartArgs(['--', '--lfi-port', '5001'], {}).lfiPort).toBe(5001);
    expect(() => parseStartArgs(['--hub-port', '70000'], {})).toThrow(UsageError);
    expect(() => parseStartArgs(['--nope'], {})).toThrow(UsageError);
  });

  it('demo: the hub URL and in-process mode', () => {
    expect(parseDemoArgs([], {})).toEqual({ help: false, hubUrl: 'http://127.0.0.1:4010', inProcess: false });
    expect(parseDemoArgs(['--hub', 'http://127.0.0.1:5000/'], {}).hubUrl).toBe('http://127.0.0.1:5000');
    expect(parseDemoArgs(['--in-process'], {}).inProcess).toBe(true);
    expect(() => parseDemoArgs(['--hub', 'ftp://x'], {})).toThrow(UsageError);
  });
});
