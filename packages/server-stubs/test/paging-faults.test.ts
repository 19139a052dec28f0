/**
 * An LFI that misbehaves on demand, over loopback, and what the hub's LFI fetch makes of each
 * fault: a typed error with the status, code and Retry-After the TPP will get, within the
 * time allowed, reading no more than the size allowed. Never a raw exception.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, fetchLfiJson, LfiContractError, LfiResponseError, LfiUnavailableError } from '../src/runtime/index.js';

const MB = 1024 * 1024;
let server: Server;
let origin: string;
let closedOrigin: string;
const sockets = new Set<Socket>();
/** Bytes the LFI managed to write per fault (how much the hub let it send). */
const written = new Map<string, number>();

function writeSlowly(res: ServerResponse, name: string, chunk: Buffer, times: number, delayMs: number): void {
  let sent = 0;
  const tick = () => {
    if (res.destroyed || sent >= times) return void res.end();
    res.write(chunk, () => written.set(name, (written.get(name) ?? 0) + chunk.byteLength));
    sent++;
    setTimeout(tick, delayMs);
  };
  tick();
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const asked = new URL(req.url ?? '/', 'http://x');
    const fault = asked.pathname.slice(1);
    switch (fault) {
      case '503-told':
        // The Retry-After the test asks for, as the LFI would write it.
        return void res.writeHead(503, { 'retry-after': asked.searchParams.get('retry-after') ?? '' }).end();
      case 'ok':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[],"meta":{"totalPages":0}}');
      case 'reset-mid-body':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        return void res.write('{"data":[', () => res.socket?.destroy());
      case 'no-headers':
        return; // never answers
      case 'one-byte-a-second':
        res.writeHead(200, { 'content-type': 'application/json' });
        return writeSlowly(res, fault, Buffer.from(' '), 60, 1000);
      case '503':
        return void res.writeHead(503, { 'retry-after': '7', 'content-type': 'text/plain' }).end('down for maintenance');
      case '429':
        return void res.writeHead(429, { 'retry-after': '3' }).end();
      case 'html':
        return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Login</body></html>');
      case 'cut-json':
        return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":1},');
      case 'declared-50mb':
        // Only the headers: a hub that reads on would wait for 50 MB that never come.
        return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50 * MB) }).write('{');
      case 'streamed-50mb':
        res.writeHead(200, { 'content-type': 'application/json' });
        return writeSlowly(res, fault, Buffer.alloc(256 * 1024, 0x20), 200, 1);
      default:
        return void res.writeHead(404).end();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nobody listens on: bound, then released.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedOrigin = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** The error a fetch ends with, and how long it took. */
async function failure(url: string, options: Parameters<typeof fetchLfiJson>[1] = {}): Promise<{ error: ApiError; ms: number }> {
  const started = performance.now();
  try {
    await fetchLfiJson(url, { timeoutMs: 500, ...options });
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return { error: error as ApiError, ms: performance.now() - started };
  }
  throw new Error(`${url} did not fail`);
}

