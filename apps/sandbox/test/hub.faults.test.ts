/**
 * The hub in front of an LFI elsewhere (`startSandbox({ lfi })`, `npm start -- --lfi-url`):
 * first a real one (another sandbox's LFI), then an LFI written here that misbehaves on
 * demand. For each fault, what the TPP receives through the hub: the status, the error code
 * and Retry-After the contract gives, within the deadline, and in milliseconds once the
 * circuit is open.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lfiFailureLine, startSandbox, type Sandbox } from '../src/sandbox/start-sandbox.js';
import { SMALL_DATA } from './e2e.fixtures.js';

describe('the hub in front of another LFI', () => {
  let lfiSide: Sandbox;
  let hub: Sandbox;
  // Between the hub and that LFI: from page 2 on, the list is one page shorter (it shrank).
  let proxy: Server;
  let shrinking: Sandbox;
  beforeAll(async () => {
    lfiSide = await startSandbox({ hubPort: 0, lfiPort: 0, data: SMALL_DATA, onError: () => {} });
    hub = await startSandbox({ hubPort: 0, lfi: { origin: lfiSide.lfiUrl, credential: lfiSide.hubCredential }, onError: () => {} });
    proxy = createServer((req, res) => {
      void fetch(`${lfiSide.lfiUrl}${req.url}`, { headers: req.headers as Record<string, string> }).then(async (answer) => {
        const body = (await answer.json()) as { meta?: { totalPages: number; totalRecords: number } };
        const page = Number(new URL(req.url!, 'http://x').searchParams.get('page'));
        // Fewer records, counted consistently: exactly one page fewer (pages of 25).
        if (page >= 2 && body.meta) body.meta = { ...body.meta, totalPages: body.meta.totalPages - 1, totalRecords: 25 * (body.meta.totalPages - 1) };
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyOrigin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    shrinking = await startSandbox({ hubPort: 0, pageSize: 25, lfi: { origin: proxyOrigin, credential: lfiSide.hubCredential }, onError: () => {}, onLfiFailure: () => {} });
  });
  afterAll(async () => {
    await shrinking.close();
    await new Promise<void>((resolve) => proxy.close(() => resolve()));
    await hub.close();
    await lfiSide.close();
  });

  it('totalPages changing between pages: each page says its own count, and its links follow it', async () => {
    const account = shrinking.seeded.consent.accountIds[0]!;
    const read = async (url: string) => {
      const res = await fetch(url, { headers: { authorization: `Bearer ${shrinking.seeded.token.accessToken}` } });
      expect(res.status).toBe(200);
      return (await res.json()) as { Links: { Next?: string; Last?: string }; Meta: { TotalPages: number } };
    };
    const first = await read(`${shrinking.baseUrls['v2.2']}/accounts/${account}/transactions`);
    expect(first.Meta.TotalPages).toBeGreaterThan(2);
    const second = await read(first.Links.Next!);
    expect(second.Meta.TotalPages).toBe(first.Meta.TotalPages - 1);
    expect(new URL(second.Links.Last!).searchParams.get('page')).toBe(String(second.Meta.TotalPages));
  });

  it('serves the accounts that LFI lists, under a consent covering them', async () => {
    const expected = lfiSide.stores['v2.2'].customers().flatMap((c) => c.accountIds).sort();
    expect([...hub.seeded.consent.accountIds].sort()).toEqual(expected);
    const res = await fetch(`${hub.baseUrls['v2.2']}/accounts`, { headers: { authorization: `Bearer ${hub.seeded.token.accessToken}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { Data: { Account: Array<{ AccountId: string }> } };
    expect(body.Data.Account.map((a) => a.AccountId).sort()).toEqual(expected);
  });
});

/** A fault per path prefix the hub calls: `/lfi/v2.2/accounts` answers as `fault` says. */
let fault = 'ok';
let hits = 0;
let lfi: Server;
let lfiOrigin: string;
const sockets = new Set<Socket>();
let hub: Sandbox;
const errors: unknown[] = [];
const lfiFailures: Array<{ error: unknown; lfi: string; path: string; interactionId: string }> = [];

