import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  createClientCore,
  RequestError,
  securityPlanner,
  staticToken,
  withCookieCredentials,
  withQueryCredentials,
  type BasicCredentials,
  type ClientOptions,
  type OperationSpec,
  type SchemaLike,
  type SecurityPlan,
  type SecurityRequirements,
  type SecuritySchemeInfo,
} from '../src/runtime/index.js';

const schemes = {
  headerKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
  queryKey: { type: 'apiKey', in: 'query', name: 'api key' },
  cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
  basic: { type: 'http', scheme: 'basic' },
  bearer: { type: 'http', scheme: 'bearer' },
  jwt: { type: 'http', scheme: 'bearer' },
  custom: { type: 'http', scheme: 'token' },
  oauth: { type: 'oauth2' },
  oidc: { type: 'openIdConnect' },
  tls: { type: 'mutualTLS' },
} as const satisfies Record<string, SecuritySchemeInfo>;

/** The plan of a call whose credentials are all static values. */
function planSync(credentials: Record<string, unknown> | undefined, security: SecurityRequirements, hasTokens = false): SecurityPlan {
  const plan = securityPlanner(schemes, credentials as never, hasTokens).plan(security, 'op');
  if (plan instanceof Promise) throw new Error('expected a plan without waiting');
  return plan;
}

describe('the credentials option, typed from the scheme names', () => {
  type Typed = NonNullable<ClientOptions<typeof schemes>['credentials']>;
  it('takes a string for API keys and tokens, { username, password } for basic, nothing for mutualTLS', () => {
    expectTypeOf<Typed['headerKey']>().toEqualTypeOf<string | (() => string | undefined | Promise<string | undefined>) | undefined>();
    expectTypeOf<Typed['basic']>().toEqualTypeOf<BasicCredentials | (() => BasicCredentials | undefined | Promise<BasicCredentials | undefined>) | undefined>();
    expectTypeOf<Typed['oauth']>().toEqualTypeOf<Typed['bearer']>();
    expectTypeOf<Typed['tls']>().toEqualTypeOf<undefined>();
    // @ts-expect-error a scheme the spec does not define
    const unknown: Typed = { nope: 'x' };
    // @ts-expect-error basic takes { username, password }, not a string
    const basicText: Typed = { basic: 'user:password' };
    expect([unknown, basicText]).toHaveLength(2);
  });
});