describe('fetchLfiJson under faults', () => {
  it('reads a good answer', async () => {
    await expect(fetchLfiJson(`${origin}/ok`)).resolves.toEqual({ data: [], meta: { totalPages: 0 } });
  });

  it('a refused connection: recoverable, at once', async () => {
    const { error, ms } = await failure(`${closedOrigin}/ok`);
    expect(error).toBeInstanceOf(LfiUnavailableError);
    expect((error as LfiUnavailableError).kind).toBe('refused');
    expect([error.status, error.errors[0]!.code]).toEqual([500, 'GenericRecoverableError']);
    expect(ms).toBeLessThan(400);
  });

  it('a name that does not resolve: recoverable (dns)', async () => {
    const { error } = await failure('http://lfi.invalid/ok', { timeoutMs: 3000 });
    expect((error as LfiUnavailableError).kind).toMatch(/^(dns|timeout)$/);
    expect(error.errors[0]!.code).toBe('GenericRecoverableError');
  });

  it('a connection reset in the middle of the body: recoverable (truncated)', async () => {
    const { error } = await failure(`${origin}/reset-mid-body`);
    expect((error as LfiUnavailableError).kind).toBe('truncated');
    expect(error.errors[0]!.code).toBe('GenericRecoverableError');
  });

  it('headers never sent, or a body at one byte a second: recoverable (timeout) within the time allowed', async () => {
    for (const fault of ['no-headers', 'one-byte-a-second']) {
      const { error, ms } = await failure(`${origin}/${fault}`, { timeoutMs: 300 });
      expect((error as LfiUnavailableError).kind, fault).toBe('timeout');
      expect(error.errors[0]!.code).toBe('GenericRecoverableError');
      expect(ms, fault).toBeLessThan(1500);
    }
  });

  it('a deadline given by the caller ends the call as a timeout', async () => {
    const deadline = AbortSignal.timeout(200);
    const { error, ms } = await failure(`${origin}/no-headers`, { timeoutMs: 10_000, signal: deadline });
    expect((error as LfiUnavailableError).kind).toBe('timeout');
    expect(ms).toBeLessThan(1000);
  });

  it('503 with Retry-After: recoverable, Retry-After passed on; 429 passed on as 429', async () => {
    const unavailable = (await failure(`${origin}/503`)).error;
    expect(unavailable).toBeInstanceOf(LfiResponseError);
    expect([unavailable.status, unavailable.errors[0]!.code, unavailable.retryAfter]).toEqual([500, 'GenericRecoverableError', 7]);
    const throttled = (await failure(`${origin}/429`)).error;
    expect([throttled.status, throttled.errors[0]!.code, throttled.retryAfter]).toEqual([429, 'Request.TooManyRequests', 3]);
  });

  it('a Retry-After that is not delay-seconds or an HTTP-date is ignored, never read as "now"; a huge one is passed on as digits', async () => {
    const told = async (value: string) => (await failure(`${origin}/503-told?retry-after=${encodeURIComponent(value)}`)).error.retryAfter;
    // Date.parse reads these as dates in 2001: the hub would retry at once and tell the TPP 0.
    for (const garbage of ['-5', 'soon 7', '1 2', '1e400', 'Infinity', '0x10', 'Sun, 06 Nov 1994']) expect(await told(garbage), garbage).toBeUndefined();
    const huge = await told('99999999999999999999999');
    expect(String(huge)).toMatch(/^\d+$/);
    expect(await told(' 7 ')).toBe(7);
    const inAMinute = new Date(Date.now() + 60_000);
    const imf = inAMinute.toUTCString();
    expect(await told(imf)).toBeGreaterThanOrEqual(58);
    expect(await told(imf)).toBeLessThanOrEqual(60);
    expect(await told('Sun, 06 Nov 1994 08:49:37 GMT')).toBe(0);
    expect(await told('Sunday, 06-Nov-94 08:49:37 GMT')).toBe(0);
    expect(await told('Sun Nov  6 08:49:37 1994')).toBe(0);
  });

  it('a 200 of HTML or of cut JSON: not recoverable (the contract is broken)', async () => {
    const html = (await failure(`${origin}/html`)).error;
    expect(html).toBeInstanceOf(LfiContractError);
    expect(html.message).toContain('text/html, not JSON');
    expect([html.status, html.errors[0]!.code]).toEqual([500, 'GenericError']);
    const cut = (await failure(`${origin}/cut-json`)).error;
    expect(cut).toBeInstanceOf(LfiContractError);
    expect(cut.message).toContain('not usable JSON');
  });

  it('50 MB declared: refused from Content-Length before reading', async () => {
    const { error, ms } = await failure(`${origin}/declared-50mb`, { maxBytes: MB, timeoutMs: 5000 });
    expect(error).toBeInstanceOf(LfiContractError);
    expect(error.message).toContain(`declares ${50 * MB} bytes`);
    expect(ms).toBeLessThan(1000);
  });

  it('50 MB streamed: refused as soon as the limit is passed, the rest never read', async () => {
    const before = process.memoryUsage().arrayBuffers;
    const { error } = await failure(`${origin}/streamed-50mb`, { maxBytes: MB, timeoutMs: 10_000 });
    expect(error).toBeInstanceOf(LfiContractError);
    expect(error.message).toContain(`larger than the ${MB} bytes allowed`);
    // The LFI was stopped long before 50 MB (socket buffers let a few MB through at most).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written.get('streamed-50mb') ?? 0).toBeLessThan(16 * MB);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * MB);
  });
});
