/**
 * A 401 carries the challenges of the schemes its operation accepts (RFC 9110 §11.6.1,
 * RFC 7617, RFC 6750), each once, and a message worded for the credential.
 */
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiRouter, type ApiDefinition, type OperationSchemas, type RouterOptions } from '../../src/runtime/index.js';
import { EXPRESS } from '../helpers/apps.js';
import { listen, send, type Running } from '../helpers/http.js';
import { museumAuthorize } from '../readme-authorize.js';

const noParams = z.looseObject({});

function getAt(operationId: string, path: string): OperationSchemas {
  return {
    operationId,
    method: 'get',
    path,
    request: { path: noParams, query: noParams, headers: noParams, cookies: noParams, body: undefined },
    responses: { '200': { headers: noParams, content: { 'application/json': z.strictObject({ ok: z.boolean() }) } } },
  };
}

/** The operation, declaring a 401 whose body carries an error code (this publisher's own schema). */
function withCodedRefusal(operation: OperationSchemas): OperationSchemas {
  const refusal = z.strictObject({ code: z.string(), message: z.string() });
  return { ...operation, responses: { ...operation.responses, '401': { headers: noParams, content: { 'application/json': refusal } } } };
}

/** A museum's API: staff pages behind HTTP Basic, tickets behind a bearer token, the archive behind either, the shop behind an API key. */
const definition: ApiDefinition = {
  api: { title: 'City "Museum"', version: '1', pathPrefix: '/museum', servers: ['/museum'] },
  operations: {
    staff: getAt('staff', '/staff'),
    tickets: getAt('tickets', '/tickets'),
    archive: getAt('archive', '/archive'),
    shop: getAt('shop', '/shop'),
    refuses: { ...getAt('refuses', '/refuses'), responses: { '401': { headers: noParams, content: {} } } },
    lockers: withCodedRefusal(getAt('lockers', '/lockers')),
    members: withCodedRefusal(getAt('members', '/members')),
  },
  meta: {
    staff: { security: [{ staffBasic: [] }] },
    tickets: { security: [{ visitorToken: [] }] },
    // Two bearer schemes and Basic: one Bearer challenge, one Basic.
    archive: { security: [{ staffBasic: [] }, { visitorToken: [] }, { partnerOAuth: ['archive'] }] },
    shop: { security: [{ shopKey: [] }] },
    refuses: { security: [{ staffBasic: [] }] },
    lockers: { security: [{ staffBasic: [] }] },
    members: { security: [{ visitorToken: [] }] },
  },
  securitySchemes: {
    staffBasic: { type: 'http', scheme: 'basic' },
    visitorToken: { type: 'http', scheme: 'bearer' },
    partnerOAuth: { type: 'oauth2' },
    shopKey: { type: 'apiKey', in: 'header', name: 'X-Shop-Key' },
  },
};

const ok = () => ({ status: 200, body: { ok: true } });
const handlers = { staff: ok, tickets: ok, archive: ok, shop: ok, refuses: () => ({ status: 401 }), lockers: ok, members: ok };
const basicGood = `Basic ${Buffer.from('curator:se:cret').toString('base64')}`;
// The README's `authorize`: HTTP Basic against the staff's passwords, the shop's API key.
const staff = { checkPassword: async (user: string, password: string) => user === 'curator' && password === 'se:cret' };
const options: RouterOptions = { authorize: museumAuthorize(staff, 'shop-key-1'), onError: () => undefined };

let running: Running;
let base: string;
beforeAll(async () => {
  const app = EXPRESS[0][1]();
  app.use(createApiRouter(definition, handlers, options));
  running = await listen(app);
  base = `${running.origin}/museum`;
});
afterAll(() => running.close());

describe('401 challenges by scheme', () => {
  it('asks for Basic credentials, with the API title as realm, where the operation accepts HTTP Basic', async () => {
    const reply = await send(`${base}/staff`);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Basic realm="City \\"Museum\\""');
    expect(reply.text).toContain('No credentials');
    expect(reply.text).not.toContain('access token');
  });

  it('says refused Basic credentials are not valid, not a token', async () => {
    const reply = await send(`${base}/staff`, { headers: { authorization: `Basic ${Buffer.from('curator:wrong').toString('base64')}` } });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Basic realm="City \\"Museum\\""');
    expect(reply.text).toContain('The credentials are not valid');
    expect((await send(`${base}/staff`, { headers: { authorization: basicGood } })).status).toBe(200);
  });

  it('asks for a bearer token where the operation accepts one, and says invalid_token for a refused one', async () => {
    const missing = await send(`${base}/tickets`);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect(missing.text).toContain('No access token');
    const refused = await send(`${base}/tickets`, { headers: { authorization: 'Bearer forged' } });
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(refused.text).toContain('The access token is not valid');
  });

  it('gives every accepted kind its challenge once, in one field', async () => {
    const reply = await send(`${base}/archive`);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Basic realm="City \\"Museum\\"", Bearer');
    expect(reply.text).toContain('No credentials (send HTTP Basic credentials or an access token)');
  });

  it('names where an API key goes, in the challenge and the message', async () => {
    const reply = await send(`${base}/shop`);
    expect(reply.headers['www-authenticate']).toBe('ApiKey realm="City \\"Museum\\"", in="header", name="X-Shop-Key"');
    expect(reply.text).toContain('No API key in header X-Shop-Key');
    const refused = await send(`${base}/shop`, { headers: { 'x-shop-key': 'shop-key-2' } });
    expect(refused.status).toBe(401);
    expect(refused.text).toContain('The API key is not valid');
    expect((await send(`${base}/shop`, { headers: { 'x-shop-key': 'shop-key-1' } })).status).toBe(200);
  });

  it('gives a missing credential the code of its kind where the 401 body carries a code', async () => {
    // Only HTTP Basic accepted: nothing says an access token is missing.
    const basic = await send(`${base}/lockers`);
    expect(basic.status).toBe(401);
    expect(basic.json()).toEqual({ code: 'Credentials.Missing', message: 'No credentials' });
    // A bearer token accepted: the code says so, as it does for this API family.
    const token = await send(`${base}/members`);
    expect(token.status).toBe(401);
    expect(token.json()).toEqual({ code: 'AccessToken.Missing', message: 'No access token' });
  });

  it("adds the challenge to a handler's own 401", async () => {
    const reply = await send(`${base}/refuses`, { headers: { authorization: basicGood } });
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Basic realm="City \\"Museum\\""');
  });
});

describe('401 challenges for any API title', () => {
  it('sends a realm of visible ASCII, backslash and quote escaped, whatever characters the title holds', async () => {
    // An em dash, accents, CJK, an emoji, a backslash and a line break: a header cannot carry
    // characters past Latin-1, so a realm made of them verbatim made every 401 throw.
    const title = 'Musée — 博物馆 🏛 C:\\ "Main"\nHall';
    const app = EXPRESS[0][1]();
    app.use(createApiRouter({ ...definition, api: { ...definition.api, title } }, handlers, options));
    const other = await listen(app);
    try {
      const reply = await send(`${other.origin}/museum/staff`);
      expect(reply.status).toBe(401);
      const challenge = String(reply.headers['www-authenticate']);
      expect(challenge).toMatch(/^Basic realm="(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/);
      expect(challenge).toContain('Musee');
      expect(challenge).toContain('C:\\\\ \\"Main\\"');
    } finally {
      await other.close();
    }
  });
});
