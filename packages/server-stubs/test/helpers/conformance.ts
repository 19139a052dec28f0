/**
 * A table of requests and the answers every serving of a router must give (see
 * conformance-adapters.test.ts): what is checked against the table, and what is compared
 * between servings.
 */
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Behaviour } from './handlers.js';
import { send, type Reply, type Running } from './http.js';
import { SERVINGS, type Serving } from './servings.js';

export const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
/** The headers compared between servings: what the router sets (frameworks add their own, e.g. `x-powered-by`, `keep-alive`). */
const COMPARED = ['content-type', 'content-length', 'allow', 'www-authenticate', 'x-fapi-interaction-id', 'retry-after', 'connection'] as const;

export interface Case {
  readonly name: string;
  readonly method?: string;
  /** Below the router's base path. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: () => Promise<string | Buffer> | string | Buffer;
  readonly behaviour?: Behaviour;
  readonly status: number;
  /** Headers the answer must carry (a RegExp: must match). */
  readonly expectHeaders?: Record<string, string | RegExp | undefined>;
  /** The `Code`s of the error body (`Errors[].Code`), in order; `[]`: no body at all. */
  readonly codes?: readonly string[];
}

export function checkTable(c: Case, reply: Reply): void {
  expect(reply.status, c.name).toBe(c.status);
  for (const [name, expected] of Object.entries(c.expectHeaders ?? {})) {
    if (expected instanceof RegExp) expect(reply.headers[name], name).toMatch(expected);
    else expect(reply.headers[name], name).toBe(expected);
  }
  if (c.codes?.length === 0) expect(reply.text).toBe('');
  else if (c.codes !== undefined) expect((reply.json() as { Errors: { Code: string }[] }).Errors.map((e) => e.Code)).toEqual(c.codes);
}

/** What is compared between servings: the origin, fresh ids and signatures vary by nature. */
export async function comparable(reply: Reply, origin: string, serverPublic?: CryptoKey): Promise<unknown> {
  const headers = Object.fromEntries(COMPARED.map((name) => [name, reply.headers[name]]));
  let body: unknown = reply.text;
  if (reply.headers['content-type'] === 'application/jwt') {
    // ES256 signatures differ each time: the verified message is what must be the same.
    body = (await jwtVerify(reply.text, serverPublic!, { algorithms: ['ES256'] })).payload.message;
  }
  const normal = JSON.stringify({ status: reply.status, headers, body }).replaceAll(origin, '<origin>').replace(UUID, (id) => (id === ID ? id : '<uuid>'));
  return JSON.parse(normal) as unknown;
}

export interface TableRun {
  /** Starts a server for one serving (a fresh router each). */
  start(serving: Serving): Promise<Running>;
  /** The router's base path below the origin. */
  readonly base: string;
  /** Where a case's `behaviour` goes before its request. */
  readonly state?: { behaviour: Behaviour };
  /** Verifies signed answers (their message is compared). */
  serverPublic?(): CryptoKey;
}

/**
 * Runs `cases` against every serving, in order; the first serving's answers are the reference
 * the others must equal (after `comparable`).
 */
export function describeTable(title: string, cases: readonly Case[], run: TableRun): void {
  const reference = new Map<string, unknown>();
  describe.each(SERVINGS)(`${title} on $name`, (serving) => {
    let running: Running;
    beforeAll(async () => {
      running = await run.start(serving);
    });
    afterAll(() => running.close());

    it.each(cases)('$name', async (c) => {
      if (run.state) run.state.behaviour = c.behaviour ?? 'ok';
      const body = c.body === undefined ? undefined : await c.body();
      const reply = await send(`${running.origin}${run.base}${c.path}`, { method: c.method ?? 'GET', headers: c.headers ?? {}, ...(body === undefined ? {} : { body }) });
      if (run.state) run.state.behaviour = 'ok';
      checkTable(c, reply);
      const seen = await comparable(reply, running.origin, run.serverPublic?.());
      if (serving.name === SERVINGS[0]!.name) reference.set(c.name, seen);
      else expect(seen).toEqual(reference.get(c.name));
    });
  });
}
