/**
 * Fault injection: paged reads of transactions against a server on 127.0.0.1 that
 * misbehaves at the socket level (faulty-server.ts). The rule every test checks: a read
 * either completes with every record exactly once, in order, or fails with a typed
 * `ClientError` after yielding each record at most once; and it ends in bounded time
 * (small `timeoutMs`, waits recorded instead of slept, each test under a hard timeout).
 *
 * Already covered elsewhere and not repeated here: a connection refused before any answer
 * (retry.test), single-call 429/500 retries (retry.test), Next loops to a page already
 * read, Next = Self, the page cap and cross-origin Next (paginate.test), refresh before
 * expiry and a revoked token mid-read (tokens.test).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../src/generated/v2.2/index.js';
import {
  ApiError,
  ClientError,
  NetworkError,
  PaginationError,
  paginate,
  ResponseValidationError,
  TokenError,
  type ClientOptions,
  type PagesOptions,
  type TokenProvider,
} from '../../src/runtime/index.js';
import { recordingSleep } from '../helpers/server.js';
import { ACCOUNT, PATH, RECOVERABLE, records, startFaultyServer, type FaultPlan, type FaultyServer } from './faulty-server.js';

/** Hard bound of every test here: a read that hangs fails the test instead of the run. */
const BOUND = { timeout: 15_000 };

let server: FaultyServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(count: number, pageSize: number, plan?: FaultPlan): Promise<FaultyServer> {
  server = await startFaultyServer({ records: records(count), pageSize, ...(plan ? { plan } : {}) });
  return server;
}

function clientFor(s: FaultyServer, options: Partial<ClientOptions> = {}) {
  const { waits, sleep } = recordingSleep();
  const client = createClient({ origin: s.origin, sleep, random: () => 0.5, timeoutMs: 2_000, ...options });
  return { client, waits };
}

interface ReadResult {
  ids: string[];
  error: unknown;
}

/** Every record `paginate` yields, and how the read ended. */
async function read(client: ReturnType<typeof createClient>, options: PagesOptions<never> = {}): Promise<ReadResult> {
  const ids: string[] = [];
  try {
    for await (const t of paginate(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } }, options as never)) ids.push(t.TransactionId);
    return { ids, error: undefined };
  } catch (error) {
    return { ids, error };
  }
}

/** The invariant of the issue: all records exactly once, or a typed error after a clean prefix. */
function expectExactOrTyped(result: ReadResult, s: FaultyServer): void {
  const expected = s.records.map((t) => t.TransactionId);
  if (result.error === undefined) {
    expect(result.ids).toEqual(expected);
    return;
  }
  expect(result.error).toBeInstanceOf(ClientError);
  expect((result.error as Error).message.length).toBeGreaterThan(20);
  expect(result.ids).toEqual(expected.slice(0, result.ids.length));
}

const attemptsOf = (s: FaultyServer, page: number): number => s.seen.filter((r) => r.page === page).length;

describe('dropped connections', () => {
  it('fetches a page again when its connection drops before the answer: every record once', BOUND, async () => {
    const s = await serve(50, 10, (page, attempt) => (page === 3 && attempt === 1 ? { kind: 'drop-before' } : undefined));
    const { client, waits } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 3)).toBe(2);
    expect(waits).toHaveLength(1);
  });

  it('fails with NetworkError when a page drops every time, after maxRetries + 1 attempts; earlier records came once', BOUND, async () => {
    const s = await serve(50, 10, (page) => (page === 4 ? { kind: 'drop-before' } : undefined));
    const { client, waits } = clientFor(s, { retry: { maxRetries: 3 } });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(NetworkError);
    expect(result.ids).toHaveLength(30);
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 4)).toBe(4);
    expect(waits).toHaveLength(3);
  });

  it('fails with NetworkError when the connection drops in the middle of every body, after maxRetries + 1 attempts; the records before it came once', BOUND, async () => {
    const s = await serve(50, 10, (page) => (page === 2 ? { kind: 'drop-mid-body' } : undefined));
    const { client, waits } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeInstanceOf(NetworkError);
    expect((result.error as Error).message).toMatch(/request to .* failed while reading the body of the answer: /);
    expect(result.error).toMatchObject({ phase: 'body' });
    expect(result.ids).toHaveLength(10);
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 2)).toBe(3);
    // The same capped backoff as a failure before the answer (random 0.5: 188 then 375 ms).
    expect(waits).toEqual([188, 375]);
  });

  it('fetches a page again when its body was cut off (a GET is safe to repeat)', BOUND, async () => {
    const s = await serve(50, 10, (page, attempt) => (page === 2 && attempt === 1 ? { kind: 'drop-mid-body' } : undefined));
    const { client, waits } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 2)).toBe(2);
    expect(waits).toHaveLength(1);
  });

  it('shares one failure budget between cut-off bodies and failures before the answer', BOUND, async () => {
    const s = await serve(50, 10, (page, attempt) => (page === 2 ? (attempt === 1 ? { kind: 'drop-before' } : { kind: 'drop-mid-body' }) : undefined));
    const { client, waits } = clientFor(s, { retry: { maxRetries: 3 } });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(NetworkError);
    expect(attemptsOf(s, 2)).toBe(4);
    expect(waits).toHaveLength(3);
    expectExactOrTyped(result, s);
  });

  it('does not repeat a cut-off body when retries are off', BOUND, async () => {
    const s = await serve(50, 10, (page) => (page === 2 ? { kind: 'drop-mid-body' } : undefined));
    const { client, waits } = clientFor(s, { retry: false });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(NetworkError);
    expect(attemptsOf(s, 2)).toBe(1);
    expect(waits).toEqual([]);
  });
});

