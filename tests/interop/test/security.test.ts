/**
 * The public `security` and `security-multiple` examples (OpenAPI 3.0), generated, served and
 * called through their own clients over loopback: every scheme type carries its credential
 * from the client's `credentials` to the server's `authorize`, and alternatives are chosen
 * by what the client holds.
 *
 * These files have no operationIds: methods are found by their operation's method and path.
 */
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWith, clientOf, generateApi, listen, oasExample, routerFactory, type GeneratedApi, type Running } from './support/harness.js';

interface AuthorizeCall {
  scheme: string;
  credential: string | undefined;
  requiredScopes: readonly string[];
}

type Method = ((params?: object, options?: object) => Promise<{ status: number }>) & { operation: { method: string; path: string } };

/** What the server's handlers saw: per request, the credential of each scheme of the alternative it granted. */
interface Served {
  method: string;
  path: string;
  granted: Record<string, string | undefined>;
}

const GRANT_PREFIX = 'credential:';

/** The credentials the server accepts, one per scheme name (a basic credential as `user:password`). */
function issuedCredential(scheme: string): string {
  if (scheme === 'basic') return 'aladdin:open sesame';
  // Characters that must be percent-encoded in a query (space, `/`, `+`, `&`, `=`, `%`).
  if (scheme === 'apiKey_query') return 'query key/+&=%';
  return `${scheme}-secret`;
}

/** What the client gives for a scheme, so that the server accepts it. */
function clientCredential(scheme: string): string | { username: string; password: string } {
  if (scheme === 'basic') return { username: 'aladdin', password: 'open sesame' };
  return issuedCredential(scheme);
}

function credentialsFor(schemes: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(schemes.map((s) => [s, clientCredential(s)]));
}

/** Serves a generated API whose `authorize` accepts exactly the issued credentials and records every call. */
async function serve(api: GeneratedApi, options: { validateResponses?: boolean; status: (path: string) => number }) {
  const authorized: AuthorizeCall[] = [];
  const served: Served[] = [];
  const authorize = ({ scheme, credential, requiredScopes }: AuthorizeCall) => {
    authorized.push({ scheme, credential, requiredScopes });
    // The server hands over a basic credential as sent (base64 of user:password).
    const presented = scheme === 'basic' && credential !== undefined ? Buffer.from(credential, 'base64').toString('utf8') : credential;
    if (presented === `${scheme}-reader`) return { scopes: [] };
    if (presented !== issuedCredential(scheme)) return undefined;
    // Distinct keys per scheme survive the router's merge of one alternative's grants.
    return { scopes: ['write:things'], [`${GRANT_PREFIX}${scheme}`]: credential };
  };
  // Any handler name: the test does not depend on how operations are named.
  const handler = (request: { auth?: Record<string, unknown>; raw: { req: IncomingMessage } }) => {
    const { req } = request.raw;
    const granted = Object.fromEntries(
      Object.entries(request.auth ?? {})
        .filter(([key]) => key.startsWith(GRANT_PREFIX))
        .map(([key, value]) => [key.slice(GRANT_PREFIX.length), value as string | undefined]),
    );
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    served.push({ method: req.method ?? '', path, granted });
    return { status: options.status(path) };
  };
  const handlers = new Proxy({}, { get: (_, key) => (typeof key === 'string' ? handler : undefined) });
  const router = routerFactory(api)(handlers, { authorize, onError: () => undefined, validateResponses: options.validateResponses ?? true });
  const running = await listen(appWith(router));
  return { running, served, authorized };
}

/** The client methods, each with its operation. */
function methodsOf(client: Record<string, unknown>): Method[] {
  return Object.values(client).filter((m): m is Method => typeof m === 'function' && 'operation' in m);
}

function methodFor(client: Record<string, unknown>, method: string, path: string): Method {
  const found = methodsOf(client).filter((m) => m.operation.method.toLowerCase() === method && m.operation.path === path);
  if (found.length !== 1) throw new Error(`expected one client method for ${method.toUpperCase()} ${path}, found ${found.length}`);
  return found[0]!;
}

type CreateClient = (options: object) => Record<string, unknown>;

