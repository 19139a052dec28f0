/**
 * Request bodies other than JSON, client to generated server over loopback, for the public
 * @readme/oas-examples 3.0 files that declare them: `application/x-www-form-urlencoded`
 * (form-data, request-examples), `multipart/form-data` with files (file-uploads) and with
 * `encoding` styles (schema-encoding-style, parameters-style), raw bytes (`image/png`) and
 * `text/plain`. The handler must receive exactly the typed value the client sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestError } from '@bank-data-sharing/client/runtime';
import { appWith, clientOf, generateApi, listen, oasExample, routerFactory, type GeneratedApi, type Running } from './support/harness.js';

type AnyFn = (...args: unknown[]) => Promise<unknown>;

interface Received {
  operationId: string;
  body: unknown;
  contentType: string | undefined;
}

interface Served {
  running: Running;
  client: Record<string, AnyFn>;
  received: Received[];
  /** The client method of the operation at `method path`. */
  method(method: string, path: string): AnyFn;
}

/**
 * A generated API served with handlers that record what they receive and answer 200. An
 * operation's key in the validators' `operations` is its one name: its handler's and its
 * client method's.
 */
async function serve(api: GeneratedApi, options: object, answer: (operationId: string) => object = () => ({ status: 200 })): Promise<Served> {
  const operations = Object.entries(api.validators['operations'] as Record<string, { operationId: string; method: string; path: string }>);
  const received: Received[] = [];
  const handlers: Record<string, (request: { body: unknown; contentType: string | undefined }) => object> = {};
  for (const [name, op] of operations) {
    handlers[name] = (request) => {
      received.push({ operationId: op.operationId, body: request.body, contentType: request.contentType });
      return answer(op.operationId);
    };
  }
  const running = await listen(appWith(routerFactory(api)(handlers, { prefix: '', onError: () => undefined, onMissingHandlers: () => undefined, ...options })));
  const client = clientOf<AnyFn>(api, { baseUrl: running.origin });
  return {
    running,
    client,
    received,
    method(method, path) {
      const found = operations.find(([, op]) => op.method === method && op.path === path);
      if (!found) throw new Error(`no operation ${method} ${path}`);
      const call = client[found[0]];
      if (!call) throw new Error(`no client method ${found[0]}`);
      return call.bind(client);
    },
  };
}

/** The rejection of `call`, for asserting on it. */
async function failure(call: Promise<unknown>): Promise<{ status?: number; body?: unknown } & Error> {
  try {
    await call;
  } catch (error) {
    return error as { status?: number; body?: unknown } & Error;
  }
  throw new Error('expected the call to fail');
}

/** A body the `Token` schema of form-data's answer accepts. */
const TOKEN = { access_token: 1, token_type: 'bearer', expires_in: 60 };

/** Every byte value, so that no text decoding on the way goes unnoticed. */
const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('application/x-www-form-urlencoded (form-data, 3.0)', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(await generateApi(oasExample('3.0', 'form-data'), 'bodies-form-data'), {}, () => ({ status: 200, body: TOKEN }));
  });
  afterAll(() => served?.running.close());

  it('decodes an int32 member as a number and strings as strings', async () => {
    await served.method('post', '/anything')({ body: { client_id: 'id 1&2', client_secret: 'sécret=+', scope: 42 } });
    expect(served.received.at(-1)?.body).toEqual({ client_id: 'id 1&2', client_secret: 'sécret=+', scope: 42 });
    expect(typeof (served.received.at(-1)?.body as { scope: unknown }).scope).toBe('number');
  });

  it('refuses a member that is not an integer with 400 naming the field', async () => {
    const error = await failure(served.method('post', '/anything')({ body: { client_id: 'a', client_secret: 'b', scope: '4.5x' } as never }));
    expect(error.status).toBe(400);
    expect(JSON.stringify(error.body)).toContain('scope');
  });

  it('refuses on the client a member the media type cannot carry (an object), naming it', async () => {
    const error = await failure(served.method('post', '/anything')({ body: { client_id: 'a', client_secret: { nested: true }, scope: 1 } as never }));
    expect(error).toBeInstanceOf(RequestError);
    expect(error.message).toContain('client_secret');
  });
});