describe('slow responses', () => {
  it('abandons an answer slower than timeoutMs and asks again: every record once', BOUND, async () => {
    const s = await serve(30, 10, (page, attempt) => (page === 2 && attempt === 1 ? { kind: 'late', ms: 3_000 } : undefined));
    const { client } = clientFor(s, { timeoutMs: 200 });
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 2)).toBe(2);
  });

  it('fails with NetworkError (a time-out) when a page never comes, after maxRetries + 1 attempts', BOUND, async () => {
    const s = await serve(30, 10, (page) => (page === 2 ? { kind: 'never' } : undefined));
    const { client, waits } = clientFor(s, { timeoutMs: 150 });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(NetworkError);
    expect((result.error as Error).message).toMatch(/no answer within 150 ms/);
    expect(result.error).toMatchObject({ phase: 'request' });
    expect(result.ids).toHaveLength(10);
    expect(attemptsOf(s, 2)).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('fails with NetworkError (a time-out) when every body trickles in past timeoutMs, after maxRetries + 1 attempts', BOUND, async () => {
    const s = await serve(30, 10, (page) => (page === 2 ? { kind: 'trickle', everyMs: 40 } : undefined));
    const { client, waits } = clientFor(s, { timeoutMs: 300 });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(NetworkError);
    expect((result.error as Error).message).toMatch(/failed while reading the body of the answer: the answer was not complete within 300 ms/);
    expect(result.error).toMatchObject({ phase: 'body' });
    expect(result.ids).toHaveLength(10);
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 2)).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('asks again when a body trickled in past timeoutMs once: every record once', BOUND, async () => {
    const s = await serve(30, 10, (page, attempt) => (page === 2 && attempt === 1 ? { kind: 'trickle', everyMs: 40 } : undefined));
    const { client } = clientFor(s, { timeoutMs: 300 });
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 2)).toBe(2);
  });

  it("stops at once on the caller's signal while a body trickles in, without asking again", BOUND, async () => {
    const s = await serve(30, 10, (page) => (page === 2 ? { kind: 'trickle', everyMs: 40 } : undefined));
    const { client } = clientFor(s, { timeoutMs: 60_000 });
    const controller = new AbortController();
    const reading = read(client, { signal: controller.signal });
    while (attemptsOf(s, 2) === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort(new Error('the caller gave up'));
    const result = await reading;
    expect((result.error as Error).message).toBe('the caller gave up');
    expect(result.ids).toHaveLength(10);
    expect(attemptsOf(s, 2)).toBe(1);
  });

  it('completes when every page is slow but within timeoutMs', BOUND, async () => {
    const s = await serve(30, 10, () => ({ kind: 'late', ms: 50 }));
    const { client } = clientFor(s, { timeoutMs: 2_000 });
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
  });

  it("stops at once on the caller's signal while the server says nothing", BOUND, async () => {
    const s = await serve(30, 10, (page) => (page === 2 ? { kind: 'never' } : undefined));
    const { client } = clientFor(s, { timeoutMs: 60_000 });
    const controller = new AbortController();
    const reading = read(client, { signal: controller.signal });
    // Abort once the hanging page has been asked for.
    while (attemptsOf(s, 2) === 0) await new Promise((r) => setTimeout(r, 10));
    controller.abort(new Error('the caller gave up'));
    const result = await reading;
    expect((result.error as Error).message).toBe('the caller gave up');
    expect(result.ids).toHaveLength(10);
    expect(attemptsOf(s, 2)).toBe(1);
  });
});