beforeAll(async () => {
  lfi = createServer((req, res) => {
    hits++;
    switch (fault) {
      case 'v2.2-only':
        // An LFI that serves v2.2 of the contract only: its web framework's own 404 for the rest.
        if (req.url?.startsWith('/lfi/v2.1/')) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<pre>Cannot GET</pre>');
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } }));
      case 'ok':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [], meta: { paginated: true, totalPages: 0, totalRecords: 0 } }));
      case '503':
        return void res.writeHead(503, { 'retry-after': '7' }).end();
      case '429':
        return void res.writeHead(429, { 'retry-after': '3' }).end();
      case 'html':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
      case 'no-data':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      case 'cut-json':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[');
      case 'reset':
        return void res.socket?.destroy();
      case 'hang':
        return;
      case 'out-of-order':
        // Oldest first: section 4.5 wants the newest first.
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            data: [
              { TransactionId: 't-1', BookingDateTime: '2025-01-01T10:00:00Z' },
              { TransactionId: 't-2', BookingDateTime: '2025-02-01T10:00:00Z' },
            ],
            meta: { paginated: true, totalPages: 1, totalRecords: 2 },
          }),
        );
      case '50mb':
        return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) }).write('{');
      default:
        return void res.writeHead(500).end();
    }
  });
  lfi.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => lfi.listen(0, '127.0.0.1', resolve));
  lfiOrigin = `http://127.0.0.1:${(lfi.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => lfi.close(() => resolve()));
});

async function startHub(failureThreshold = 100): Promise<Sandbox> {
  return startSandbox({
    hubPort: 0,
    lfi: { origin: lfiOrigin, credential: 'hub-secret', accountIds: ['acc-1'] },
    lfiAccess: { timeoutMs: 400, requestDeadlineMs: 600, guard: { failureThreshold, openMs: 60_000, attempts: 1 } },
    onError: (error) => errors.push(error),
    onLfiFailure: (error, context) => lfiFailures.push({ error, ...context }),
  });
}

afterEach(async () => {
  await hub?.close();
  fault = 'ok';
});

async function tpp(h: Sandbox): Promise<{ status: number; code: string | undefined; retryAfter: string | null; interactionId: string | null; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${h.baseUrls['v2.2']}/accounts`, { headers: { authorization: `Bearer ${h.seeded.token.accessToken}` } });
  const body = (await res.json().catch(() => undefined)) as { Errors?: Array<{ Code: string }> } | undefined;
  return { status: res.status, code: body?.Errors?.[0]?.Code, retryAfter: res.headers.get('retry-after'), interactionId: res.headers.get('x-fapi-interaction-id'), ms: performance.now() - started };
}

