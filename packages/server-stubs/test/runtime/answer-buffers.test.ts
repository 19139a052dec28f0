/**
 * Answers encoded into reused buffers (answer-buffers.ts): a buffer may only serve the next
 * answer once Node has written the one it holds. Pipelined requests to a client that does not
 * read yet make Node keep many answers' bytes queued at once, each in its own buffer.
 */
import net from 'node:net';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiRouter, type RouterOptions } from '../../src/runtime/index.js';
import { REUSED_BUFFER_BYTES, REUSED_MIN_CHARS } from '../../src/runtime/answer-buffers.js';
import { getOperation, noParams, oneOperationApi } from '../helpers/definitions.js';
import { listen, send, type Running } from '../helpers/http.js';

const definition = oneOperationApi(
  'Blobs',
  '/b',
  getOperation(
    'getBlob',
    '/blobs/{n}',
    { '200': { headers: noParams, content: { 'application/json': z.strictObject({ n: z.number(), fill: z.string() }) } } },
    { path: z.looseObject({ n: z.coerce.number().int() }), query: z.looseObject({ size: z.coerce.number().int().optional() }) },
  ),
);

/** A body of about `size` bytes that says which request it answers in every part of it. */
function blob(n: number, size: number): { n: number; fill: string } {
  const unit = `<${n}>é`;
  return { n, fill: unit.repeat(Math.ceil(size / Buffer.byteLength(unit))) };
}

const handlers = {
  getBlob: (req: { path: { n: number }; query: { size?: number } }) => ({ status: 200, body: blob(req.path.n, req.query.size ?? 60_000) }),
};

const options: RouterOptions<unknown> = { onError: () => {} };

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Sends a GET for each of `paths`, pipelined on one connection, reads nothing for `pauseMs`, then reads every answer. */
function pipelined(origin: string, paths: readonly string[], pauseMs: number): Promise<Array<{ head: string; body: Buffer }>> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    const answers: Array<{ head: string; body: Buffer }> = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${answers.length} of ${paths.length} answers within 20 s`));
    }, 20_000);
    socket.on('connect', () => {
      socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: localhost\r\n\r\n`).join(''));
      socket.pause();
      setTimeout(() => socket.resume(), pauseMs);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const end = received.indexOf('\r\n\r\n');
        if (end < 0) break;
        const head = received.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN);
        if (!Number.isFinite(length)) return reject(new Error(`an answer without Content-Length: ${head}`));
        if (received.length < end + 4 + length) break;
        answers.push({ head, body: received.subarray(end + 4, end + 4 + length) });
        received = received.subarray(end + 4 + length);
      }
      if (answers.length === paths.length) {
        clearTimeout(timer);
        socket.end();
        resolve(answers);
      }
    });
    socket.on('error', reject);
  });
}

describe('answers in reused buffers', () => {
  it('gives each of many queued answers its own bytes: a buffer comes back only once its answer is written', async () => {
    const router = createApiRouter(definition, handlers, options);
    running = await listen((req, res) => router(req, res));
    // 200 answers of 60 kB (12 MB) are more than loopback's socket buffers take while nobody reads.
    const paths = Array.from({ length: 200 }, (_, n) => `/b/blobs/${n}`);
    const answers = await pipelined(running.origin, paths, 400);
    expect(answers).toHaveLength(200);
    answers.forEach((answer, n) => {
      expect(answer.head.startsWith('HTTP/1.1 200')).toBe(true);
      expect(JSON.parse(answer.body.toString('utf8'))).toEqual(blob(n, 60_000));
    });
  });

  it('sends short answers and answers larger than a reused buffer as text, whole, and the same bytes with the option off', async () => {
    const router = createApiRouter(definition, handlers, options);
    const textOnly = createApiRouter(definition, handlers, { ...options, reuseAnswerBuffers: false });
    running = await listen((req, res) => (req.url?.includes('text=1') ? textOnly(req, res) : router(req, res)));
    for (const size of [10, REUSED_MIN_CHARS + 10, REUSED_BUFFER_BYTES - 100, REUSED_BUFFER_BYTES + 10, 3 * REUSED_BUFFER_BYTES]) {
      const reused = await send(`${running.origin}/b/blobs/7?size=${size}`);
      const text = await send(`${running.origin}/b/blobs/7?size=${size}&text=1`);
      expect(reused.status).toBe(200);
      expect(reused.json()).toEqual(blob(7, size));
      expect(reused.headers['content-length']).toBe(String(Buffer.byteLength(reused.text, 'utf8')));
      expect(text.text).toBe(reused.text);
      expect(text.headers['content-length']).toBe(reused.headers['content-length']);
    }
  });
});
