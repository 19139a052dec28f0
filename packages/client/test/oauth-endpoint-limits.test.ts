/**
 * An authorization server that never answers: the request to it ends at its time limit with an
 * `OAuthError` naming the endpoint and the limit, or at the caller's abort with the caller's
 * reason, never later.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthError, requestJson } from '../src/runtime/oauth-endpoint.js';

let server: Server;
let url: string;

beforeAll(async () => {
  // Reads the request and never answers.
  server = createServer((req) => req.resume());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('an authorization server that never answers', () => {
  it('fails at the time limit with an OAuthError naming the endpoint and the limit', async () => {
    const failure = await requestJson(url, { method: 'POST', form: { grant_type: 'client_credentials' } }, 'token request', { timeoutMs: 50 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OAuthError);
    expect((failure as OAuthError).message).toBe(`token request: no answer from ${url} within 50 ms`);
    expect((failure as OAuthError).endpoint).toBe(url);
  });

  it('fails with the caller\'s reason when the caller aborts first', async () => {
    const controller = new AbortController();
    const reason = new Error('user left');
    setTimeout(() => controller.abort(reason), 20);
    await expect(requestJson(url, { method: 'GET' }, 'metadata request', { timeoutMs: 10_000, signal: controller.signal })).rejects.toBe(reason);
  });

  it('with no limit (not finite), waits for the caller instead of failing at once', async () => {
    const controller = new AbortController();
    const reason = new Error('stopped');
    setTimeout(() => controller.abort(reason), 100);
    // A timer of "infinity" would fire at once (Node clamps it to 1 ms) and fail it as timed out.
    await expect(requestJson(url, { method: 'GET' }, 'metadata request', { timeoutMs: Number.POSITIVE_INFINITY, signal: controller.signal })).rejects.toBe(reason);
  });
});
