/**
 * A transactions endpoint on 127.0.0.1 that pages like a hub (absolute `Links.Next`,
 * an opaque `?cursor=` per page) and misbehaves on demand at the socket level: it can drop
 * the connection before or during an answer, answer late, trickle the body, lie about the
 * length, rate-limit, fail, or write whatever `Links.Next` the test wants.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Transaction } from '@bank-data-sharing/validators/v2.2';
import { transaction } from '../helpers/fixtures.js';

export const PREFIX = '/open-finance/account-information/v2.2';
export const ACCOUNT = 'acc-hard';
export const PATH = `${PREFIX}/accounts/${ACCOUNT}/transactions`;

export interface Seen {
  /** 1-based page the request asked for. */
  page: number;
  url: string;
  headers: IncomingHttpHeaders;
}

/** What to do with one request; `undefined` answers the page normally. */
export type Fault =
  | { kind: 'drop-before' }
  | { kind: 'drop-mid-body' }
  | { kind: 'short-length' }
  | { kind: 'late'; ms: number }
  | { kind: 'never' }
  | { kind: 'trickle'; everyMs: number }
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  | { kind: 'body'; contentType: string; text: string }
  | { kind: 'next'; next: string | undefined };

/** Decides per request; `attempt` counts requests for the same page (1-based). */
export type FaultPlan = (page: number, attempt: number, seen: Seen) => Fault | undefined;

export interface FaultyServer {
  origin: string;
  seen: Seen[];
  records: Transaction[];
  pageSize: number;
  /** Pages the data has. */
  totalPages: number;
  /** The URL of page `n` as `Links` give it. */
  pageUrl(n: number): string;
  close(): Promise<void>;
}

export function cursor(page: number): string {
  return Buffer.from(`p:${page}`).toString('base64url');
}

function pageOf(url: URL): number {
  const c = url.searchParams.get('cursor');
  if (c === null) return 1;
  const m = /^p:(\d+)$/.exec(Buffer.from(c, 'base64url').toString('utf8'));
  return m ? Number(m[1]) : 1;
}

/** `count` valid transactions, newest first, ids `t-0001`… (unique). */
export function records(count: number): Transaction[] {
  return Array.from({ length: count }, (_, i) => transaction(`t-${String(count - i).padStart(4, '0')}`, new Date(Date.UTC(2026, 0, 1) - i * 60_000)));
}

export async function startFaultyServer(options: { records: Transaction[]; pageSize: number; plan?: FaultPlan }): Promise<FaultyServer> {
  const { pageSize } = options;
  const totalPages = Math.max(1, Math.ceil(options.records.length / pageSize));
  const seen: Seen[] = [];
  const attempts = new Map<number, number>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  let origin = '';
  const pageUrl = (n: number): string => (n === 1 ? `${origin}${PATH}` : `${origin}${PATH}?cursor=${cursor(n)}`);

  function pageBody(page: number, next: string | undefined): string {
    const links: Record<string, string> = { Self: pageUrl(page), First: pageUrl(1), Last: pageUrl(totalPages) };
    if (page > 1) links['Prev'] = pageUrl(page - 1);
    if (next !== undefined) links['Next'] = next;
    const list = options.records.slice((page - 1) * pageSize, page * pageSize);
    return JSON.stringify({ Data: { AccountId: ACCOUNT, Transaction: list }, Links: links, Meta: { TotalPages: totalPages } });
  }

  const later = (ms: number, fn: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  function answer(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', origin);
    const page = pageOf(url);
    const attempt = (attempts.get(page) ?? 0) + 1;
    attempts.set(page, attempt);
    const s: Seen = { page, url: req.url ?? '', headers: req.headers };
    seen.push(s);
    const fault = url.pathname === PATH ? options.plan?.(page, attempt, s) : { kind: 'status' as const, status: 404 };
    const id = req.headers['x-fapi-interaction-id'];
    const base: Record<string, string> = typeof id === 'string' ? { 'x-fapi-interaction-id': id } : {};
    const next = fault?.kind === 'next' ? fault.next : page < totalPages ? pageUrl(page + 1) : undefined;
    const body = Buffer.from(pageBody(page, next));
    const json = { ...base, 'content-type': 'application/json; charset=utf-8' };

    switch (fault?.kind) {
      case 'drop-before':
        req.socket.destroy();
        return;
      case 'drop-mid-body':
        res.writeHead(200, { ...json, 'content-length': String(body.length) });
        res.write(body.subarray(0, Math.floor(body.length / 2)));
        later(20, () => req.socket.destroy());
        return;
      case 'short-length':
        // Announces more bytes than it sends, then ends the connection.
        res.writeHead(200, { ...json, 'content-length': String(body.length + 500) });
        res.write(body);
        later(20, () => req.socket.end());
        return;
      case 'late':
        later(fault.ms, () => {
          if (!res.destroyed) {
            res.writeHead(200, { ...json, 'content-length': String(body.length) });
            res.end(body);
          }
        });
        return;
      case 'never':
        return;
      case 'trickle': {
        res.writeHead(200, { ...json, 'content-length': String(body.length) });
        let sent = 0;
        const step = (): void => {
          if (res.destroyed || sent >= body.length) return;
          res.write(body.subarray(sent, sent + 16));
          sent += 16;
          later(fault.everyMs, step);
        };
        step();
        return;
      }
      case 'status':
        res.writeHead(fault.status, { ...base, ...(fault.body !== undefined ? { 'content-type': 'application/json; charset=utf-8' } : {}), ...fault.headers });
        res.end(fault.body ?? '');
        return;
      case 'body':
        res.writeHead(200, { ...base, 'content-type': fault.contentType });
        res.end(fault.text);
        return;
      default:
        res.writeHead(200, { ...json, 'content-length': String(body.length) });
        res.end(body);
    }
  }

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    seen,
    records: options.records,
    pageSize,
    totalPages,
    pageUrl,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The 500 of section 7 a client may repeat. */
export const RECOVERABLE = JSON.stringify({ Errors: [{ Code: 'GenericRecoverableError', Message: 'try again' }] });