describe('the hub in front of a misbehaving LFI', () => {
  it.each([
    ['503', { status: 500, code: 'GenericRecoverableError', retryAfter: '7' }],
    // The contract's 429 has no body: the status and Retry-After say it all.
    ['429', { status: 429, code: undefined, retryAfter: '3' }],
    ['reset', { status: 500, code: 'GenericRecoverableError', retryAfter: null }],
    ['hang', { status: 500, code: 'GenericRecoverableError', retryAfter: null }],
    ['html', { status: 500, code: 'GenericError', retryAfter: null }],
    ['cut-json', { status: 500, code: 'GenericError', retryAfter: null }],
    ['50mb', { status: 500, code: 'GenericError', retryAfter: null }],
  ])('%s: the TPP gets the contract answer within the deadline', async (name, expected) => {
    hub = await startHub();
    fault = name;
    lfiFailures.length = 0;
    const answer = await tpp(hub);
    expect({ status: answer.status, code: answer.code, retryAfter: answer.retryAfter }).toEqual(expected);
    expect(answer.ms).toBeLessThan(1500);
    // Logged for the hub: which LFI, which path, which TPP request.
    expect(lfiFailures).toHaveLength(1);
    expect(lfiFailures[0]).toMatchObject({ lfi: lfiOrigin, path: expect.stringMatching(/^\/lfi\/v2\.2\/accounts\?page=1&page-size=\d+$/), interactionId: answer.interactionId });
    expect(errors).toEqual([]);
  });

  it("without onLfiFailure, failures reach the routers' onError as phase upstream, with the LFI URL", async () => {
    const seen: Array<{ phase: string; upstream?: { url: string }; interactionId: string }> = [];
    hub = await startSandbox({
      hubPort: 0,
      lfi: { origin: lfiOrigin, credential: 'hub-secret', accountIds: ['acc-1'] },
      lfiAccess: { timeoutMs: 400, requestDeadlineMs: 600, guard: { attempts: 1 } },
      onError: (_error, context) => seen.push(context as (typeof seen)[number]),
    });
    fault = '503';
    const answer = await tpp(hub);
    expect(seen).toEqual([{ interactionId: answer.interactionId, operationId: undefined, phase: 'upstream', upstream: { url: expect.stringMatching(new RegExp(`^${lfiOrigin}/lfi/v2\\.2/accounts\\?page=1`)) } }]);
  });

  it('a page out of order (section 4.5): GenericError, reported with the LFI and path', async () => {
    hub = await startHub();
    fault = 'out-of-order';
    lfiFailures.length = 0;
    const res = await fetch(`${hub.baseUrls['v2.2']}/accounts/acc-1/transactions`, { headers: { authorization: `Bearer ${hub.seeded.token.accessToken}` } });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { Errors: Array<{ Code: string }> }).Errors[0]!.Code).toBe('GenericError');
    expect(errors).toEqual([]);
    // Reported once, with the LFI and the URL it received: its prefix and the page query.
    expect(lfiFailures).toHaveLength(1);
    expect(lfiFailures[0]).toMatchObject({ lfi: lfiOrigin, path: '/lfi/v2.2/accounts/acc-1/transactions?page=1&page-size=100', interactionId: res.headers.get('x-fapi-interaction-id') });
  });

  it('an account answer without its record: GenericError, reported with the URL the LFI received', async () => {
    hub = await startHub();
    fault = 'no-data';
    lfiFailures.length = 0;
    const res = await fetch(`${hub.baseUrls['v2.2']}/accounts/acc-1`, { headers: { authorization: `Bearer ${hub.seeded.token.accessToken}` } });
    expect(res.status).toBe(500);
    expect(lfiFailures).toHaveLength(1);
    expect(lfiFailures[0]).toMatchObject({ lfi: lfiOrigin, path: '/lfi/v2.2/accounts/acc-1', interactionId: res.headers.get('x-fapi-interaction-id') });
  });

  it('a 503 with Retry-After longer than the guard waits: one LFI call, and the TPP told to come back then', async () => {
    // The guard's defaults: one retry, after at most a second.
    hub = await startSandbox({
      hubPort: 0,
      lfi: { origin: lfiOrigin, credential: 'hub-secret', accountIds: ['acc-1'] },
      onError: (error) => errors.push(error),
      onLfiFailure: () => {},
    });
    fault = '503';
    hits = 0;
    expect(await tpp(hub)).toMatchObject({ status: 500, code: 'GenericRecoverableError', retryAfter: '7' });
    expect(hits).toBe(1);
  });

  it('a TPP call to v2.1 against an LFI serving only v2.2: the TPP gets 404, and the hub logs why', async () => {
    hub = await startHub();
    fault = 'v2.2-only';
    lfiFailures.length = 0;
    const res = await fetch(`${hub.baseUrls['v2.1']}/accounts`, { headers: { authorization: `Bearer ${hub.seeded.token.accessToken}` } });
    expect(res.status).toBe(404);
    expect(lfiFailures).toHaveLength(1);
    const { error, ...context } = lfiFailures[0]!;
    expect(context).toMatchObject({ lfi: lfiOrigin, path: expect.stringMatching(/^\/lfi\/v2\.1\/accounts\?page=1&page-size=\d+$/), interactionId: res.headers.get('x-fapi-interaction-id') });
    expect(lfiFailureLine(error, context)).toMatch(
      /^\[hub\] LFI call failed \(HTTP 404\): http:\/\/127\.0\.0\.1:\d+\/lfi\/v2\.1\/accounts\?page=1&page-size=\d+ for \S+: the LFI answered 404 without the contract's error body \(errorCode, errorMessage\): it does not seem to serve \/lfi\/v2\.1, the hub-to-LFI contract v2\.1$/,
    );
    // v2.2 is served: nothing to log.
    lfiFailures.length = 0;
    expect((await tpp(hub)).status).toBe(200);
    expect(lfiFailures).toEqual([]);
  });

  it('a 429 storm: every TPP request gets 429 with the LFI Retry-After, none retried, the circuit stays closed', async () => {
    hub = await startHub(2);
    fault = '429';
    hits = 0;
    for (let i = 0; i < 20; i++) expect(await tpp(hub)).toMatchObject({ status: 429, retryAfter: '3' });
    expect(hits).toBe(20);
    fault = 'ok';
    expect(await tpp(hub)).toMatchObject({ status: 200 });
  });

  it('an LFI that stays down is answered in milliseconds once the circuit is open, with Retry-After', async () => {
    hub = await startHub(2);
    fault = 'hang';
    const first = [await tpp(hub), await tpp(hub)];
    for (const answer of first) expect([answer.code, answer.ms >= 300]).toEqual(['GenericRecoverableError', true]);
    const open = await tpp(hub);
    expect(open).toMatchObject({ status: 500, code: 'GenericRecoverableError' });
    expect(Number(open.retryAfter)).toBeGreaterThan(50);
    expect(open.ms).toBeLessThan(100);
  });
});
