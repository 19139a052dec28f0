/**
 * `codegen test` and the mock server on our OpenAPI 3.2 test document: the mock answers every
 * operation (QUERY, COPY, the query string as one value, streams of events and JSON lines, a
 * JSON Lines upload, a multipart/mixed report), and `testServer` finds nothing wrong with it, having checked each
 * streamed item of every answer against its item schema.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startMockServer, testServer } from '../../src/index.js';

const SPEC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/openapi-3.2.yaml');

describe('codegen test against the mock of an OpenAPI 3.2 document', () => {
  it('reports nothing, with valid requests answered for every operation', async () => {
    const server = await startMockServer({ spec: SPEC, port: 0, onError: () => {} });
    try {
      const report = await testServer({ spec: SPEC, baseUrl: server.url, maxExamples: 8 });
      expect(report.failures).toEqual([]);
      expect(report.operations.map((o) => o.operation).sort()).toEqual(['copyQuote', 'filterQuotes', 'getInstrument', 'importQuotes', 'quoteHistory', 'quoteReport', 'searchQuotes', 'searchQuotesByJson', 'streamQuotes']);
      for (const op of report.operations) expect(op.positive, op.operation).toBeGreaterThan(0);
    } finally {
      await server.close();
    }
  });
});
