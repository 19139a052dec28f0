/**
 * The mocks of one OpenAPI file, judged from outside: every operation, declared status and
 * JSON media type is mocked with several seeds, and each body is given to ajv (the response
 * oracle), which never saw the generator's code. What cannot be generated is listed with the
 * pointer and reason the mocks give.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { generate, writeFiles } from '../../../src/index.js';
import { loadSpec } from '../../../src/load/load-spec.js';
import type { OperationIR } from '../../../src/ir/types.js';
import { buildResponseOracle } from '../../support/response-oracle.js';
import { scratchDir } from '../../support/generated-validators.js';
import { isJsonType } from '@bank-data-sharing/wire';

export interface CorpusReport {
  /** JSON responses with a schema (operation, status, media type). */
  responses: number;
  /** Bodies checked by ajv. */
  bodies: number;
  /** Bodies ajv refused: must be none. */
  invalid: Array<{ where: string; seed: number; errors: string; body: unknown }>;
  /** Responses no body could be generated for: `operation status media-type: reason`. */
  refused: string[];
}

type MockFunction = (options: { status: string; contentType: string; seed: number; now: number }) => { body: unknown };

/** JSON media types: what ajv can judge (the others carry text or bytes). */
export const isJsonMediaType = isJsonType;

/** A fixed day, so that the bodies (and any failure) are the same on every run. */
export const REFERENCE_NOW = Date.UTC(2026, 10, 27);

export async function mockCorpus(spec: string, seeds: number): Promise<CorpusReport> {
  const result = await generate({ spec, targets: ['mocks'] });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`${spec}: ${errors.map((e) => `${e.pointer}: ${e.message}`).join('\n')}`);
  const dir = await scratchDir('mocks');
  await writeFiles(dir, result.files, { check: false });
  const { mocks } = (await import(pathToFileURL(path.join(dir, 'mocks/index.ts')).href)) as { mocks: Record<string, MockFunction> };
  const { document } = await loadSpec(spec);
  const oracle = buildResponseOracle(document);
  const report: CorpusReport = { responses: 0, bodies: 0, invalid: [], refused: [] };
  for (const operation of result.built.api.operations) mockOperation({ operation, mock: mocks[operation.name]!, oracle, seeds, report });
  return report;
}

function mockOperation({ operation, mock, oracle, seeds, report }: { operation: OperationIR; mock: MockFunction; oracle: ReturnType<typeof buildResponseOracle>; seeds: number; report: CorpusReport }): void {
  for (const response of operation.responses) {
    for (const media of response.content) {
      if (!media.schema || !isJsonMediaType(media.contentType)) continue;
      const where = `${operation.name} ${response.status} ${media.contentType}`;
      report.responses++;
      for (let seed = 1; seed <= seeds; seed++) {
        let body: unknown;
        try {
          body = mock({ status: response.status, contentType: media.contentType, seed, now: REFERENCE_NOW }).body;
        } catch (error) {
          if ((error as Error).name !== 'MockError') throw error;
          report.refused.push((error as Error).message);
          break;
        }
        report.bodies++;
        const errors = oracle.check(operation, response.status, media.contentType, body);
        if (errors !== undefined) report.invalid.push({ where, seed, errors, body });
      }
    }
  }
}
