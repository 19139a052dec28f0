/**
 * Multipart bodies through the router (decoding the fields by the schema's layout is
 * `@bank-data-sharing/wire`'s, tested there): fields and files, the limits (413 where the spec
 * declares it, else 400, naming the field), fields that do not fit, and malformed bodies (400,
 * never a crash).
 */
import http from 'node:http';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiRouter, type ApiDefinition, type UploadedFile } from '../../src/runtime/index.js';
import { listen, send, type Running } from '../helpers/http.js';

const noParams = z.looseObject({});
const errors = z.looseObject({ Errors: z.array(z.looseObject({ Code: z.string(), Message: z.string() })) });
const isFile = (v: unknown): boolean => typeof v === 'object' && v !== null && (v as { bytes?: unknown }).bytes instanceof Uint8Array;

function uploadOperation(id: string, path: string, withStatus413: boolean) {
  return {
    operationId: id,
    method: 'post',
    path,
    request: {
      path: noParams,
      query: noParams,
      headers: noParams,
      cookies: noParams,
      body: {
        required: true,
        content: { 'multipart/form-data': z.looseObject({ count: z.int(), tags: z.array(z.string()).optional(), doc: z.custom(isFile) }) },
        encoding: { 'multipart/form-data': { count: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } }, doc: { type: 'file' } } } as const,
      },
    },
    responses: {
      '200': { headers: noParams, content: { 'application/json': z.unknown() } },
      '400': { headers: noParams, content: { 'application/json': errors } },
      ...(withStatus413 ? { '413': { headers: noParams, content: { 'application/json': errors } } } : {}),
    },
  };
}

const definition: ApiDefinition = {
  api: { title: 'Uploads', version: '1', pathPrefix: '', servers: ['/'] },
  operations: { upload: uploadOperation('upload', '/upload', true), uploadNo413: uploadOperation('uploadNo413', '/upload-no-413', false) },
  meta: { upload: { security: [], permissions: [] }, uploadNo413: { security: [], permissions: [] } },
  securitySchemes: {},
};

