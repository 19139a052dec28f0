/**
 * OpenAPI 3.2's OAuth members of a Security Scheme reach the generated client's
 * `securitySchemes` where the spec writes them, and nothing else changes: not the server's
 * meta (its type has no room for them), not a scheme without them.
 */
import { describe, expect, it } from 'vitest';
import { emitClient } from '../../src/emit/client/emit-client.js';
import { printSchemeEntry } from '../../src/emit/shared/security-scheme.js';
import type { BuiltIR } from '../../src/ir/build-ir.js';
import type { ApiIR, OperationIR, SecuritySchemeIR } from '../../src/ir/types.js';

const quote = (text: string): string => `'${text}'`;

const DEVICE: SecuritySchemeIR = {
  name: 'device',
  type: 'oauth2',
  deprecated: true,
  oauth2MetadataUrl: 'https://auth.example.test/.well-known/oauth-authorization-server',
  flows: {
    deviceAuthorization: { deviceAuthorizationUrl: 'https://auth.example.test/device', tokenUrl: 'https://auth.example.test/token', scopes: ['quotes', 'trades'] },
    clientCredentials: { tokenUrl: 'https://auth.example.test/token', scopes: ['admin'] },
  },
};

/** As our own specs write it: a 3.0 scheme with flows. */
const CLIENT_CREDENTIALS: SecuritySchemeIR = { name: 'TPPOAuth2Security', type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.lfi.example.com/token', scopes: ['accounts'] } } };

describe('printSchemeEntry', () => {
  it('prints the 3.2 members for the client: deprecation, metadata URL and the device flow', () => {
    expect(printSchemeEntry(DEVICE, quote, { oauth: true })).toBe(
      [
        '  /** @deprecated The spec marks this security scheme as deprecated. */',
        "  device: { type: 'oauth2', deprecated: true, oauth2MetadataUrl: 'https://auth.example.test/.well-known/oauth-authorization-server', " +
          "flows: { deviceAuthorization: { deviceAuthorizationUrl: 'https://auth.example.test/device', tokenUrl: 'https://auth.example.test/token', scopes: ['quotes', 'trades'] } } },",
      ].join('\n'),
    );
  });

  it('prints only what the spec wrote', () => {
    const onlyMetadata: SecuritySchemeIR = { name: 'm', type: 'oauth2', oauth2MetadataUrl: 'https://a.test/.well-known/oauth-authorization-server' };
    expect(printSchemeEntry(onlyMetadata, quote, { oauth: true })).toBe("  m: { type: 'oauth2', oauth2MetadataUrl: 'https://a.test/.well-known/oauth-authorization-server' },");
    const deviceWithoutUrls: SecuritySchemeIR = { name: 'd', type: 'oauth2', flows: { deviceAuthorization: { scopes: [] } } };
    expect(printSchemeEntry(deviceWithoutUrls, quote, { oauth: true })).toBe("  d: { type: 'oauth2', flows: { deviceAuthorization: { scopes: [] } } },");
  });

  it('leaves schemes without 3.2 members, and the server meta, as they were', () => {
    expect(printSchemeEntry(CLIENT_CREDENTIALS, quote, { oauth: true })).toBe("  TPPOAuth2Security: { type: 'oauth2' },");
    expect(printSchemeEntry(DEVICE, quote)).toBe("  device: { type: 'oauth2' },");
  });
});

describe('the generated client of a spec with a deprecated scheme', () => {
  function op(security: OperationIR['security'], operationId: string): OperationIR {
    return { name: operationId, operationId, method: 'get', path: `/${operationId}`, deprecated: false, tags: [], parameters: [], responses: [], security, extensions: {}, pointer: '#/paths' };
  }

  const api: ApiIR = {
    source: 'feed.yaml',
    openapiVersion: '3.2.0',
    title: 'Feed',
    version: '1',
    servers: [{ url: '/feed', pathPrefix: '/feed' }],
    schemas: [],
    operations: [op([{ bearer: [] }, { device: ['quotes'] }], 'either'), op([{ device: ['quotes'] }], 'onlyDevice'), op([{ bearer: [] }], 'onlyBearer')],
    securitySchemes: [{ name: 'bearer', type: 'http', scheme: 'bearer' }, DEVICE],
    diagnostics: [],
  };
  const text = emitClient({ api, examples: [] } as unknown as BuiltIR, { validatorsImport: '../validators/index.js' })[0]!.contents;

  it('notes the deprecated scheme on the methods that accept it, without deprecating the methods', () => {
    expect(text).toContain(
      ['    /**', '     * GET /either', '     *', '     * Security scheme `device` is deprecated in the spec: prefer another of its alternatives.', '     */', '    either: core.operation('].join('\n'),
    );
    expect(text).toContain(['     * GET /onlyDevice', '     *', '     * Security scheme `device` is deprecated in the spec.', '     */'].join('\n'));
    expect(text).toContain(['    /** GET /onlyBearer */', '    onlyBearer: core.operation('].join('\n'));
    expect(text).not.toMatch(/^\s*\*?\s*@deprecated The spec marks this operation/m);
  });
});