describe('securityPlanner: where each scheme type puts its credential', () => {
  it('API keys in a header (lower-case name), a query parameter and a cookie', () => {
    const plan = planSync({ headerKey: 'h-1', queryKey: 'q 1&', cookieKey: 'c;1' }, [{ headerKey: [], queryKey: [], cookieKey: [] }]);
    expect(plan.placement).toEqual({ headers: { 'x-api-key': 'h-1' }, query: [['api key', 'q 1&']], cookies: [['session', 'c;1']] });
    expect(plan.tokenSecurity).toEqual([]);
  });

  it('http basic as Basic base64(user:password) of the UTF-8 bytes', () => {
    const plan = planSync({ basic: { username: 'zoë', password: 'p:ss wörd' } }, [{ basic: [] }]);
    const header = plan.placement.headers['authorization']!;
    expect(header.startsWith('Basic ')).toBe(true);
    expect(Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8')).toBe('zoë:p:ss wörd');
  });

  it('bearer, oauth2 and openIdConnect as Bearer <token>; another http scheme as <scheme> <credential>', () => {
    expect(planSync({ bearer: 't1' }, [{ bearer: [] }]).placement.headers).toEqual({ authorization: 'Bearer t1' });
    expect(planSync({ oauth: 't2' }, [{ oauth: ['write'] }]).placement.headers).toEqual({ authorization: 'Bearer t2' });
    expect(planSync({ oidc: 't3' }, [{ oidc: [] }]).placement.headers).toEqual({ authorization: 'Bearer t3' });
    expect(planSync({ custom: 'abc==' }, [{ custom: [] }]).placement.headers).toEqual({ authorization: 'token abc==' });
  });

  it('reads a scheme it has no definition of as a bearer token, as the server does', () => {
    expect(planSync({ Unknown: 'u1' }, [{ Unknown: [] }]).placement.headers).toEqual({ authorization: 'Bearer u1' });
  });

  it('mutualTLS needs nothing per call: the transport presents the certificate', () => {
    expect(planSync({}, [{ tls: [] }]).placement).toEqual({ headers: {}, query: [], cookies: [] });
  });
});

describe('securityPlanner: choosing the alternative', () => {
  it('sends the first alternative whose every credential is held', () => {
    const security: SecurityRequirements = [{ oauth: ['write'], headerKey: [] }, { basic: [] }, { headerKey: [] }];
    expect(planSync({ headerKey: 'k' }, security).placement.headers).toEqual({ 'x-api-key': 'k' });
    expect(planSync({ headerKey: 'k', oauth: 't' }, security).placement.headers).toEqual({ authorization: 'Bearer t', 'x-api-key': 'k' });
    expect(planSync({ headerKey: 'k', basic: { username: 'u', password: 'p' } }, security).placement.headers).toHaveProperty('authorization', expect.stringMatching(/^Basic /));
  });

  it('an empty requirement is anonymous, in its place among the alternatives', () => {
    expect(planSync({}, [{ headerKey: [] }, {}]).placement.headers).toEqual({});
    expect(planSync({ headerKey: 'k' }, [{ headerKey: [] }, {}]).placement.headers).toEqual({ 'x-api-key': 'k' });
    expect(planSync({ headerKey: 'k' }, [{}, { headerKey: [] }]).placement.headers).toEqual({});
    expect(planSync({}, []).placement.headers).toEqual({});
  });

  it('skips an alternative whose credentials need one header with different values (basic and bearer)', () => {
    const security: SecurityRequirements = [{ basic: [], bearer: [] }, { bearer: [] }];
    expect(planSync({ basic: { username: 'u', password: 'p' }, bearer: 't' }, security).placement.headers).toEqual({ authorization: 'Bearer t' });
  });

  it('sends two bearer schemes of one alternative in one header when their tokens are equal', () => {
    expect(planSync({ bearer: 'same', jwt: 'same' }, [{ bearer: [], jwt: [] }]).placement.headers).toEqual({ authorization: 'Bearer same' });
    expect(() => planSync({ bearer: 'a', jwt: 'b' }, [{ bearer: [], jwt: [] }])).toThrow(/held but not sendable in one request.*: bearer \+ jwt/);
  });

  it('fails before sending with a RequestError naming the schemes each alternative needs', () => {
    let error: unknown;
    try {
      planSync({ bearer: 't' }, [{ oauth: ['write'], headerKey: [] }, { basic: [] }]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RequestError);
    expect((error as Error).message).toContain('op: no security alternative');
    expect((error as Error).message).toContain('needs one of: oauth + headerKey; basic');
  });
});

describe('securityPlanner: the tokens provider', () => {
  it('serves the bearer schemes without a credential of their own, with their scopes', () => {
    const plan = planSync(undefined, [{ oauth: ['accounts', 'openid'], headerKey: [] }, { oidc: ['openid'] }], true);
    expect(plan.tokenSecurity).toEqual([{ oidc: ['openid'] }]);
    expect(plan.placement.headers).toEqual({});
    const both = planSync({ headerKey: 'k' }, [{ oauth: ['accounts'], headerKey: [] }], true);
    expect(both.tokenSecurity).toEqual([{ oauth: ['accounts'] }]);
    expect(both.placement.headers).toEqual({ 'x-api-key': 'k' });
  });

  it('asks the provider with the same requirement list on every call (token caching keys on it)', () => {
    const planner = securityPlanner(schemes, undefined, true);
    const security = [{ oauth: ['accounts'] }];
    expect(planner.plan(security, 'a')).toBe(planner.plan(security, 'b'));
  });

  it('a credential of its own wins over the provider; the provider never serves API keys or basic', () => {
    expect(planSync({ oauth: 'mine' }, [{ oauth: [] }], true)).toMatchObject({ tokenSecurity: [], placement: { headers: { authorization: 'Bearer mine' } } });
    expect(() => planSync(undefined, [{ headerKey: [] }, { basic: [] }], true)).toThrow(RequestError);
  });

  it('a provider token and a basic credential clash in Authorization', () => {
    expect(() => planSync({ basic: { username: 'u', password: 'p' } }, [{ oauth: [], basic: [] }], true)).toThrow(/held but not sendable/);
  });
});

describe('securityPlanner: credentials from functions', () => {
  it('calls them per call and waits for them', async () => {
    let n = 0;
    const planner = securityPlanner(schemes, { headerKey: async () => `k${++n}` }, false);
    const first = await planner.plan([{ headerKey: [] }], 'op');
    const second = await planner.plan([{ headerKey: [] }], 'op');
    expect([first.placement.headers, second.placement.headers]).toEqual([{ 'x-api-key': 'k1' }, { 'x-api-key': 'k2' }]);
  });

  it('a function that gives nothing means not held: the next alternative is sent', async () => {
    const planner = securityPlanner(schemes, { headerKey: () => undefined, bearer: () => Promise.resolve('t') }, false);
    expect((await planner.plan([{ headerKey: [] }, { bearer: [] }], 'op')).placement.headers).toEqual({ authorization: 'Bearer t' });
    await expect(planner.plan([{ headerKey: [] }], 'op')).rejects.toThrow(/needs one of: headerKey/);
  });

  it('a function that throws fails the call with a RequestError naming the scheme', async () => {
    const planner = securityPlanner(
      schemes,
      {
        headerKey: () => {
          throw new Error('vault sealed');
        },
      },
      false,
    );
    await expect(planner.plan([{ headerKey: [] }], 'op')).rejects.toThrow(/op: could not get the credential of security scheme "headerKey": vault sealed/);
  });
});

describe('securityPlanner: values that cannot be sent', () => {
  it('refuses a basic user name with a colon, a malformed basic value, an empty key and a line break in a header', () => {
    expect(() => planSync({ basic: { username: 'a:b', password: 'p' } }, [{ basic: [] }])).toThrow(/user name of security scheme "basic" \(http basic\) must not contain ":"/);
    expect(() => planSync({ basic: 'u:p' }, [{ basic: [] }])).toThrow(/must be \{ username, password \}/);
    expect(() => planSync({ headerKey: '' }, [{ headerKey: [] }])).toThrow(/"headerKey" must be an API key/);
    expect(() => planSync({ headerKey: 'a\r\nx-evil: 1' }, [{ headerKey: [] }])).toThrow(/"headerKey" cannot travel in a header/);
    expect(() => planSync({ bearer: 'a\nb' }, [{ bearer: [] }])).toThrow(/"bearer" cannot travel in a header/);
  });

  it('refuses a header credential with whitespace at an end, which HTTP drops on the way (another key arrives)', () => {
    expect(() => planSync({ headerKey: 'k-1 ' }, [{ headerKey: [] }])).toThrow(/op: the credential of security scheme "headerKey" cannot travel in a header: .*whitespace at an end/);
    expect(() => planSync({ bearer: '\ttok' }, [{ bearer: [] }])).toThrow(/"bearer" cannot travel in a header/);
    expect(() => planSync({ headerKey: 'snow ☃' }, [{ headerKey: [] }])).toThrow(/"headerKey" cannot travel in a header/);
    expect(planSync({ headerKey: 'k 1' }, [{ headerKey: [] }]).placement.headers).toEqual({ 'x-api-key': 'k 1' });
  });
});

describe('placing query and cookie credentials', () => {
  it('adds percent-encoded query parameters, replacing one of the same name and keeping the fragment', () => {
    expect(withQueryCredentials('https://a.example/x', [['api key', 'a/b&c']])).toBe('https://a.example/x?api%20key=a%2Fb%26c');
    expect(withQueryCredentials('https://a.example/x?page=2&api+key=old&q=1#top', [['api key', 'new']])).toBe('https://a.example/x?page=2&q=1&api%20key=new#top');
    expect(withQueryCredentials('https://a.example/x?a=1', [])).toBe('https://a.example/x?a=1');
  });

  it('adds percent-encoded cookies, replacing one of the same name', () => {
    expect(withCookieCredentials(undefined, [['session', 'a b;c']])).toBe('session=a%20b%3Bc');
    expect(withCookieCredentials('theme=dark; session=old', [['session', 'new']])).toBe('theme=dark; session=new');
    expect(withCookieCredentials('theme=dark', [])).toBe('theme=dark');
  });

  it('sends a cookie key of cookie characters as it is (servers compare API keys without decoding them)', () => {
    // Base64 keys hold "+", "/" and "="; encoded, a server comparing the raw cookie sees another key.
    expect(withCookieCredentials(undefined, [['session', 'k+/1==']])).toBe('session=k+/1==');
    // "%" stays encoded, so a server that does decode cannot read "%41" as "A".
    expect(withCookieCredentials(undefined, [['session', '%41']])).toBe('session=%2541');
  });
});

describe('a client with credentials', () => {
  const anything: SchemaLike = { safeParse: (value: unknown) => ({ success: true, data: value }) };
  const operation: OperationSpec = {
    operationId: 'getThing',
    method: 'get',
    path: '/things',
    request: { path: anything, query: anything, headers: anything, cookies: anything, body: undefined },
    responses: { '204': { headers: anything, content: {} } },
  };
  const api = { title: 'Things', version: '1', pathPrefix: '', servers: [] };

  function recordingFetch() {
    const sent: Array<{ url: string; headers: Record<string, string> }> = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      const headers: Record<string, string> = {};
      new Headers(init?.headers).forEach((value, name) => {
        headers[name] = value;
      });
      sent.push({ url: String(input), headers });
      return new Response(null, { status: 204 });
    };
    return { sent, fetch };
  }

  it('puts the chosen credentials on the request: header, query and cookie beside the call’s own', async () => {
    const { sent, fetch } = recordingFetch();
    const core = createClientCore(api, { baseUrl: 'http://h.example', fetch, credentials: { headerKey: 'h', queryKey: 'q/1', cookieKey: 'c1' } }, schemes);
    const method = core.operation(operation, { security: [{ headerKey: [], queryKey: [], cookieKey: [] }] });
    await method({ query: { page: 2 }, cookies: { theme: 'dark' } } as never);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('http://h.example/things?page=2&api%20key=q%2F1');
    expect(sent[0]!.headers).toMatchObject({ 'x-api-key': 'h', cookie: 'theme=dark; session=c1' });
  });

  it('fails before sending when no alternative can be satisfied', async () => {
    const { sent, fetch } = recordingFetch();
    const core = createClientCore(api, { baseUrl: 'http://h.example', fetch, credentials: {} }, schemes);
    await expect(core.operation(operation, { security: [{ basic: [] }] })()).rejects.toThrow(RequestError);
    expect(sent).toEqual([]);
  });

  it('uses the tokens provider for a bearer scheme and an API key beside it', async () => {
    const { sent, fetch } = recordingFetch();
    const core = createClientCore(api, { baseUrl: 'http://h.example', fetch, credentials: { headerKey: 'h' }, tokens: staticToken('tok') }, schemes);
    await core.operation(operation, { security: [{ oauth: ['read'], headerKey: [] }] })();
    expect(sent[0]!.headers).toMatchObject({ authorization: 'Bearer tok', 'x-api-key': 'h' });
  });

  it('ends a call whose credential function never answers: at the call\'s abort, or after timeoutMs', async () => {
    const { sent, fetch } = recordingFetch();
    const never = (): Promise<string> => new Promise(() => {});
    const aborted = new AbortController();
    const core = createClientCore(api, { baseUrl: 'http://h.example', fetch, credentials: { headerKey: never } }, schemes);
    const call = core.operation(operation, { security: [{ headerKey: [] }] })(undefined, { signal: aborted.signal });
    aborted.abort(new Error('the user left'));
    await expect(call).rejects.toThrow('the user left');
    const limited = createClientCore(api, { baseUrl: 'http://h.example', fetch, timeoutMs: 20, credentials: { headerKey: never } }, schemes);
    await expect(limited.operation(operation, { security: [{ headerKey: [] }] })()).rejects.toThrow(/getThing: a credential function gave no value within 20 ms \(timeoutMs\)/);
    expect(sent).toEqual([]);
  });

  it('without credentials or tokens, sends the call as built and lets the server decide (as before credentials existed)', async () => {
    const { sent, fetch } = recordingFetch();
    const core = createClientCore(api, { baseUrl: 'http://h.example', fetch }, schemes);
    await core.operation(operation, { security: [{ basic: [] }] })();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['authorization']).toBeUndefined();
  });
});