describe('a 429 storm', () => {
  it('waits out Retry-After on every page and still reads every record once', BOUND, async () => {
    const s = await serve(40, 10, (_page, attempt) => (attempt <= 2 ? { kind: 'status', status: 429, headers: { 'retry-after': '1' } } : undefined));
    const { client, waits } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
    expect(s.seen).toHaveLength(12);
    // Never a tight loop: every wait is the one asked for.
    expect(waits).toEqual(Array.from({ length: 8 }, () => 1000));
  });

  it('fails with ApiError 429 once maxRateLimitRetries waits are spent on one page', BOUND, async () => {
    const s = await serve(40, 10, (page) => (page === 3 ? { kind: 'status', status: 429, headers: { 'retry-after': '2' } } : undefined));
    const { client, waits } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(result.error).toMatchObject({ status: 429, retryAfter: 2 });
    expect((result.error as Error).message).toMatch(/rate limited \(HTTP 429\); the server asks to wait 2 s/);
    expect(result.ids).toHaveLength(20);
    expect(attemptsOf(s, 3)).toBe(4);
    expect(waits).toEqual([2000, 2000, 2000]);
  });

  it('fails at once when Retry-After is beyond maxRetryAfterSeconds, rather than hang', BOUND, async () => {
    const s = await serve(40, 10, (page) => (page === 2 ? { kind: 'status', status: 429, headers: { 'retry-after': '3600' } } : undefined));
    const { client, waits } = clientFor(s);
    const result = await read(client);
    expect(result.error).toMatchObject({ status: 429, retryAfter: 3600 });
    expect(waits).toEqual([]);
    expect(attemptsOf(s, 2)).toBe(1);
  });

  it('backs off (never zero) on a 429 without Retry-After, or with one it cannot read', BOUND, async () => {
    const s = await serve(20, 10, (page, attempt) =>
      page === 2 && attempt <= 2 ? { kind: 'status', status: 429, headers: attempt === 1 ? ({} as Record<string, string>) : { 'retry-after': 'soon' } } : undefined,
    );
    const { client, waits } = clientFor(s);
    const result = await read(client);
    expectExactOrTyped(result, s);
    expect(result.error).toBeUndefined();
    expect(waits).toHaveLength(2);
    for (const w of waits) expect(w).toBeGreaterThan(0);
  });
});

describe('500 bursts', () => {
  it('rides out GenericRecoverableError bursts shorter than maxRetries on every page', BOUND, async () => {
    const s = await serve(50, 10, (page, attempt) => (attempt <= (page % 2) + 1 ? { kind: 'status', status: 500, body: RECOVERABLE } : undefined));
    const { client } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
  });

  it('fails with ApiError 500 and its Errors when a burst outlasts maxRetries', BOUND, async () => {
    const s = await serve(50, 10, (page) => (page === 3 ? { kind: 'status', status: 500, body: RECOVERABLE } : undefined));
    const { client } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(result.error).toMatchObject({ status: 500, errors: [{ Code: 'GenericRecoverableError', Message: 'try again' }] });
    expect(attemptsOf(s, 3)).toBe(3);
    expectExactOrTyped(result, s);
  });

  it('retries 502, 503 and 504 without a body, and does not retry a 500 whose body is not an Errors envelope', BOUND, async () => {
    const gateways = [502, 503, 504];
    const s = await serve(40, 10, (page, attempt) => {
      if (page === 2 && attempt <= 2) return { kind: 'status', status: gateways[attempt - 1]! };
      if (page === 3 && attempt === 1) return { kind: 'status', status: 504 };
      if (page === 4) return { kind: 'status', status: 500, headers: { 'content-type': 'text/html' }, body: '<html>oops</html>' };
      return undefined;
    });
    const { client } = clientFor(s);
    const result = await read(client);
    expect(result.error).toMatchObject({ status: 500, errors: [] });
    expect(attemptsOf(s, 4)).toBe(1);
    expect(result.ids).toHaveLength(30);
    expectExactOrTyped(result, s);
  });
});