describe('security (3.0): one scheme per operation', () => {
  let api: GeneratedApi;
  let server: Awaited<ReturnType<typeof serve>>;
  let createClient: CreateClient;
  const allSchemes = [
    'apiKey_cookie',
    'apiKey_header',
    'apiKey_query',
    'basic',
    'bearer',
    'bearer_jwt',
    'oauth2',
    'oauth2_authorizationCode',
    'oauth2_clientCredentials',
    'oauth2_implicit',
    'oauth2_password',
    'openIdConnect',
  ];
  /** Every operation of the file: the scheme it needs (undefined: none), and the status its handler gives. */
  const table: Array<{ method: string; path: string; scheme: string | undefined; scopes?: string[]; status?: number }> = [
    { method: 'get', path: '/anything/apiKey', scheme: 'apiKey_query' },
    { method: 'post', path: '/anything/apiKey', scheme: 'apiKey_cookie' },
    { method: 'put', path: '/anything/apiKey', scheme: 'apiKey_header' },
    { method: 'post', path: '/anything/basic', scheme: 'basic' },
    { method: 'post', path: '/anything/bearer', scheme: 'bearer' },
    { method: 'put', path: '/anything/bearer', scheme: 'bearer_jwt' },
    { method: 'post', path: '/anything/oauth2', scheme: 'oauth2', scopes: ['write:things'] },
    { method: 'get', path: '/anything/oauth2', scheme: 'oauth2_authorizationCode', scopes: ['write:things'] },
    { method: 'put', path: '/anything/oauth2', scheme: 'oauth2_clientCredentials', scopes: ['write:things'] },
    { method: 'patch', path: '/anything/oauth2', scheme: 'oauth2_implicit', scopes: ['write:things'] },
    { method: 'delete', path: '/anything/oauth2', scheme: 'oauth2_password', scopes: ['write:things'] },
    { method: 'post', path: '/anything/openIdConnect', scheme: 'openIdConnect' },
    { method: 'post', path: '/anything/no-auth', scheme: undefined },
    { method: 'get', path: '/anything/optional-auth', scheme: 'apiKey_query' },
    { method: 'post', path: '/status/401', scheme: 'apiKey_header', status: 401 },
  ];

  beforeAll(async () => {
    api = await generateApi(oasExample('3.0', 'security'), 'security');
    server = await serve(api, { status: (path) => (path === '/status/401' ? 401 : 200) });
    createClient = (options) => clientOf<unknown>(api, options);
  });
  afterAll(() => server?.running.close());

  const client = (credentials: Record<string, unknown>) => createClient({ baseUrl: server.running.origin, credentials, retry: false });

  /** The value the server receives for a scheme: a basic credential as its base64 text, the rest as issued. */
  function received(scheme: string): string {
    return scheme === 'basic' ? Buffer.from(issuedCredential('basic'), 'utf8').toString('base64') : issuedCredential(scheme);
  }

  it('the table covers every operation of the file', () => {
    const methods = methodsOf(client({}));
    expect(methods).toHaveLength(table.length);
    for (const row of table) expect(() => methodFor(client({}), row.method, row.path)).not.toThrow();
  });

  it('carries each credential to authorize exactly as sent: API key in header, query and cookie, basic, bearer, oauth2, openIdConnect', async () => {
    const full = client(credentialsFor(allSchemes));
    for (const row of table) {
      server.served.length = 0;
      const call = methodFor(full, row.method, row.path)();
      if (row.status === 401) {
        await expect(call).rejects.toMatchObject({ name: 'ApiError', status: 401 });
      } else {
        expect((await call).status, `${row.method} ${row.path}`).toBe(200);
      }
      expect(server.served, `${row.method} ${row.path}`).toEqual([
        { method: row.method.toUpperCase(), path: row.path, granted: row.scheme ? { [row.scheme]: received(row.scheme) } : {} },
      ]);
    }
  });

  it('asks authorize once per call, for the scheme and the scopes the operation needs', async () => {
    const full = client(credentialsFor(allSchemes));
    for (const row of table) {
      server.authorized.length = 0;
      await methodFor(full, row.method, row.path)().catch(() => undefined);
      const expected = row.scheme ? [{ scheme: row.scheme, credential: received(row.scheme), requiredScopes: row.scopes ?? [] }] : [];
      expect(server.authorized, `${row.method} ${row.path}`).toEqual(expected);
    }
  });

  it('answers 403 to an oauth2 token granted without write:things', async () => {
    const reader = client({ oauth2: 'oauth2-reader' });
    await expect(methodFor(reader, 'post', '/anything/oauth2')()).rejects.toMatchObject({ name: 'ApiError', status: 403 });
  });

  it('sends the optional API key when held, and nothing when not', async () => {
    server.served.length = 0;
    await methodFor(client({ apiKey_query: issuedCredential('apiKey_query') }), 'get', '/anything/optional-auth')();
    await methodFor(client({}), 'get', '/anything/optional-auth')();
    expect(server.served.map((s) => s.granted)).toEqual([{ apiKey_query: issuedCredential('apiKey_query') }, {}]);
  });

  it('without credentials: the client fails before sending, naming the scheme; sent raw, the server answers 401', async () => {
    const none = client({});
    for (const row of table.filter((r) => r.scheme && r.path !== '/anything/optional-auth')) {
      server.served.length = 0;
      await expect(methodFor(none, row.method, row.path)(), `${row.method} ${row.path}`).rejects.toMatchObject({
        name: 'RequestError',
        message: expect.stringContaining(row.scheme!),
      });
      expect(server.served).toEqual([]);
      const raw = await fetch(`${server.running.origin}${row.path}`, { method: row.method.toUpperCase() });
      expect(raw.status, `${row.method} ${row.path}`).toBe(401);
      await raw.body?.cancel();
    }
    expect((await methodFor(none, 'post', '/anything/no-auth')()).status).toBe(200);
  });
});