describe('files (file-uploads, 3.0)', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(await generateApi(oasExample('3.0', 'file-uploads'), 'bodies-file-uploads'), { limits: { fileBytes: 1024 } });
  });
  afterAll(() => served?.running.close());

  it('hands the handler integers as numbers and a file with its exact bytes, name and media type', async () => {
    const file = new File([ALL_BYTES], 'scan é.png', { type: 'image/png' });
    await served.method('post', '/anything/multipart-formdata')({ body: { orderId: 7, userId: -3, documentFile: file } });
    const body = served.received.at(-1)?.body as { orderId: unknown; userId: unknown; documentFile: { bytes: Uint8Array; filename?: string; contentType: string; size: number } };
    expect(body.orderId).toBe(7);
    expect(body.userId).toBe(-3);
    expect(Array.from(body.documentFile.bytes)).toEqual(Array.from(ALL_BYTES));
    expect(body.documentFile).toMatchObject({ filename: 'scan é.png', contentType: 'image/png', size: 256 });
  });

  it('sends a Uint8Array as a file part too', async () => {
    await served.method('post', '/anything/multipart-formdata')({ body: { documentFile: Uint8Array.of(0, 255, 10, 13) } });
    const file = (served.received.at(-1)?.body as { documentFile: { bytes: Uint8Array; contentType: string } }).documentFile;
    expect(Array.from(file.bytes)).toEqual([0, 255, 10, 13]);
    expect(file.contentType).toBe('application/octet-stream');
  });

  it('receives a list of files in order', async () => {
    const files = [new File([Uint8Array.of(1, 2)], 'a.bin', { type: 'application/octet-stream' }), new File(['hello'], 'b.txt', { type: 'text/plain' })];
    await served.method('put', '/anything/multipart-formdata')({ body: { filename: files } });
    const list = (served.received.at(-1)?.body as { filename: Array<{ bytes: Uint8Array; filename: string; contentType: string }> }).filename;
    expect(list.map((f) => [f.filename, f.contentType, Array.from(f.bytes)])).toEqual([
      ['a.bin', 'application/octet-stream', [1, 2]],
      ['b.txt', 'text/plain', Array.from(new TextEncoder().encode('hello'))],
    ]);
  });

  it('refuses a file over limits.fileBytes with 400 (the spec declares no 413), naming the field', async () => {
    const error = await failure(served.method('post', '/anything/multipart-formdata')({ body: { documentFile: new Uint8Array(4096) } }));
    expect(error.status).toBe(400);
    expect(JSON.stringify(error.body)).toContain('documentFile');
  });

  it('answers a malformed multipart body with 400 and keeps serving', async () => {
    const broken = await fetch(`${served.running.origin}/anything/multipart-formdata`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      body: '--xyz\r\ncontent-disposition: form-data; name="orderId"\r\n\r\n7\r\n--xy',
    });
    expect(broken.status).toBe(400);
    const noBoundary = await fetch(`${served.running.origin}/anything/multipart-formdata`, { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' });
    expect(noBoundary.status).toBe(400);
    await served.method('post', '/anything/multipart-formdata')({ body: { orderId: 1 } });
    expect(served.received.at(-1)?.body).toEqual({ orderId: 1 });
  });

  it('refuses on the client a file member that is not a file, naming it', async () => {
    const error = await failure(served.method('post', '/anything/multipart-formdata')({ body: { documentFile: { name: 'x' } } as never }));
    expect(error).toBeInstanceOf(RequestError);
    expect(error.message).toContain('documentFile');
  });

  it('sends raw image/png bytes as they are', async () => {
    await served.method('post', '/anything/image-png')({ body: ALL_BYTES as never, contentType: 'image/png' });
    const body = served.received.at(-1)?.body as Uint8Array;
    expect(Array.from(body)).toEqual(Array.from(ALL_BYTES));
  });

  it('refuses on the client an object for a binary media type', async () => {
    const error = await failure(served.method('post', '/anything/image-png')({ body: { not: 'bytes' } as never, contentType: 'image/png' }));
    expect(error).toBeInstanceOf(RequestError);
    expect(error.message).toContain('image/png');
  });
});

describe('multipart encoding styles (schema-encoding-style and parameters-style, 3.0)', () => {
  let encodingStyle: Served;
  let parameterStyle: Served;
  const value = { primitive: 'p,1', array: ['a', 'b c'], object: { foo: 'f', bar: 'b' } };
  beforeAll(async () => {
    encodingStyle = await serve(await generateApi(oasExample('3.0', 'schema-encoding-style'), 'bodies-encoding-style'), {});
    parameterStyle = await serve(await generateApi(oasExample('3.0', 'parameters-style'), 'bodies-parameters-style'), {});
  });
  afterAll(async () => {
    await encodingStyle?.running.close();
    await parameterStyle?.running.close();
  });

  it('round-trips style form (exploded by default): an array, an object and a primitive', async () => {
    await encodingStyle.method('put', '/form/primitive')({ body: value });
    expect(encodingStyle.received.at(-1)?.body).toEqual(value);
  });

  const cases: Array<[string, Record<string, unknown>]> = [
    ['/anything/form-data', value],
    ['/anything/form-data/form', { primitive: 'p', array: ['a', 'b'], object: { foo: 'f', bar: 'b' } }],
    ['/anything/form-data/spaceDelimited', { array: ['a', 'b'], object: { foo: 'f', bar: 'b' } }],
    ['/anything/form-data/pipeDelimited', { array: ['a', 'b c'], object: { foo: 'f', bar: 'b c' } }],
    ['/anything/form-data/deepObject', { primitive: 'p', array: ['a', 'b'], object: { foo: 'f', bar: 'b' } }],
  ];
  for (const [path, body] of cases) {
    for (const method of path === '/anything/form-data/form' ? ['post', 'put'] : ['post']) {
      it(`round-trips ${method.toUpperCase()} ${path}`, async () => {
        await parameterStyle.method(method, path)({ body });
        expect(parameterStyle.received.at(-1)?.body).toEqual(body);
      });
    }
  }
});

describe('text/plain (request-examples, 3.0)', () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve(await generateApi(oasExample('3.0', 'request-examples'), 'bodies-request-examples'), {}, (operationId) =>
      operationId === 'demoFormData' ? { status: 200, body: TOKEN } : { status: 200, body: 'OK', contentType: 'text/plain' },
    );
  });
  afterAll(() => served?.running.close());

  it('sends text as a string', async () => {
    await served.method('post', '/requestBody-multi-media-types')({ body: 'plain text, ünïcode', contentType: 'text/plain' });
    expect(served.received.at(-1)).toMatchObject({ body: 'plain text, ünïcode', contentType: 'text/plain' });
  });

  it('refuses on the client an object as text/plain', async () => {
    const error = await failure(served.method('post', '/requestBody-multi-media-types')({ body: { a: 1 }, contentType: 'text/plain' }));
    expect(error).toBeInstanceOf(RequestError);
  });

  it('decodes the form example by its schema (scope as a number)', async () => {
    await served.method('post', '/requestBody-form-data-example')({ body: { client_id: 'a', client_secret: 'b', scope: 5 } });
    expect(served.received.at(-1)?.body).toEqual({ client_id: 'a', client_secret: 'b', scope: 5 });
  });
});
