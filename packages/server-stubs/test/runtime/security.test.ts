import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkSecurity, credentialFor, type Authorize } from '../../src/runtime/index.js';

function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

const none = new URLSearchParams();

describe('credentialFor', () => {
  it('reads bearer tokens case-insensitively for oauth2, openIdConnect and http bearer', () => {
    for (const scheme of [{ type: 'oauth2' }, { type: 'openIdConnect' }, { type: 'http', scheme: 'bearer' }]) {
      expect(credentialFor(scheme, request({ authorization: 'bearer abc.def' }), none)).toBe('abc.def');
      expect(credentialFor(scheme, request({ authorization: 'Basic abc' }), none)).toBeUndefined();
      expect(credentialFor(scheme, request({ authorization: 'Bearer' }), none)).toBeUndefined();
    }
  });

  it('reads API keys from a header, the query or a cookie', () => {
    expect(credentialFor({ type: 'apiKey', in: 'header', name: 'X-Key' }, request({ 'x-key': 'k' }), none)).toBe('k');
    expect(credentialFor({ type: 'apiKey', in: 'query', name: 'key' }, request({}), new URLSearchParams('key=q'))).toBe('q');
    expect(credentialFor({ type: 'apiKey', in: 'cookie', name: 'sid' }, request({ cookie: 'a=1; sid=c' }), none)).toBe('c');
  });

  it('reads other http schemes by name', () => {
    expect(credentialFor({ type: 'http', scheme: 'basic' }, request({ authorization: 'Basic dXNlcjpwdw==' }), none)).toBe('dXNlcjpwdw==');
  });
});

describe('checkSecurity', () => {
  const schemes = { User: { type: 'oauth2' }, Key: { type: 'apiKey', in: 'header', name: 'x-key' } };
  const authorize: Authorize = ({ scheme, credential }) =>
    scheme === 'User' && credential === 'good' ? { scopes: ['openid', 'accounts'], sub: 'u1' } : scheme === 'Key' && credential === 'k' ? { scopes: [] } : undefined;
  const check = (requirements: Parameters<typeof checkSecurity>[0], headers: Record<string, string>) =>
    checkSecurity(requirements, schemes, authorize, { operationId: 'op', req: request(headers), query: none });

  it('passes operations without security', async () => {
    expect(await check([], {})).toEqual({ ok: true, grant: undefined });
  });

  it('tells a missing token, an invalid token and a missing scope apart', async () => {
    expect(await check([{ User: ['accounts'] }], {})).toEqual({ ok: false, failure: 'missingToken' });
    expect(await check([{ User: ['accounts'] }], { authorization: 'Bearer bad' })).toEqual({ ok: false, failure: 'invalidToken', refused: 'User' });
    expect(await check([{ User: ['payments'] }], { authorization: 'Bearer good' })).toEqual({ ok: false, failure: 'invalidScope', missingScopes: ['payments'] });
    expect(await check([{ User: ['openid', 'accounts'] }], { authorization: 'Bearer good' })).toEqual({ ok: true, grant: { scopes: ['openid', 'accounts'], sub: 'u1' } });
  });

  it('accepts any satisfied alternative, and reports the most telling failure', async () => {
    expect(await check([{ User: ['accounts'] }, { Key: [] }], { 'x-key': 'k' })).toEqual({ ok: true, grant: { scopes: [] } });
    expect(await check([{ Key: [] }, { User: ['payments'] }], { authorization: 'Bearer good' })).toEqual({ ok: false, failure: 'invalidScope', missingScopes: ['payments'] });
    expect(await check([{}, { User: ['accounts'] }], {})).toEqual({ ok: true, grant: undefined });
    expect(await check([{}, { User: ['accounts'] }], { authorization: 'Bearer good' })).toEqual({ ok: true, grant: { scopes: ['openid', 'accounts'], sub: 'u1' } });
    expect(await check([{}, { User: ['accounts'] }], { authorization: 'Bearer bad' })).toEqual({ ok: true, grant: undefined });
  });

  it('requires every scheme of one requirement', async () => {
    expect(await check([{ User: ['accounts'], Key: [] }], { authorization: 'Bearer good' })).toEqual({ ok: false, failure: 'missingToken' });
    const both = await check([{ User: ['accounts'], Key: [] }], { authorization: 'Bearer good', 'x-key': 'k' });
    expect(both).toEqual({ ok: true, grant: { scopes: ['openid', 'accounts'], sub: 'u1' } });
  });
});
