/**
 * The generated client against the mock server of files nobody here wrote: every operation of
 * ReadMe's 53 example documents (@readme/oas-examples) and of Scalar's Galaxy example, called
 * with valid input the mock samples (`sampleCallInput`) and any well-formed credentials. Each
 * call must end as the file says it can: a result, or an `ApiError` carrying a status the
 * operation declares (the mock answers one of them). A network error, a request the client
 * will not send, or an answer it refuses as off-contract is a disagreement between the
 * generated client and the generated server: the test names it.
 */
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@bank-data-sharing/client/runtime';
import { startMockServer } from '@bank-data-sharing/codegen';
import { generateApi, OAS_EXAMPLES } from './support/harness.js';

const require = createRequire(import.meta.url);

const FILES = [
  ...['3.0', '3.1'].flatMap((version) =>
    readdirSync(path.join(OAS_EXAMPLES, version, 'json'))
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => ({ label: `oas-examples/${version}/${name}`, spec: path.join(OAS_EXAMPLES, version, 'json', name) })),
  ),
  { label: '@scalar/galaxy/latest.yaml', spec: require.resolve('@scalar/galaxy/latest.yaml') },
];

const SEEDS = [1, 2, 3];

/**
 * Calls that end otherwise, by file, each with why; each must still be seen (the list only
 * shrinks).
 */
const KNOWN: Record<string, ReadonlyArray<{ call: RegExp; why: string }>> = {
  'oas-examples/3.0/circular-paths.json': [
    {
      call: /^putAnything: (RequestError: .*header "content": array items must be primitives|ApiError: .*HTTP 400: .*header content\[0\])/,
      why: 'the header is an array of objects, which no header style can carry: the client refuses the value the mock made, or sends an empty list the router reads as one text item',
    },
  ],
  'oas-examples/3.0/http-status-codes.json': [
    { call: /^getStatus10[0-3]: ApiError: .*HTTP 500/, why: 'these operations declare only an informational status (1xx), which cannot be a final answer: the router answers 500' },
  ],
  'oas-examples/3.0/security-multiple.json': [
    { call: /^postAnythingAnd: RequestError: .*not sendable in one request/, why: 'one requirement needs basic and oauth2 together, two credentials for the one Authorization header' },
  ],
  'oas-examples/3.1/parameters-style.json': [
    { call: /^formData_spaceDelimited_nonExploded: NetworkError: .*GET\/HEAD method cannot have body/, why: 'a multipart body on GET: multipart bodies go through the platform fetch, which sends no body with GET' },
  ],
};

/** Any well-formed credential for each scheme: the mock accepts what is well formed. */
function credentialsFor(schemes: Record<string, { type: string; scheme?: string }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, scheme] of Object.entries(schemes)) {
    if (scheme.type === 'mutualTLS') continue;
    out[name] = scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic' ? { username: 'mock-user', password: 'mock-password' } : scheme.type === 'apiKey' ? 'mock-key' : 'mock-token';
  }
  return out;
}

/** Whether `status` is one the operation declares: exactly, by its range (`4XX`), or as `default`. */
function declares(responses: Record<string, unknown>, status: number): boolean {
  return String(status) in responses || `${String(status)[0]}XX` in responses || 'default' in responses;
}

describe('the generated client against the mock server of each file', () => {
  FILES.forEach(({ label, spec }, index) => {
    it(label, async () => {
      const api = await generateApi(spec, `client-against-mocks-${index}`);
      const server = await startMockServer({ spec, port: 0, onError: () => {} });
      try {
        const operations = api.validators['operations'] as Record<string, { responses: Record<string, unknown> }>;
        const schemes = (api.client['securitySchemes'] ?? {}) as Record<string, { type: string; scheme?: string }>;
        const client = (api.client['createClient'] as (options: object) => Record<string, (input: object) => Promise<unknown>>)({
          baseUrl: server.url,
          retry: false,
          credentials: credentialsFor(schemes),
        });
        const disagreements: string[] = [];
        const seen = new Set<RegExp>();
        let calls = 0;
        for (const { name } of server.operations) {
          for (const seed of SEEDS) {
            let input: object;
            try {
              input = server.sampleCallInput(name, { seed, optional: true });
            } catch {
              // No valid request can be made (overlapping oneOf variants, a required cycle): nothing to call.
              continue;
            }
            calls++;
            try {
              await client[name]!(input);
            } catch (error) {
              if (error instanceof ApiError && declares(operations[name]!.responses, error.status)) continue;
              const text = `${name}: ${(error as Error).name}: ${(error as Error).message}`;
              const known = (KNOWN[label] ?? []).find((entry) => entry.call.test(text));
              if (known) {
                seen.add(known.call);
                continue;
              }
              disagreements.push(`${text} (seed ${seed}, input ${JSON.stringify(input).slice(0, 200)})`);
            }
          }
        }
        expect(disagreements).toStrictEqual([]);
        // A file of webhooks only has nothing to call.
        if (server.operations.length > 0) expect(calls).toBeGreaterThan(0);
        for (const known of KNOWN[label] ?? []) expect(seen.has(known.call), `no longer seen, remove it: ${known.why}`).toBe(true);
      } finally {
        await server.close();
      }
    });
  });
});
