/**
 * Sends requests exactly as built (raw target, no implicit headers but Host and the length)
 * over keep-alive connections, a bounded number at a time.
 */
import http from 'node:http';
import type { WireRequest } from './cases.js';

export interface WireReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Milliseconds from sending to the end of the answer. */
  ms: number;
}

export type WireOutcome = WireReply | { error: string; ms: number };

/** Per request: no answer within this many ms is a failure (the server hung). */
const REQUEST_TIMEOUT_MS = 10_000;

export function sendWire(origin: string, request: WireRequest, agent: http.Agent): Promise<WireOutcome> {
  const url = new URL(origin);
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    const done = (outcome: WireOutcome): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined && !request.chunked) headers['content-length'] = String(request.body.length);
    if (request.chunked) headers['transfer-encoding'] = 'chunked';
    let req: http.ClientRequest;
    /** Set once the answer's head has arrived: a later socket error still leaves an answer. */
    let answered: { res: http.IncomingMessage; chunks: Buffer[] } | undefined;
    const reply = (): WireReply => ({ status: answered!.res.statusCode ?? 0, headers: answered!.res.headers, body: Buffer.concat(answered!.chunks), ms: performance.now() - started });
    try {
      req = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.target, headers, agent }, (res) => {
        answered = { res, chunks: [] };
        res.on('data', (c: Buffer) => answered!.chunks.push(c));
        res.on('end', () => done(reply()));
        res.on('error', (e) => done({ error: `response: ${e.message}`, ms: performance.now() - started }));
      });
    } catch (error) {
      done({ error: `could not send: ${(error as Error).message}`, ms: 0 });
      return;
    }
    req.setTimeout(REQUEST_TIMEOUT_MS, () => {
      req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`));
    });
    // A server that answers early (413) and closes may break our write: the answer still counts.
    req.on('error', (e) => {
      if (answered && answered.res.complete) done(reply());
      else if (answered) answered.res.once('end', () => done(reply())).once('close', () => done(reply()));
      else done({ error: e.message, ms: performance.now() - started });
    });
    if (request.body !== undefined) {
      if (request.chunked) {
        for (let i = 0; i < request.body.length; i += 64 * 1024) req.write(request.body.subarray(i, i + 64 * 1024));
      } else req.write(request.body);
    }
    req.end();
  });
}

/** Runs `work` over `items`, at most `limit` at a time, keeping the order of results. */
export async function pool<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