describe('a truncated page', () => {
  it('fails with NetworkError when fewer bytes arrive than Content-Length announced, every time, after maxRetries + 1 attempts', BOUND, async () => {
    const s = await serve(30, 10, (page) => (page === 2 ? { kind: 'short-length' } : undefined));
    const { client } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeInstanceOf(NetworkError);
    expect(result.error).toMatchObject({ phase: 'body' });
    expect(result.ids).toHaveLength(10);
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 2)).toBe(3);
  });

  it('asks again when fewer bytes arrived than Content-Length announced once: every record once', BOUND, async () => {
    const s = await serve(30, 10, (page, attempt) => (page === 2 && attempt === 1 ? { kind: 'short-length' } : undefined));
    const { client } = clientFor(s);
    const result = await read(client);
    expect(result.error).toBeUndefined();
    expectExactOrTyped(result, s);
    expect(attemptsOf(s, 2)).toBe(2);
  });

  it('fails with ResponseValidationError when the JSON of a page is cut off (length right, text incomplete)', BOUND, async () => {
    const s = await serve(30, 10, (page) => (page === 2 ? { kind: 'body', contentType: 'application/json', text: '{"Data":{"AccountId":"acc-hard","Transaction":[{"TransactionId":"t-0020"' } : undefined));
    for (const validate of [true, false]) {
      s.seen.length = 0;
      const { client } = clientFor(s, { validate });
      const result = await read(client);
      expect(result.error, `validate ${validate}`).toBeInstanceOf(ResponseValidationError);
      expect((result.error as ResponseValidationError).issues).toEqual([expect.stringMatching(/^not JSON: /)]);
      expect(result.ids).toHaveLength(10);
    }
  });

  it('refuses an empty 200, and a page whose records are missing (validated: contract; unvalidated: records)', BOUND, async () => {
    const s = await serve(30, 10, (page) => {
      if (page === 2) return { kind: 'body', contentType: 'application/json', text: '' };
      if (page === 3) return { kind: 'body', contentType: 'application/json', text: JSON.stringify({ Links: { Self: 'https://x.example/' }, Meta: { TotalPages: 3 } }) };
      return undefined;
    });
    const first = await read(clientFor(s).client);
    expect(first.error).toBeInstanceOf(ResponseValidationError);
    expect((first.error as ResponseValidationError).issues).toEqual(['the body is empty but the contract documents one']);
    const s2 = await serve(30, 10, (page) =>
      page === 2 ? { kind: 'body', contentType: 'application/json', text: JSON.stringify({ Links: { Self: `${server!.origin}${PATH}` }, Meta: { TotalPages: 3 } }) } : undefined,
    );
    const unvalidated = await read(clientFor(s2, { validate: false }).client);
    expect(unvalidated.error).toBeInstanceOf(PaginationError);
    expect(unvalidated.error).toMatchObject({ reason: 'records' });
    const validated = await read(clientFor(s2).client);
    expect(validated.error).toBeInstanceOf(ResponseValidationError);
  });
});

