/** Credentials from `--auth`, placed where each security scheme says they travel. */
import { describe, expect, it } from 'vitest';
import type { SecurityRequirementIR, SecuritySchemeIR } from '../../../src/ir/types.js';
import { credentialPlaces, credentialsFromAuth, securityOptional } from '../../../src/server-test/credentials.js';

const SCHEMES: SecuritySchemeIR[] = [
  { name: 'bearerAuth', type: 'http', scheme: 'bearer' },
  { name: 'basicAuth', type: 'http', scheme: 'Basic' },
  { name: 'digestAuth', type: 'http', scheme: 'Digest' },
  { name: 'headerKey', type: 'apiKey', in: 'header', parameterName: 'X-API-Key' },
  { name: 'queryKey', type: 'apiKey', in: 'query', parameterName: 'api_key' },
  { name: 'cookieKey', type: 'apiKey', in: 'cookie', parameterName: 'SessionId' },
  { name: 'oauth', type: 'oauth2', flows: { clientCredentials: { scopes: ['read'], tokenUrl: 'https://auth.example.test/token' } } },
  { name: 'oidc', type: 'openIdConnect' },
  { name: 'mtls', type: 'mutualTLS' },
];

const none = { headers: {}, query: {}, cookies: {} };

describe('credentialsFromAuth', () => {
  it('sends a bearer token in Authorization', () => {
    expect(credentialsFromAuth([{ bearerAuth: [] }], SCHEMES, { bearerAuth: 'tok-1' })).toEqual({ credentials: { headers: { authorization: 'Bearer tok-1' }, query: {}, cookies: {} }, missing: [] });
  });

  it('sends oauth2 and openIdConnect tokens as bearer tokens', () => {
    expect(credentialsFromAuth([{ oauth: ['read'] }], SCHEMES, { oauth: 'o-1' }).credentials.headers).toEqual({ authorization: 'Bearer o-1' });
    expect(credentialsFromAuth([{ oidc: [] }], SCHEMES, { oidc: 'i-1' }).credentials.headers).toEqual({ authorization: 'Bearer i-1' });
  });

  it('sends basic credentials as base64 of user:password', () => {
    expect(credentialsFromAuth([{ basicAuth: [] }], SCHEMES, { basicAuth: 'user:pass' }).credentials.headers).toEqual({ authorization: 'Basic dXNlcjpwYXNz' });
    // Only the first colon separates: the password keeps its own.
    expect(credentialsFromAuth([{ basicAuth: [] }], SCHEMES, { basicAuth: 'Aladdin:open:sesame' }).credentials.headers).toEqual({ authorization: 'Basic QWxhZGRpbjpvcGVuOnNlc2FtZQ==' });
  });

  it('sends other http schemes under their own name', () => {
    expect(credentialsFromAuth([{ digestAuth: [] }], SCHEMES, { digestAuth: 'abc' }).credentials.headers).toEqual({ authorization: 'Digest abc' });
  });

  it('places api keys in a header (lower-case name), the query or a cookie', () => {
    const result = credentialsFromAuth([{ headerKey: [], queryKey: [], cookieKey: [] }], SCHEMES, { headerKey: 'h', queryKey: 'q', cookieKey: 'c' });
    expect(result).toEqual({ credentials: { headers: { 'x-api-key': 'h' }, query: { api_key: 'q' }, cookies: { SessionId: 'c' } }, missing: [] });
  });

  it('treats a scheme the file does not declare as a bearer token', () => {
    expect(credentialsFromAuth([{ undeclared: [] }], SCHEMES, { undeclared: 'u' }).credentials.headers).toEqual({ authorization: 'Bearer u' });
  });

  it('chooses the first alternative the credentials cover entirely', () => {
    const requirements: SecurityRequirementIR[] = [{ bearerAuth: [], headerKey: [] }, { queryKey: [] }, { cookieKey: [] }];
    expect(credentialsFromAuth(requirements, SCHEMES, { bearerAuth: 'b', queryKey: 'q', cookieKey: 'c' })).toEqual({ credentials: { headers: {}, query: { api_key: 'q' }, cookies: {} }, missing: [] });
    expect(credentialsFromAuth(requirements, SCHEMES, { bearerAuth: 'b', headerKey: 'h', queryKey: 'q' })).toEqual({
      credentials: { headers: { authorization: 'Bearer b', 'x-api-key': 'h' }, query: {}, cookies: {} },
      missing: [],
    });
  });

  it('needs no credential for mutual TLS', () => {
    expect(credentialsFromAuth([{ mtls: [] }, { bearerAuth: [] }], SCHEMES, {})).toEqual({ credentials: none, missing: [] });
    expect(credentialsFromAuth([{ mtls: [], queryKey: [] }], SCHEMES, { queryKey: 'q' }).credentials).toEqual({ headers: {}, query: { api_key: 'q' }, cookies: {} });
  });

  it('applies `*` to every scheme, under a credential named for the scheme', () => {
    expect(credentialsFromAuth([{ bearerAuth: [], cookieKey: [] }], SCHEMES, { '*': 'all' }).credentials).toEqual({ headers: { authorization: 'Bearer all' }, query: {}, cookies: { SessionId: 'all' } });
    expect(credentialsFromAuth([{ bearerAuth: [], cookieKey: [] }], SCHEMES, { '*': 'all', cookieKey: 'own' }).credentials).toEqual({ headers: { authorization: 'Bearer all' }, query: {}, cookies: { SessionId: 'own' } });
  });

  it('names the schemes of the first alternative left without a credential when none is covered', () => {
    const requirements: SecurityRequirementIR[] = [{ bearerAuth: [], headerKey: [], mtls: [] }, { queryKey: [] }];
    // headerKey alone would complete the first alternative: mutual TLS takes no --auth value.
    expect(credentialsFromAuth(requirements, SCHEMES, { bearerAuth: 'b' })).toEqual({ credentials: none, missing: ['headerKey'] });
    expect(credentialsFromAuth(requirements, SCHEMES, { bearerAuth: 'b', headerKey: 'h' }).credentials.headers).toEqual({ authorization: 'Bearer b', 'x-api-key': 'h' });
    expect(credentialsFromAuth([{ bearerAuth: [] }], SCHEMES, {}).missing).toEqual(['bearerAuth']);
  });

  it('sends nothing where security is optional or absent', () => {
    expect(credentialsFromAuth([{ bearerAuth: [] }, {}], SCHEMES, { bearerAuth: 'b' })).toEqual({ credentials: none, missing: [] });
    expect(credentialsFromAuth([], SCHEMES, { '*': 'b' })).toEqual({ credentials: none, missing: [] });
    expect(securityOptional([{}, { bearerAuth: [] }])).toBe(true);
    expect(securityOptional([])).toBe(true);
    expect(securityOptional([{ bearerAuth: [] }])).toBe(false);
  });
});

describe('credentialPlaces', () => {
  it('lists every place any alternative sends a credential, each once', () => {
    const places = credentialPlaces([{ bearerAuth: [], headerKey: [] }, { oauth: [] }, { queryKey: [], cookieKey: [] }, { mtls: [] }, { undeclared: [] }], SCHEMES);
    expect(places).toEqual([
      { in: 'header', name: 'authorization' },
      { in: 'header', name: 'x-api-key' },
      { in: 'query', name: 'api_key' },
      { in: 'cookie', name: 'SessionId' },
    ]);
  });

  it('is empty without requirements', () => {
    expect(credentialPlaces([], SCHEMES)).toEqual([]);
    expect(credentialPlaces([{}], SCHEMES)).toEqual([]);
  });
});
