/**
 * Form bodies decoded by the schema's layout (`decodeForm`), and multipart bodies through the
 * router: fields and files, the limits (413 where the spec declares it, else 400, naming the
 * field), fields that do not fit, and malformed bodies (400, never a crash).
 */
import http from 'node:http';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiRouter, decodeForm, FormFieldError, type ApiDefinition, type FormLayout, type UploadedFile } from '../../src/runtime/index.js';
import { listen, send, type Running } from '../helpers/http.js';

describe('decodeForm', () => {
  const layout: FormLayout = {
    n: { type: 'integer' },
    x: { type: 'number' },
    ok: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'integer' } },
    piped: { type: 'array', items: { type: 'string' }, style: 'pipeDelimited', explode: false },
    where: { type: 'object', properties: { lat: { type: 'number' }, name: { type: 'string' } }, style: 'deepObject' },
    flat: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string' } } },
    pairs: { type: 'object', properties: { a: { type: 'integer' } }, explode: false },
    meta: { type: 'object', contentType: 'application/json' },
  };
  const options = { multipart: false, maxDepth: 8 };

  it('turns text into what each member is', () => {
    const entries = new URLSearchParams('n=42&x=-1.5e2&ok=false&tags=1&tags=2&piped=a|b|c&where[lat]=1.5&where[name]=x&a=7&b=y&pairs=a,3&meta={"k":[1]}&extra=e&extra=f');
    expect(decodeForm([...entries], layout, options)).toEqual({
      n: 42,
      x: -150,
      ok: false,
      tags: [1, 2],
      piped: ['a', 'b', 'c'],
      where: { lat: 1.5, name: 'x' },
      flat: { a: 7, b: 'y' },
      pairs: { a: 3 },
      meta: { k: [1] },
      extra: ['e', 'f'],
    });
  });

  it('leaves text that does not decode for the schema to refuse, and keeps a repeated single value a list', () => {
    expect(decodeForm([['n', '4x'], ['ok', 'yes'], ['x', '1'], ['x', '2']], layout, options)).toEqual({ n: '4x', ok: 'yes', x: [1, 2] });
    expect(decodeForm([['n', '']], layout, options)).toEqual({ n: '' });
  });

  it('refuses JSON members that are not JSON and __proto__ anywhere, naming the field', () => {
    expect(() => decodeForm([['meta', '{bad']], layout, options)).toThrow(/form field "meta": malformed JSON/);
    expect(() => decodeForm([['__proto__', 'x']], layout, options)).toThrow(FormFieldError);
    expect(() => decodeForm([['where[__proto__]', 'x']], layout, options)).toThrow(/"where"/);
    expect(() => decodeForm([['pairs', 'a,1,b']], layout, options)).toThrow(/form field "pairs": .*pairs/);
  });

  it('gives a form-exploded object only the names no member of the body declares', () => {
    const layout: FormLayout = { id: { type: 'string' }, filter: { type: 'object', properties: { id: { type: 'string' }, q: { type: 'string' } } } };
    expect(decodeForm([['id', '1'], ['q', 'x']], layout, options)).toEqual({ id: '1', filter: { q: 'x' } });
  });

  it('reads objects of a multipart body as JSON unless encoding names a style, and keeps files', () => {
    const file: UploadedFile = { bytes: Uint8Array.of(1), filename: 'f', contentType: 'image/png', size: 1 };
    const multipart: FormLayout = { doc: { type: 'object' }, pic: { type: 'file' }, n: { type: 'integer' } };
    expect(decodeForm([['doc', '{"a":1}'], ['pic', file], ['n', '3']], multipart, { multipart: true, maxDepth: 8 })).toEqual({ doc: { a: 1 }, pic: file, n: 3 });
  });
});

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