describe('a token expiring mid-read', () => {
  /** Numbered tokens; each valid until `expiresIn` s after it is handed out; `fail` makes the n-th request fail. */
  function provider(clock: { now: number }, options: { expiresIn: number; fail?: (n: number) => unknown }) {
    const reasons: string[] = [];
    const expiry = new Map<string, number>();
    const tokens: TokenProvider = {
      async getToken(request) {
        reasons.push(request.reason);
        const n = reasons.length;
        const failure = options.fail?.(n);
        if (failure instanceof Error) throw failure;
        if (failure !== undefined) return failure as { accessToken: string; expiresIn?: number };
        expiry.set(`tok-${n}`, clock.now + options.expiresIn * 1000);
        return { accessToken: `tok-${n}`, expiresIn: options.expiresIn };
      },
    };
    const valid = (authorization: unknown): boolean => {
      const until = expiry.get(String(authorization).replace(/^Bearer /, ''));
      return until !== undefined && clock.now < until;
    };
    return { tokens, reasons, valid };
  }

  it('fails with TokenError when the refresh fails mid-read; the records before it came once', BOUND, async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const auth = provider(clock, { expiresIn: 120, fail: (n) => (n === 2 ? new Error('authorisation server unavailable') : undefined) });
    const s = await serve(60, 10, (_page, _attempt, seen) => {
      clock.now += 30_000; // 30 s per page: the 120 s token needs a refresh after page 2
      return auth.valid(seen.headers['authorization']) ? undefined : { kind: 'status', status: 401 };
    });
    const { client } = clientFor(s, { tokens: auth.tokens, now: () => clock.now });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(TokenError);
    expect((result.error as Error).message).toMatch(/could not get an access token: authorisation server unavailable/);
    expect(auth.reasons).toEqual(['initial', 'expiring']);
    expectExactOrTyped(result, s);
    expect(result.ids.length).toBeGreaterThan(0);
  });

  it('fails with TokenError when the provider hands out a token that has already expired', BOUND, async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const auth = provider(clock, { expiresIn: 120, fail: (n) => (n === 2 ? { accessToken: 'stale', expiresIn: 0 } : undefined) });
    const s = await serve(60, 10, () => {
      clock.now += 30_000;
      return undefined;
    });
    const { client } = clientFor(s, { tokens: auth.tokens, now: () => clock.now });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(TokenError);
    expect((result.error as Error).message).toMatch(/already expired/);
    expectExactOrTyped(result, s);
  });

  it('fails with ApiError 401 after exactly two requests when the server refuses the fresh token too', BOUND, async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const auth = provider(clock, { expiresIn: 600 });
    const s = await serve(50, 10, (page) => (page >= 3 ? { kind: 'status', status: 401 } : undefined));
    const { client } = clientFor(s, { tokens: auth.tokens, now: () => clock.now });
    const result = await read(client);
    expect(result.error).toMatchObject({ status: 401 });
    expect(attemptsOf(s, 3)).toBe(2);
    expect(auth.reasons).toEqual(['initial', 'rejected']);
    expectExactOrTyped(result, s);
  });

  it("gives up on a token provider that never answers when the caller's signal aborts", BOUND, async () => {
    const s = await serve(20, 10);
    let asked = 0;
    const hanging: TokenProvider = { getToken: () => (asked++ === 0 ? Promise.resolve({ accessToken: 'first', expiresIn: 61 }) : new Promise(() => undefined)) };
    const clock = { now: Date.UTC(2026, 0, 1) };
    const { client } = clientFor(s, { tokens: hanging, now: () => clock.now, timeoutMs: 60_000 });
    await client.GetAccountsAccountIdTransactions({ path: { AccountId: ACCOUNT } });
    clock.now += 60_000; // the token now needs a refresh, and the provider hangs
    const controller = new AbortController();
    const call = client.GetAccountsAccountIdTransactions({ path: { AccountId: ACCOUNT } }, { signal: controller.signal });
    while (asked < 2) await new Promise((r) => setTimeout(r, 5));
    controller.abort(new Error('the caller gave up'));
    const outcome = await Promise.race([
      call.then(
        () => 'answered',
        (e: unknown) => `failed: ${(e as Error).message}`,
      ),
      new Promise<string>((r) => setTimeout(() => r('still waiting after 2 s'), 2_000)),
    ]);
    expect(outcome).toBe('failed: the caller gave up');
    // Only the first page was asked for: the second call never reached the server.
    expect(s.seen).toHaveLength(1);
  });

  it('fails with TokenError when the token provider gives nothing within timeoutMs, and asks it again on the next call', BOUND, async () => {
    const s = await serve(20, 10);
    const reasons: string[] = [];
    const signals: Array<AbortSignal | undefined> = [];
    const provider: TokenProvider = {
      getToken: (request) => {
        reasons.push(request.reason);
        signals.push(request.signal);
        // The first answer lives 61 s; the second request hangs (ignoring its signal); the third answers.
        if (reasons.length === 2) return new Promise(() => undefined);
        return Promise.resolve({ accessToken: `tok-${reasons.length}`, expiresIn: 61 });
      },
    };
    const clock = { now: Date.UTC(2026, 0, 1) };
    const { client } = clientFor(s, { tokens: provider, now: () => clock.now, timeoutMs: 200 });
    await client.GetAccountsAccountIdTransactions({ path: { AccountId: ACCOUNT } });
    clock.now += 60_000;
    const outcome = await Promise.race([
      client.GetAccountsAccountIdTransactions({ path: { AccountId: ACCOUNT } }).then(
        () => undefined,
        (e: unknown) => e,
      ),
      new Promise<string>((r) => setTimeout(() => r('still waiting after 2 s'), 2_000)),
    ]);
    expect(outcome).toBeInstanceOf(TokenError);
    expect((outcome as Error).message).toMatch(/gave none within 200 ms/);
    // The provider was told through its signal that nobody waits any more.
    expect(signals[1]?.aborted).toBe(true);
    expect(s.seen).toHaveLength(1);
    // The hung request is forgotten: the next call asks again and goes through.
    const again = await client.GetAccountsAccountIdTransactions({ path: { AccountId: ACCOUNT } });
    expect(again.status).toBe(200);
    expect(reasons).toEqual(['initial', 'expiring', 'expiring']);
    expect(s.seen.at(-1)?.headers['authorization']).toBe('Bearer tok-3');
  });
});

