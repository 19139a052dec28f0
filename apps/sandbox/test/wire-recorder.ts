/**
 * A `fetch` that hands every response of the TPP-facing APIs to the wire oracle of its
 * version before the client sees it. Problems are collected; tests assert there are none.
 */
import type { WireOracle } from './wire-oracle.js';

/** Statuses whose responses cannot carry a body (Fetch standard). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The recorder: its `fetch`, and what it found. */
export interface WireRecorder {
  /** Use as the client's `fetch` (or directly in tests). */
  readonly fetch: (input: string, init?: RequestInit) => Promise<Response>;
  /** Number of API responses checked so far. */
  checked(): number;
  /** Problems found since the last call (and forgets them). */
  takeProblems(): string[];
}

/**
 * Records responses of the APIs whose base URLs are given; others (the sandbox helpers,
 * the JWKS) pass through unchecked.
 *
 * @example
 * const wire = createWireRecorder([{ baseUrl: sandbox.baseUrls['v2.2'], oracle }]);
 * createClient({ baseUrl, fetch: wire.fetch });
 */
export function createWireRecorder(apis: readonly { baseUrl: string; oracle: WireOracle }[]): WireRecorder {
  let checked = 0;
  let problems: string[] = [];
  return {
    async fetch(input, init = {}) {
      const response = await fetch(input, init);
      const api = apis.find((a) => input.startsWith(`${a.baseUrl}/`) || input === a.baseUrl || input.startsWith(`${a.baseUrl}?`));
      if (api === undefined) return response;
      const body = await response.text();
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        headers[name] = value;
      });
      checked += 1;
      problems.push(...api.oracle.check({ method: init.method ?? 'GET', url: input, status: response.status, headers, body }));
      // The body was read: the client gets an identical, unread response.
      return new Response(NULL_BODY.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers: response.headers });
    },
    checked: () => checked,
    takeProblems() {
      const taken = problems;
      problems = [];
      return taken;
    },
  };
}
