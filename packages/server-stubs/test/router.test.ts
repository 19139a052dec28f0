/**
 * Every status path of the generated routers, over loopback HTTP against real Express 5 and
 * Express 4, for both spec versions.
 */
import http from 'node:http';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPRESS, PREFIX, VERSIONS, startApp } from './helpers/apps.js';
import { ACCOUNT_ID, attestation } from './helpers/fixtures.js';
import { newState } from './helpers/handlers.js';
import { send, type Running } from './helpers/http.js';
import { testKeys, type TestKeys } from './helpers/keys.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ALLOWED_CLAIMS = ['iss', 'exp', 'nbf', 'aud', 'iat', 'message'];

let keys: TestKeys;
beforeAll(async () => {
  keys = await testKeys();
});

async function signBody(message: unknown, key = keys.tppPrivate, lifetime = 300): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ message: message as Record<string, unknown> })
    .setProtectedHeader({ alg: 'ES256' })
    .setIssuer('tpp-test')
    .setIssuedAt(now)
    .setNotBefore(now - 10)
    .setExpirationTime(now + lifetime)
    .sign(key);
}

const combos = EXPRESS.flatMap(([expressName, express]) => VERSIONS.map((version) => ({ name: `${version} on ${expressName}`, version, express })));

describe.each(combos)('$name', ({ version, express }) => {
  const state = newState();
  let app: Running;
  let base: string;
  const auth = (token = 'user') => ({ authorization: `Bearer ${token}` });

  beforeAll(async () => {
    app = await startApp({ version, express, state, keys });
    base = `${app.origin}${PREFIX[version]}`;
  });
  afterAll(() => app.close());

  it('answers a valid request with 200 JSON, echoing x-fapi-interaction-id', async () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const reply = await send(`${base}/accounts`, { headers: { ...auth(), 'x-fapi-interaction-id': id } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['x-fapi-interaction-id']).toBe(id);
    expect(reply.json()).toEqual({
      Data: { Account: [expect.objectContaining({ AccountId: 'acc-001' }), expect.objectContaining({ AccountId: 'acc-002' })] },
      Links: { Self: `${base}/accounts` },
      Meta: { TotalPages: 1 },
    });
  });

  it('builds request.url from an absolute-form request target (RFC 9112 §3.2.2) as origin + path once', async () => {
    // Node sends `path` as given: here the absolute form, `GET http://127.0.0.1:PORT/... HTTP/1.1`.
    const url = new URL(`${base}/accounts?x=1`);
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request({ host: url.hostname, port: url.port, path: url.href, headers: auth(), agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(reply.status).toBe(200);
    expect((JSON.parse(reply.text) as { Links: { Self: string } }).Links.Self).toBe(`${base}/accounts?x=1`);
  });

  it('creates an RFC 4122 interaction id when none is sent', async () => {
    const reply = await send(`${base}/accounts`, { headers: auth() });
    expect(reply.headers['x-fapi-interaction-id']).toMatch(UUID);
  });

  it('rejects a malformed interaction id with 400 naming the header, and answers with a fresh id', async () => {
    const reply = await send(`${base}/accounts`, { headers: { ...auth(), 'x-fapi-interaction-id': 'not-a-uuid' } });
    expect(reply.status).toBe(400);
    expect(reply.headers['x-fapi-interaction-id']).toMatch(UUID);
    expect(reply.json()).toEqual({
      Errors: [{ Code: 'Resource.InvalidFormat', Message: expect.stringContaining('x-fapi-interaction-id'), Path: 'x-fapi-interaction-id' }],
    });
  });

  it('answers an unknown path with 404 and no body', async () => {
    const reply = await send(`${base}/no-such-thing`, { headers: auth() });
    expect(reply.status).toBe(404);
    expect(reply.text).toBe('');
    expect(reply.headers['x-fapi-interaction-id']).toMatch(UUID);
  });

  it('leaves paths outside its prefix to the next middleware', async () => {
    const reply = await send(`${app.origin}/elsewhere`);
    expect(reply.status).toBe(599);
  });

  it('answers a known path with an undefined method with 405, Allow and no body', async () => {
    const reply = await send(`${base}/accounts`, { method: 'DELETE', headers: auth() });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
    expect(reply.text).toBe('');
  });

  it('answers HEAD like GET without a body', async () => {
    const reply = await send(`${base}/accounts`, { method: 'HEAD', headers: auth() });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('');
  });

  it('answers an Accept that allows no response type with 406 and no body', async () => {
    const reply = await send(`${base}/accounts`, { headers: { ...auth(), accept: 'text/html, application/xml;q=0.9' } });
    expect(reply.status).toBe(406);
    expect(reply.text).toBe('');
  });

  it('honours q=0 exclusions in Accept', async () => {
    const reply = await send(`${base}/accounts`, { headers: { ...auth(), accept: 'application/json;q=0, application/jwt' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/jwt');
  });

  it('answers a body of an unaccepted Content-Type with 415 (defined for the patch) and no body', async () => {
    const reply = await send(`${base}/account-access-consents/c1`, {
      method: 'PATCH',
      headers: { ...auth('tpp'), 'content-type': 'text/plain' },
      body: 'revoke',
    });
    expect(reply.status).toBe(415);
    expect(reply.text).toBe('');
  });

  it('answers a compressed body with 415', async () => {
    const reply = await send(`${base}/account-access-consents/c1`, {
      method: 'PATCH',
      headers: { ...auth('tpp'), 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: '{}',
    });
    expect(reply.status).toBe(415);
  });

  it('checks Accept before Content-Type, and Content-Type before the token', async () => {
    const notAcceptable = await send(`${base}/accounts`, { headers: { accept: 'text/html' } });
    expect(notAcceptable.status).toBe(406);
    const unsupported = await send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(unsupported.status).toBe(415);
  });

  it('answers a missing bearer token with 401, WWW-Authenticate and no body', async () => {
    const reply = await send(`${base}/accounts`);
    expect(reply.status).toBe(401);
    expect(reply.headers['www-authenticate']).toBe('Bearer');
    expect(reply.text).toBe('');
  });

  it('answers a token the authorize hook rejects with 401', async () => {
    const reply = await send(`${base}/accounts`, { headers: auth('forged') });
    expect(reply.status).toBe(401);
    expect(reply.text).toBe('');
  });

  it('answers a token without the scope with 403 AccessToken.InvalidScope', async () => {
    const reply = await send(`${base}/accounts`, { headers: auth('openid-only') });
    expect(reply.status).toBe(403);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.json()).toEqual({ Errors: [{ Code: 'AccessToken.InvalidScope', Message: 'The access token lacks scope accounts' }] });
  });

  it('answers an invalid path parameter with 400 Resource.InvalidFormat naming it', async () => {
    const reply = await send(`${base}/accounts/${'x'.repeat(41)}`, { headers: auth() });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      Errors: [{ Code: 'Resource.InvalidFormat', Message: expect.stringMatching(/^path parameter AccountId: /), Path: 'AccountId' }],
    });
  });

  it('decodes percent-encoded path parameters, and rejects broken encodings with 400', async () => {
    const ok = await send(`${base}/accounts/acc%20007`, { headers: auth() });
    expect(ok.status).toBe(200);
    expect((ok.json() as { Data: { AccountId: string } }).Data.AccountId).toBe('acc 007');
    const broken = await send(`${base}/accounts/acc%E0%A4%A`, { headers: auth() });
    expect(broken.status).toBe(400);
    expect(broken.json()).toEqual({ Errors: [{ Code: 'Resource.InvalidFormat', Message: expect.any(String), Path: 'AccountId' }] });
  });

  it('answers an invalid query parameter with 400 naming it', async () => {
    const reply = await send(`${base}/accounts/${ACCOUNT_ID}/transactions?fromBookingDateTime=yesterday`, { headers: auth() });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      Errors: [{ Code: 'Resource.InvalidFormat', Message: expect.stringMatching(/^query parameter fromBookingDateTime: /), Path: 'fromBookingDateTime' }],
    });
  });

  it('says so when a query parameter the spec defines once is repeated', async () => {
    const reply = await send(`${base}/accounts/${ACCOUNT_ID}/transactions?fromBookingDateTime=2025-01-01T00:00:00Z&fromBookingDateTime=2025-02-01T00:00:00Z`, {
      headers: auth(),
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      Errors: [{ Code: 'Resource.InvalidFormat', Message: 'query parameter fromBookingDateTime: given 2 times; the spec defines this parameter once', Path: 'fromBookingDateTime' }],
    });
  });

  it('reports every invalid field at once', async () => {
    const reply = await send(`${base}/accounts/${ACCOUNT_ID}/transactions?fromBookingDateTime=a&toBookingDateTime=b`, {
      headers: { ...auth(), 'x-fapi-auth-date': 'Tuesday' },
    });
    expect(reply.status).toBe(400);
    const paths = (reply.json() as { Errors: Array<{ Path: string }> }).Errors.map((e) => e.Path);
    expect(paths).toEqual(['fromBookingDateTime', 'toBookingDateTime', 'x-fapi-auth-date']);
  });

  it('answers an invalid header with 400 naming it', async () => {
    const reply = await send(`${base}/accounts`, { headers: { ...auth(), 'x-fapi-auth-date': 'yesterday' } });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      Errors: [{ Code: 'Resource.InvalidFormat', Message: expect.stringMatching(/^header x-fapi-auth-date: /), Path: 'x-fapi-auth-date' }],
    });
  });

  it('answers an invalid body with 400 Body.InvalidFormat and a JSON path', async () => {
    const reply = await send(`${base}/account-access-consents/c1`, {
      method: 'PATCH',
      headers: { ...auth('tpp'), 'content-type': 'application/json' },
      body: JSON.stringify({ Data: { Status: 'Bogus' } }),
    });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({
      Errors: [{ Code: 'Body.InvalidFormat', Message: expect.stringMatching(/^body \$\.Data\.Status: /), Path: '$.Data.Status' }],
    });
  });

  it('answers a missing required body with 400', async () => {
    const reply = await send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: auth('tpp') });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'A request body is required', Path: '$' }] });
  });

  it('passes a valid JSON patch to the handler and answers 204 without a body', async () => {
    state.patches.length = 0;
    const reply = await send(`${base}/account-access-consents/c1`, {
      method: 'PATCH',
      headers: { ...auth('tpp'), 'content-type': 'application/json; charset=UTF-8' },
      body: JSON.stringify({ Data: { Status: 'Revoked', RevokedBy: 'TPP' } }),
    });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(state.patches).toEqual([{ body: { Data: { Status: 'Revoked', RevokedBy: 'TPP' } }, contentType: 'application/json; charset=utf-8', signed: false }]);
  });

  it('verifies a signed patch before the handler sees its message', async () => {
    state.patches.length = 0;
    const token = await signBody({ Data: { Status: 'Revoked' } });
    const reply = await send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: { ...auth('tpp'), 'content-type': 'application/jwt' }, body: token });
    expect(reply.status).toBe(204);
    expect(state.patches).toEqual([{ body: { Data: { Status: 'Revoked' } }, contentType: 'application/jwt', signed: true }]);
  });

  it('answers a patch signed with another key with 400 JWS.InvalidSignature', async () => {
    const { generateKeyPair } = await import('jose');
    const other = await generateKeyPair('ES256');
    const token = await signBody({ Data: { Status: 'Revoked' } }, other.privateKey);
    const reply = await send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: { ...auth('tpp'), 'content-type': 'application/jwt' }, body: token });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ Errors: [{ Code: 'JWS.InvalidSignature', Message: 'body: signature does not verify' }] });
  });

  it('answers an expired signed patch with 400 JWS.InvalidClaim', async () => {
    const token = await signBody({ Data: { Status: 'Revoked' } }, keys.tppPrivate, -120);
    const reply = await send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: { ...auth('tpp'), 'content-type': 'application/jwt' }, body: token });
    expect(reply.status).toBe(400);
    expect((reply.json() as { Errors: Array<{ Code: string }> }).Errors[0]!.Code).toBe('JWS.InvalidClaim');
  });

  it('answers a body that is not a JWS with 400 JWS.Malformed', async () => {
    const reply = await send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: { ...auth('tpp'), 'content-type': 'application/jwt' }, body: '{"Data":{}}' });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ Errors: [{ Code: 'JWS.Malformed', Message: 'body: body is not a compact JWS' }] });
  });

  it('checks the claims of a signed body against the schema (no extra claims)', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ message: { Data: { Status: 'Revoked' } }, extra: 1 })
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('tpp')
      .setNotBefore(now)
      .setExpirationTime(now + 60)
      .sign(keys.tppPrivate);
    const reply = await send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: { ...auth('tpp'), 'content-type': 'application/jwt' }, body: token });
    expect(reply.status).toBe(400);
    expect(reply.json()).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: expect.stringContaining('extra'), Path: '$' }] });
  });

  describe('hostile input', () => {
    const patch = (body: string | Buffer, headers: Record<string, string> = {}) =>
      send(`${base}/account-access-consents/c1`, { method: 'PATCH', headers: { ...auth('tpp'), 'content-type': 'application/json', ...headers }, body });

    it('answers malformed JSON with 400', async () => {
      const reply = await patch('{"Data": {');
      expect(reply.status).toBe(400);
      expect(reply.json()).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: expect.stringMatching(/^body: malformed JSON/), Path: '$' }] });
    });

    it('answers a __proto__ member with 400', async () => {
      const reply = await patch('{"Data":{"Status":"Revoked","__proto__":{"polluted":true}}}');
      expect(reply.status).toBe(400);
      expect(reply.json()).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'body: member "__proto__" is not allowed', Path: '$.Data' }] });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('answers a __proto__ query parameter with 400', async () => {
      const reply = await send(`${base}/accounts?__proto__=x`, { headers: auth() });
      expect(reply.status).toBe(400);
      expect(reply.json()).toEqual({ Errors: [{ Code: 'Resource.InvalidFormat', Message: 'query name "__proto__" is not allowed', Path: '__proto__' }] });
    });

    it('answers deeply nested JSON with 400, not a stack overflow', async () => {
      const reply = await patch(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      expect(reply.status).toBe(400);
      expect(reply.json()).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'body: nesting deeper than 64 levels', Path: '$' }] });
    });

    it('answers an oversized body with 400 (the spec defines no 413 here) and closes the connection', async () => {
      const reply = await patch(Buffer.alloc(300 * 1024, 0x20));
      expect(reply.status).toBe(400);
      expect(reply.headers.connection).toBe('close');
      expect(reply.json()).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'The request body exceeds 262144 bytes' }] });
    });

    it('answers a large but allowed array of wrong items with a bounded 400', async () => {
      const reply = await patch(JSON.stringify({ Data: { Status: 'Revoked' }, Subscription: { Webhook: { Url: 1 } }, Junk: Array.from({ length: 20_000 }, (_, i) => i) }));
      expect(reply.status).toBe(400);
      const errors = (reply.json() as { Errors: unknown[] }).Errors;
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.length).toBeLessThanOrEqual(20);
    });

    it('still serves normal requests afterwards', async () => {
      const reply = await send(`${base}/accounts`, { headers: auth() });
      expect(reply.status).toBe(200);
    });
  });

  it('answers a consent that grants none of the permissions with 403 Consent.Invalid', async () => {
    const reply = await send(`${base}/accounts`, { headers: auth('balances-only') });
    expect(reply.status).toBe(403);
    expect(reply.json()).toEqual({ Errors: [{ Code: 'Consent.Invalid', Message: 'The consent grants none of ReadAccountsBasic, ReadAccountsDetail' }] });
  });

  it('signs the response when application/jwt is negotiated, with only the claims of section 2.1', async () => {
    const json = await send(`${base}/accounts`, { headers: auth() });
    const reply = await send(`${base}/accounts`, { headers: { ...auth(), accept: 'application/jwt' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/jwt');
    const { payload, protectedHeader } = await jwtVerify(reply.text, keys.serverPublic, { algorithms: ['ES256'], issuer: 'lfi-test', audience: 'tpp-test' });
    expect(protectedHeader).toEqual({ alg: 'ES256', typ: 'JWT', kid: 'server-1' });
    expect(Object.keys(payload).sort()).toEqual([...ALLOWED_CLAIMS].sort());
    expect(payload.message).toEqual(json.json());
    expect(payload.exp! - payload.nbf!).toBe(300);
  });

  it('signs error envelopes too when the client asks only for application/jwt', async () => {
    const reply = await send(`${base}/accounts`, { headers: { ...auth('openid-only'), accept: 'application/jwt' } });
    expect(reply.status).toBe(403);
    expect(reply.headers['content-type']).toBe('application/jwt');
    expect(decodeProtectedHeader(reply.text).alg).toBe('ES256');
    const { payload } = await jwtVerify(reply.text, keys.serverPublic, { algorithms: ['ES256'] });
    expect(payload.message).toEqual({ Errors: [{ Code: 'AccessToken.InvalidScope', Message: 'The access token lacks scope accounts' }] });
  });

  it('turns a thrown ApiError into its status and envelope', async () => {
    state.behaviour = 'api-error';
    try {
      const reply = await send(`${base}/accounts`, { headers: auth() });
      expect(reply.status).toBe(403);
      expect(reply.json()).toEqual({ Errors: [{ Code: 'Consent.Invalid', Message: 'The consent does not cover this account' }] });
    } finally {
      state.behaviour = 'ok';
    }
  });

  it('answers a thrown 429 with Retry-After and no body', async () => {
    state.behaviour = 'forbidden';
    try {
      const reply = await send(`${base}/accounts`, { headers: auth() });
      expect(reply.status).toBe(429);
      expect(reply.headers['retry-after']).toBe('7');
      expect(reply.text).toBe('');
    } finally {
      state.behaviour = 'ok';
    }
  });

  it('answers a handler bug with 500 GenericError and no stack trace', async () => {
    state.behaviour = 'throws';
    try {
      const reply = await send(`${base}/accounts`, { headers: auth() });
      expect(reply.status).toBe(500);
      expect(reply.json()).toEqual({ Errors: [{ Code: 'GenericError', Message: 'The server failed to handle the request' }] });
      expect(reply.text).not.toContain('secret');
      expect(reply.text).not.toContain('handler.ts');
    } finally {
      state.behaviour = 'ok';
    }
  });

  it('answers a result that breaks the response schema with 500', async () => {
    state.behaviour = 'invalid-body';
    try {
      const reply = await send(`${base}/accounts`, { headers: auth() });
      expect(reply.status).toBe(500);
      expect(reply.json()).toEqual({ Errors: [{ Code: 'GenericError', Message: 'The server failed to produce a valid response' }] });
    } finally {
      state.behaviour = 'ok';
    }
  });

  it('answers a result with a status the spec does not define with 500', async () => {
    state.behaviour = 'undefined-status';
    try {
      const reply = await send(`${base}/accounts`, { headers: auth() });
      expect(reply.status).toBe(500);
    } finally {
      state.behaviour = 'ok';
    }
  });

  if (version === 'v2.2') {
    describe('attestations (v2.2 only)', () => {
      const url = () => `${base}/account-access-consents/c1/attestations`;

      it('verifies the signed attestation and answers 201 signed', async () => {
        state.attestations.length = 0;
        const token = await signBody({ Data: attestation });
        const reply = await send(url(), { method: 'POST', headers: { ...auth('tpp'), 'content-type': 'application/jwt' }, body: token });
        expect(reply.status).toBe(201);
        expect(reply.headers['content-type']).toBe('application/jwt');
        expect(state.attestations).toEqual([{ Data: attestation }]);
        const { payload } = await jwtVerify(reply.text, keys.serverPublic, { algorithms: ['ES256'] });
        expect(Object.keys(payload).every((k) => ALLOWED_CLAIMS.includes(k))).toBe(true);
        expect(payload.message).toEqual({
          Data: expect.objectContaining({ AttestationId: '0f8fad5b-d9cb-469f-a165-70867728950e', Attestation: attestation }),
          Links: { Self: url() },
        });
      });

      it('answers a JSON attestation with 415', async () => {
        const reply = await send(url(), { method: 'POST', headers: { ...auth('tpp'), 'content-type': 'application/json' }, body: JSON.stringify({ Data: attestation }) });
        expect(reply.status).toBe(415);
      });

      it('answers a client that refuses application/jwt with 406', async () => {
        const token = await signBody({ Data: attestation });
        const reply = await send(url(), { method: 'POST', headers: { ...auth('tpp'), 'content-type': 'application/jwt', accept: 'application/json' }, body: token });
        expect(reply.status).toBe(406);
      });

      it('answers an attestation whose message breaks the schema with 400 naming the member', async () => {
        const token = await signBody({ Data: { ...attestation, AttestationType: 'Other' } });
        const reply = await send(url(), { method: 'POST', headers: { ...auth('tpp'), 'content-type': 'application/jwt' }, body: token });
        expect(reply.status).toBe(400);
        const errors = (reply.json() as { Errors: Array<{ Code: string; Path: string }> }).Errors;
        expect(errors.map((e) => [e.Code, e.Path])).toEqual([['Body.InvalidFormat', '$.message.Data.AttestationType']]);
      });
    });
  }
});

describe.each(VERSIONS)('options (%s)', (version) => {
  const express = EXPRESS[0][1];

  it('with jsonWriters, writes the body through its schema\'s compiled writer: members in schema order, text escaped as JSON.stringify escapes it', async () => {
    const state = newState();
    const app = await startApp({ version, express, state, keys, options: { jsonWriters: true } });
    try {
      state.behaviour = 'members-out-of-order';
      const reordered = await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } });
      expect(reordered.status).toBe(200);
      // JSON.stringify would keep the handler's order (Meta first); the writer follows the schema.
      expect(reordered.text.startsWith('{"Data":{"Account":[')).toBe(true);
      const value = reordered.json() as Record<string, unknown>;
      expect(reordered.text).toBe(JSON.stringify({ Data: value['Data'], Links: value['Links'], Meta: value['Meta'] }));
      state.behaviour = 'text-to-escape';
      const escaped = await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } });
      expect(escaped.status).toBe(200);
      const nickname = (escaped.json() as { Data: { Account: Array<{ Nickname: string }> } }).Data.Account[0]!.Nickname;
      expect(nickname).toBe('a "quoted" \\ name\u2028\ud800');
      expect(escaped.text).toContain('\\ud800');
      expect(escaped.text).toBe(JSON.stringify(escaped.json()));
      state.behaviour = 'invalid-body';
      expect((await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } })).status).toBe(500);
    } finally {
      await app.close();
    }
  });

  it('without jsonWriters, writes with JSON.stringify: the handler\'s member order', async () => {
    const state = newState();
    state.behaviour = 'members-out-of-order';
    const app = await startApp({ version, express, state, keys, options: { jsonWriters: false } });
    try {
      const reply = await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } });
      expect(reply.status).toBe(200);
      expect(reply.text.startsWith('{"Meta":')).toBe(true);
    } finally {
      await app.close();
    }
  });

  it('switches response validation off', async () => {
    const state = newState();
    state.behaviour = 'invalid-body';
    const app = await startApp({ version, express, state, keys, options: { validateResponses: false } });
    try {
      const reply = await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } });
      expect(reply.status).toBe(200);
      expect((reply.json() as { Meta: unknown }).Meta).toEqual({ TotalPages: -1 });
    } finally {
      await app.close();
    }
  });

  it('reports handler bugs and contract breaches to onError', async () => {
    const state = newState();
    const seen: Array<{ phase: string; operationId: string | undefined; issues: readonly string[] | undefined }> = [];
    const app = await startApp({
      version,
      express,
      state,
      keys,
      options: { onError: (_error, context) => seen.push({ phase: context.phase, operationId: context.operationId, issues: context.issues }) },
    });
    try {
      state.behaviour = 'throws';
      await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } });
      state.behaviour = 'invalid-body';
      await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } });
      expect(seen).toEqual([
        { phase: 'handler', operationId: 'GetAccounts', issues: undefined },
        { phase: 'response', operationId: 'GetAccounts', issues: ['Meta.TotalPages: Too small: expected number to be >=0'] },
      ]);
    } finally {
      await app.close();
    }
  });

  it('tells why it refused its handler\'s answer in X-Contract-Violation when asked, never by default in production', async () => {
    const state = newState();
    state.behaviour = 'invalid-body';
    const url = (app: { origin: string }) => `${app.origin}${PREFIX[version]}/accounts`;
    const explained = await startApp({ version, express, state, keys, options: { explainResponseErrors: true } });
    try {
      const reply = await send(url(explained), { headers: { authorization: 'Bearer user' } });
      expect(reply.status).toBe(500);
      // The body stays the declared error; the cause is the header's, as JSON, without the values.
      expect(reply.json()).toEqual({ Errors: [{ Code: 'GenericError', Message: 'The server failed to produce a valid response' }] });
      expect(JSON.parse(reply.headers['x-contract-violation'] as string)).toEqual({
        message: 'status 200: application/json; charset=utf-8 body does not match the response schema',
        issues: ['Meta.TotalPages: Too small: expected number to be >=0'],
      });
      state.behaviour = 'undefined-status';
      const status = await send(url(explained), { headers: { authorization: 'Bearer user' } });
      expect(JSON.parse(status.headers['x-contract-violation'] as string)).toMatchObject({ message: expect.stringMatching(/^status \d+ is not defined for GetAccounts$/) });
    } finally {
      await explained.close();
    }
    state.behaviour = 'invalid-body';
    const previous = process.env['NODE_ENV'];
    const quiet = await startApp({ version, express, state, keys, options: {} });
    try {
      for (const mode of ['production', undefined]) {
        if (mode === undefined) delete process.env['NODE_ENV'];
        else process.env['NODE_ENV'] = mode;
        const reply = await send(url(quiet), { headers: { authorization: 'Bearer user' } });
        expect(reply.status).toBe(500);
        expect(reply.headers['x-contract-violation'], String(mode)).toBeUndefined();
      }
      process.env['NODE_ENV'] = 'development';
      expect((await send(url(quiet), { headers: { authorization: 'Bearer user' } })).headers['x-contract-violation']).toContain('Meta.TotalPages');
    } finally {
      if (previous === undefined) delete process.env['NODE_ENV'];
      else process.env['NODE_ENV'] = previous;
      await quiet.close();
    }
  });

  it('does not offer application/jwt without a signing key', async () => {
    const app = await startApp({ version, express, state: newState(), keys, options: { signing: undefined } });
    try {
      const reply = await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user', accept: 'application/jwt' } });
      expect(reply.status).toBe(406);
    } finally {
      await app.close();
    }
  });

  it('answers 429 with Retry-After when the rate-limit hook says wait', async () => {
    const app = await startApp({ version, express, state: newState(), keys, options: { rateLimit: ({ operationId }) => (operationId === 'GetAccounts' ? 12 : undefined) } });
    try {
      const limited = await send(`${app.origin}${PREFIX[version]}/accounts`, { headers: { authorization: 'Bearer user' } });
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBe('12');
      expect(limited.text).toBe('');
      const other = await send(`${app.origin}${PREFIX[version]}/accounts/a1`, { headers: { authorization: 'Bearer user' } });
      expect(other.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('mounts under another prefix, and inside an Express mount path', async () => {
    const app = await startApp({ version, express, state: newState(), keys, options: { prefix: '/custom' } });
    try {
      const reply = await send(`${app.origin}/custom/accounts`, { headers: { authorization: 'Bearer user' } });
      expect(reply.status).toBe(200);
      expect((reply.json() as { Links: { Self: string } }).Links.Self).toBe(`${app.origin}/custom/accounts`);
      expect((await send(`${app.origin}${PREFIX[version]}/accounts`)).status).toBe(599);
    } finally {
      await app.close();
    }
  });

  it('uses publicUrl for request.url', async () => {
    const app = await startApp({ version, express, state: newState(), keys, options: { publicUrl: 'https://rs.lfi.example.com' } });
    try {
      const reply = await send(`${app.origin}${PREFIX[version]}/accounts?x=1`, { headers: { authorization: 'Bearer user' } });
      expect((reply.json() as { Links: { Self: string } }).Links.Self).toBe(`https://rs.lfi.example.com${PREFIX[version]}/accounts?x=1`);
    } finally {
      await app.close();
    }
  });

  it('calls the consent hook with the operation permissions and the grant', async () => {
    const calls: unknown[] = [];
    const { ApiError } = await import('../src/runtime/index.js');
    const app = await startApp({
      version,
      express,
      state: newState(),
      keys,
      options: {
        checkConsent: ({ operationId, permissions, grant, request }) => {
          calls.push({ operationId, permissions, grant, accountId: (request.path as { AccountId?: string }).AccountId });
          if (operationId === 'GetAccountsAccountId') throw new ApiError(403, 'Consent.AccountTemporarilyBlocked', 'Blocked for now');
        },
      },
    });
    try {
      const blocked = await send(`${app.origin}${PREFIX[version]}/accounts/a9`, { headers: { authorization: 'Bearer user' } });
      expect(blocked.status).toBe(403);
      expect(blocked.json()).toEqual({ Errors: [{ Code: 'Consent.AccountTemporarilyBlocked', Message: 'Blocked for now' }] });
      expect(calls).toEqual([
        {
          operationId: 'GetAccountsAccountId',
          permissions: ['ReadAccountsBasic', 'ReadAccountsDetail'],
          grant: { scopes: ['openid', 'accounts'], permissions: ['ReadAccountsBasic', 'ReadTransactionsBasic', 'ReadStatements'] },
          accountId: 'a9',
        },
      ]);
    } finally {
      await app.close();
    }
  });
});