describe('a Next that loops', () => {
  it('stops a Next that changes every time (a loop the URLs cannot show) at maxPages, with PaginationError page-cap', BOUND, async () => {
    let n = 0;
    const s = await serve(20, 10, (page) => (page === 2 ? { kind: 'next', next: `${server!.pageUrl(2)}&n=${++n}` } : undefined));
    const { client } = clientFor(s);
    const result = await read(client, { maxPages: 25 });
    expect(result.error).toBeInstanceOf(PaginationError);
    expect(result.error).toMatchObject({ reason: 'page-cap', pagesRead: 25 });
    expect(s.seen).toHaveLength(25);
    // paginate streamed page 2 again on every repeat (only uniqueBy can drop them); readAll throws, returning none.
    expect(result.ids).toHaveLength(250);
    expect(new Set(result.ids).size).toBe(20);
  });

  it('drops the repeats of such a loop with uniqueBy, then still stops at the cap', BOUND, async () => {
    let n = 0;
    const s = await serve(20, 10, (page) => (page === 2 ? { kind: 'next', next: `${server!.pageUrl(2)}&n=${++n}` } : undefined));
    const { client } = clientFor(s);
    const ids: string[] = [];
    const error = await (async () => {
      for await (const t of paginate(client.GetAccountsAccountIdTransactions, { path: { AccountId: ACCOUNT } }, { maxPages: 10, uniqueBy: (t) => t.TransactionId })) ids.push(t.TransactionId);
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'page-cap' });
    expect(ids).toEqual(s.records.map((t) => t.TransactionId));
  });

  it('sees a loop written differently: scheme in capitals, a fragment, a dot segment', BOUND, async () => {
    for (const rewrite of [(u: string) => u.replace('http://127.0.0.1', 'HTTP://127.0.0.1'), (u: string) => `${u}#again`, (u: string) => u.replace(PATH, `${PATH.replace('/transactions', '/./transactions')}`)]) {
      const s = await serve(40, 10, (page) => (page === 3 ? { kind: 'next', next: rewrite(server!.pageUrl(2)) } : undefined));
      const { client } = clientFor(s);
      const result = await read(client);
      expect(result.error, rewrite('x')).toMatchObject({ reason: 'loop', pagesRead: 3 });
      expect(result.ids).toHaveLength(30);
      expectExactOrTyped(result, s);
      await s.close();
      server = undefined;
    }
  });

  it('sees a Next back to the first request as a loop', BOUND, async () => {
    const s = await serve(40, 10, (page) => (page === 2 ? { kind: 'next', next: server!.pageUrl(1) } : undefined));
    const { client } = clientFor(s);
    const result = await read(client);
    expect(result.error).toMatchObject({ reason: 'loop', pagesRead: 2 });
    expect(s.seen).toHaveLength(2);
  });

  it('does not follow a redirect: the token stays with the API', BOUND, async () => {
    const s = await serve(30, 10, (page) => (page === 2 ? { kind: 'status', status: 302, headers: { location: 'http://127.0.0.2:9/steal' } } : undefined));
    const { client } = clientFor(s, { tokens: { getToken: async () => 'secret-token' } });
    const result = await read(client);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(result.error).toMatchObject({ status: 302 });
    expect(s.seen).toHaveLength(2);
  });
});