function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>, boundary = 'BOUNDARY'): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: ${disposition}\r\n${part.type ? `content-type: ${part.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

describe('multipart bodies through the router', () => {
  let running: Running | undefined;
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });
  const received: unknown[] = [];
  async function start(limits: object = {}): Promise<string> {
    const handlers = {
      upload: (req: { body: unknown }) => (received.push(req.body), { status: 200, body: { ok: true } }),
      uploadNo413: (req: { body: unknown }) => (received.push(req.body), { status: 200, body: { ok: true } }),
    };
    const router = createApiRouter(definition, handlers, { limits, onError: () => undefined });
    running = await listen((req: http.IncomingMessage, res: http.ServerResponse) => router(req, res));
    return running.origin;
  }
  const headers = { 'content-type': 'multipart/form-data; boundary=BOUNDARY' };

  it('hands the handler typed fields and the file with its bytes, name and type', async () => {
    const origin = await start();
    const bytes = Buffer.from([0, 1, 2, 255, 13, 10]);
    const body = multipart([
      { name: 'count', value: '12' },
      { name: 'tags', value: 'a' },
      { name: 'tags', value: 'b' },
      { name: 'doc', value: bytes, filename: 'ré.bin', type: 'application/pdf' },
    ]);
    const reply = await send(`${origin}/upload`, { method: 'POST', headers, body });
    expect(reply.status).toBe(200);
    const got = received.at(-1) as { count: number; tags: string[]; doc: UploadedFile };
    expect(got.count).toBe(12);
    expect(got.tags).toEqual(['a', 'b']);
    expect({ ...got.doc, bytes: Array.from(got.doc.bytes) }).toEqual({ bytes: Array.from(bytes), filename: 'ré.bin', contentType: 'application/pdf', size: 6 });
  });

  it('refuses a file over limits.fileBytes with 413 where the spec declares it, else 400, naming the field', async () => {
    const origin = await start({ fileBytes: 8 });
    const body = multipart([{ name: 'count', value: '1' }, { name: 'doc', value: Buffer.alloc(64), filename: 'big' }]);
    const declared = await send(`${origin}/upload`, { method: 'POST', headers, body });
    expect(declared.status).toBe(413);
    expect(declared.text).toContain('doc');
    const undeclared = await send(`${origin}/upload-no-413`, { method: 'POST', headers, body });
    expect(undeclared.status).toBe(400);
    expect(undeclared.text).toContain('$.doc');
  });

  it('refuses more files or fields than the limits allow', async () => {
    const origin = await start({ files: 1, fields: 2 });
    const files = multipart([{ name: 'doc', value: 'a', filename: 'a' }, { name: 'doc', value: 'b', filename: 'b' }]);
    expect((await send(`${origin}/upload`, { method: 'POST', headers, body: files })).status).toBe(413);
    const fields = multipart([{ name: 'count', value: '1' }, { name: 'tags', value: 'a' }, { name: 'tags', value: 'b' }]);
    const reply = await send(`${origin}/upload`, { method: 'POST', headers, body: fields });
    expect(reply.status).toBe(413);
    expect(reply.text).toContain('more than 2 fields');
  });

  it('stops reading a multipart body once it is longer than its limits allow, without waiting for its end', async () => {
    const origin = await start({ bodyBytes: 1024, fileBytes: 8, files: 1, fields: 2 });
    // One field far over bodyBytes, its end never sent: busboy only says a field was cut when it ends.
    const opening = Buffer.concat([Buffer.from('--BOUNDARY\r\ncontent-disposition: form-data; name="count"\r\n\r\n'), Buffer.alloc(256 * 1024, 0x31)]);
    const reply = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${origin}/upload`, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' }, agent: false }, resolve);
      req.on('error', () => undefined);
      req.write(opening, (error) => error && reject(error));
    });
    const text = await new Promise<string>((resolve) => {
      const chunks: Buffer[] = [];
      reply.on('data', (c: Buffer) => chunks.push(c));
      reply.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    expect(reply.statusCode).toBe(413);
    expect(text).toContain('multipart body exceeds');
  });

  it('refuses an announced multipart length over what its limits allow before reading it', async () => {
    const origin = await start({ bodyBytes: 1024, fileBytes: 8, files: 1, fields: 2 });
    const reply = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(`${origin}/upload`, { method: 'POST', headers: { ...headers, 'content-length': String(1024 * 1024 * 1024) }, agent: false }, resolve);
      req.on('error', () => undefined);
      req.write('--BOUNDARY\r\n', (error) => error && reject(error));
    });
    reply.resume();
    expect(reply.statusCode).toBe(413);
    expect(reply.headers.connection).toBe('close');
  });

  it('reads a multipart body another middleware already read: its bytes as multipart, anything else as given', async () => {
    const handlers = { upload: (req: { body: unknown }) => (received.push(req.body), { status: 200, body: { ok: true } }) };
    const router = createApiRouter(definition, handlers, { onError: () => undefined, onMissingHandlers: () => undefined });
    // As express.raw() and express.json() leave a request: the stream read, req.body set, _body true.
    let earlier: (bytes: Buffer) => unknown = (bytes) => bytes;
    running = await listen((req: http.IncomingMessage, res: http.ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        Object.assign(req, { body: earlier(Buffer.concat(chunks)), _body: true });
        router(req, res);
      });
    });
    const body = multipart([{ name: 'count', value: '5' }, { name: 'doc', value: Buffer.from([7, 8]), filename: 'b.bin' }]);
    const bytes = await send(`${running.origin}/upload`, { method: 'POST', headers, body });
    expect(bytes.status).toBe(200);
    const got = received.at(-1) as { count: number; doc: UploadedFile };
    expect(got.count).toBe(5);
    expect(Array.from(got.doc.bytes)).toEqual([7, 8]);
    // Not bytes (a parser that made an object of it): checked by the schema as it is, not parsed again.
    earlier = () => ({ count: 'five' });
    const parsed = await send(`${running.origin}/upload`, { method: 'POST', headers, body });
    expect(parsed.status).toBe(400);
    expect(parsed.text).toContain('count');
  });

  it('answers a field that does not fit its schema with 400 naming it', async () => {
    const origin = await start();
    const reply = await send(`${origin}/upload`, { method: 'POST', headers, body: multipart([{ name: 'count', value: 'many' }, { name: 'doc', value: 'x', filename: 'x' }]) });
    expect(reply.status).toBe(400);
    expect(reply.text).toContain('$.count');
  });

  it('answers malformed multipart with 400 and keeps serving', async () => {
    const origin = await start();
    const cut = multipart([{ name: 'count', value: '1' }]).subarray(0, 40);
    expect((await send(`${origin}/upload`, { method: 'POST', headers, body: cut })).status).toBe(400);
    expect((await send(`${origin}/upload`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' })).status).toBe(400);
    const garbage = Buffer.from('--BOUNDARY\r\nno header end');
    expect((await send(`${origin}/upload`, { method: 'POST', headers, body: garbage })).status).toBe(400);
    const good = multipart([{ name: 'count', value: '2' }, { name: 'doc', value: 'x', filename: 'x' }]);
    expect((await send(`${origin}/upload`, { method: 'POST', headers, body: good })).status).toBe(200);
  });
});
