/**
 * `testServer` against correct servers: the mock server of each @readme/oas-examples
 * document (the generated router in front of generated answers). The documents with loopback
 * round trips report nothing; across the whole corpus, the only findings are the one gap the
 * generated router is known to have (it writes its refusals as application/problem+json where
 * a file declares them only in another media type), so any other finding fails this test.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startMockServer, testServer } from '../../src/index.js';
import { oasExample } from '../mock-server/support.js';

const ROUND_TRIPS = [
  '3.0/json/parameters-style.json',
  '3.0/json/form-data.json',
  '3.0/json/file-uploads.json',
  '3.0/json/schema-encoding-style.json',
  '3.0/json/security.json',
  '3.0/json/security-multiple.json',
  '3.0/json/petstore-expanded.json',
  '3.1/json/parameters-style.json',
  '3.1/json/security.json',
  '3.1/json/schema-encoding-style.json',
];

async function againstMock(file: string, maxExamples: number) {
  const spec = oasExample(file);
  const server = await startMockServer({ spec, port: 0, onError: () => {} });
  try {
    return await testServer({ spec, baseUrl: server.url, maxExamples });
  } finally {
    await server.close();
  }
}

describe('codegen test against correct servers of @readme/oas-examples', () => {
  for (const file of ROUND_TRIPS) {
    it(`reports nothing on ${file}`, async () => {
      const report = await againstMock(file, 10);
      expect(report.failures.map((f) => `${f.operation} ${f.check}: ${f.message}`)).toEqual([]);
      expect(report.requests).toBeGreaterThan(report.operations.length);
    });
  }

  it('finds only the known problem+json gap across the whole corpus', async () => {
    const root = path.dirname(oasExample('3.0/json/petstore.json'));
    const files = ['3.0/json', '3.1/json'].flatMap((dir) =>
      readdirSync(path.join(root, '..', '..', dir))
        .filter((f) => f.endsWith('.json'))
        .map((f) => `${dir}/${f}`),
    );
    expect(files.length).toBeGreaterThan(50);
    const unexplained: string[] = [];
    let operations = 0;
    for (const file of files) {
      let report;
      try {
        report = await againstMock(file, 4);
      } catch (error) {
        // A file the generator refuses has no mock to test (the corpus test lists them).
        if ((error as Error).name === 'MockSpecError') continue;
        throw error;
      }
      operations += report.operations.length;
      for (const failure of report.failures) {
        const problemJson = /application\/problem\+json is not declared for HTTP 4\d\d/.test(failure.message);
        if (!(problemJson && (failure.check === 'error-contract' || failure.check === 'undeclared-content-type'))) unexplained.push(`${file} ${failure.operation} ${failure.check}: ${failure.message}`);
      }
    }
    expect(unexplained).toEqual([]);
    expect(operations).toBeGreaterThan(300);
  }, 600_000);
});