describe('security-multiple (3.0): alternatives and combinations', () => {
  let api: GeneratedApi;
  let server: Awaited<ReturnType<typeof serve>>;
  let createClient: CreateClient;
  const paths = ['/anything/and', '/anything/or', '/anything/and-or', '/anything/many-and-or'];

  beforeAll(async () => {
    api = await generateApi(oasExample('3.0', 'security-multiple'), 'security-multiple');
    // The file documents only 401: the handlers answer 200 (undocumented) to show a call got through.
    server = await serve(api, { validateResponses: false, status: () => 200 });
    createClient = (options) => clientOf<unknown>(api, options);
  });
  afterAll(() => server?.running.close());

  const client = (schemes: readonly string[]) => createClient({ baseUrl: server.running.origin, credentials: credentialsFor(schemes), retry: false, validate: false });

  /** Calls POST `path` with the credentials of `schemes`; resolves with the credentials the server granted. */
  async function grantedFor(path: string, schemes: readonly string[]): Promise<Record<string, string | undefined>> {
    server.served.length = 0;
    const result = await methodFor(client(schemes), 'post', path)();
    expect(result.status).toBe(200);
    expect(server.served).toHaveLength(1);
    return server.served[0]!.granted;
  }

  const basic64 = Buffer.from('aladdin:open sesame', 'utf8').toString('base64');

  it('the file has exactly the four operations tested here', () => {
    const methods = methodsOf(client([]));
    expect(methods.map((m) => `${m.operation.method.toLowerCase()} ${m.operation.path}`).sort()).toEqual(paths.map((p) => `post ${p}`).sort());
  });

  it('and: API key, basic and oauth2 cannot travel together (basic and bearer share Authorization): refused before sending', async () => {
    server.served.length = 0;
    await expect(methodFor(client(['apiKey_header', 'basic', 'oauth2']), 'post', '/anything/and')()).rejects.toMatchObject({
      name: 'RequestError',
      message: expect.stringMatching(/held but not sendable in one request.*: apiKey_header \+ basic \+ oauth2/),
    });
    expect(server.served).toEqual([]);
    // The server asks for all three as well: an API key and basic without the token is 401.
    const raw = await fetch(`${server.running.origin}/anything/and`, {
      method: 'POST',
      headers: { 'x-api-key': issuedCredential('apiKey_header'), authorization: `Basic ${basic64}` },
    });
    expect(raw.status).toBe(401);
    await raw.body?.cancel();
  });

  it('or: the first alternative held is sent', async () => {
    expect(await grantedFor('/anything/or', ['apiKey_header'])).toEqual({ apiKey_header: 'apiKey_header-secret' });
    expect(await grantedFor('/anything/or', ['oauth2'])).toEqual({ oauth2: 'oauth2-secret' });
    expect(await grantedFor('/anything/or', ['apiKey_header', 'oauth2'])).toEqual({ oauth2: 'oauth2-secret' });
  });

  it('and-or: both credentials of the first alternative, or the second alternative alone', async () => {
    expect(await grantedFor('/anything/and-or', ['oauth2', 'apiKey_header'])).toEqual({ oauth2: 'oauth2-secret', apiKey_header: 'apiKey_header-secret' });
    expect(await grantedFor('/anything/and-or', ['oauth2_alternate'])).toEqual({ oauth2_alternate: 'oauth2_alternate-secret' });
    // oauth2 without the API key does not satisfy the first; nothing satisfies the second.
    await expect(methodFor(client(['oauth2']), 'post', '/anything/and-or')()).rejects.toMatchObject({ name: 'RequestError' });
  });

  it('many-and-or: skips alternatives not held or not sendable together, and sends the first that is', async () => {
    // oauth2 + basic clash in Authorization; basic alone (the fourth) is sent.
    expect(await grantedFor('/anything/many-and-or', ['oauth2', 'basic'])).toEqual({ basic: basic64 });
    // bearer and bearer_jwt with different tokens clash; bearer_jwt alone (the third) is sent.
    expect(await grantedFor('/anything/many-and-or', ['bearer', 'bearer_jwt'])).toEqual({ bearer_jwt: 'bearer_jwt-secret' });
    // The three API keys together (the sixth): header, query and cookie in one request.
    expect(await grantedFor('/anything/many-and-or', ['apiKey_cookie', 'apiKey_header', 'apiKey_query'])).toEqual({
      apiKey_cookie: 'apiKey_cookie-secret',
      apiKey_header: 'apiKey_header-secret',
      apiKey_query: 'query key/+&=%',
    });
  });

  it('without credentials: every operation fails before sending, and sent raw is 401', async () => {
    for (const path of paths) {
      server.served.length = 0;
      await expect(methodFor(client([]), 'post', path)(), path).rejects.toMatchObject({ name: 'RequestError' });
      expect(server.served).toEqual([]);
      const raw = await fetch(`${server.running.origin}${path}`, { method: 'POST' });
      expect(raw.status, path).toBe(401);
      await raw.body?.cancel();
    }
  });
});
