/**
 * A security requirement naming a scheme the document does not declare (ReadMe's
 * response-http-behavior example names `api_key` with no `securitySchemes` at all) says neither
 * where the credential goes nor how it is checked. The name is left out of its requirement, with
 * one warning per name, so that client and server agree: no credential, no check.
 */
import { describe, expect, it } from 'vitest';
import { buildIR } from '../../src/ir/build-ir.js';

const ok = { '200': { description: 'ok' } };

describe('security requirements naming undeclared schemes', () => {
  const api = buildIR({
    source: 'security.json',
    document: {
      openapi: '3.0.3',
      info: { title: 'Security', version: '1' },
      security: [{ api_key: [] }],
      paths: {
        '/a': { get: { operationId: 'a', responses: ok } },
        '/b': { get: { operationId: 'b', security: [{ bearer: [], api_key: [] }, { ghost: ['read'] }], responses: ok } },
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    diagnostics: [],
  }).api;
  const op = (id: string) => api.operations.find((o) => o.operationId === id)!;

  it('leaves the undeclared names out of each requirement, keeping the declared ones', () => {
    expect(op('a').security).toStrictEqual([{}]);
    expect(op('b').security).toStrictEqual([{ bearer: [] }, {}]);
  });

  it('warns once per name, naming the first operation', () => {
    const warnings = api.diagnostics.filter((d) => d.code === 'undeclared-security-scheme').map((d) => [d.severity, d.pointer, d.message.match(/names "(\w+)"/)![1]]);
    expect(warnings).toStrictEqual([
      ['warning', '#/paths/~1a/get', 'api_key'],
      ['warning', '#/paths/~1b/get', 'ghost'],
    ]);
  });
});
