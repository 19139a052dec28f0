/**
 * The writers of one OpenAPI file, judged against `JSON.stringify` and zod: for every operation,
 * declared status and JSON media type with a schema, seeded mock bodies (valid values, members
 * in schema order) and mutations of them go through the schema's compiled writer.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { jsonWriterOf, type JsonWriter } from '@bank-data-sharing/wire';
import { generate, writeFiles } from '../../../src/index.js';
import { scratchDir } from '../../support/generated-validators.js';
import { isJsonMediaType, REFERENCE_NOW } from '../../mocks/support/mock-corpus.js';
import { mutations } from './mutate-json.js';

type MockFunction = (options: { status: string; contentType: string; seed: number; now: number }) => { body: unknown };
type Schema = { safeParse(value: unknown): { success: boolean } };
type Operations = Record<string, { responses: Record<string, { content: Record<string, Schema> }> }>;

export interface WriterReport {
  /** JSON responses whose schema has a writer / has none (written by JSON.stringify). */
  withWriter: number;
  withoutWriter: string[];
  /** Valid bodies written, and those whose text was not JSON.stringify's (see `differs`). */
  written: number;
  differing: string[];
  /** Valid bodies the writer left to the ordinary path. */
  leftValid: string[];
  /** Mutated values: how many were invalid for zod, and any the writer wrote anyway. */
  mutated: number;
  invalid: number;
  writtenInvalid: string[];
  /** Mutated values written, whose text was not JSON.stringify's. */
  mutatedDiffering: string[];
}

/**
 * Why `text`, written from `value`, is not what it must be, or undefined when it is: the JSON
 * value JSON.stringify writes (members in any order), and, for that value with its members in
 * the order the writer wrote them (schema order), JSON.stringify's text byte for byte.
 */
export function differs(writer: JsonWriter, value: unknown, text: string | undefined): string | undefined {
  if (text === undefined) return 'not written';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const expected = JSON.stringify(value);
  if (!isDeepStrictEqual(parsed, JSON.parse(expected))) return `another value:\n  writer:    ${text.slice(0, 300)}\n  stringify: ${expected.slice(0, 300)}`;
  // A JavaScript object puts members named like array indexes first, whatever the text's order.
  if (JSON.stringify(parsed) !== text && !hasIndexKeys(parsed)) return `not JSON.stringify's text for its own member order:\n  writer:    ${text.slice(0, 300)}\n  stringify: ${JSON.stringify(parsed).slice(0, 300)}`;
  const again = writer(parsed, false);
  if (again !== undefined && again !== text) return `members in schema order, written otherwise:\n  first:  ${text.slice(0, 300)}\n  second: ${again.slice(0, 300)}`;
  return undefined;
}

function hasIndexKeys(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasIndexKeys);
  if (value === null || typeof value !== 'object') return false;
  return Object.entries(value).some(([key, member]) => /^(?:0|[1-9]\d{0,8})$/.test(key) || hasIndexKeys(member));
}

export async function writerCorpus(spec: string, seeds: number, mutationsPerBody: number): Promise<WriterReport> {
  const result = await generate({ spec, targets: ['mocks'] });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`${spec}: ${errors.map((e) => `${e.pointer}: ${e.message}`).join('\n')}`);
  const dir = await scratchDir('writers');
  await writeFiles(dir, result.files, { check: false });
  const { mocks } = (await import(pathToFileURL(path.join(dir, 'mocks/index.ts')).href)) as { mocks: Record<string, MockFunction> };
  const { operations } = (await import(pathToFileURL(path.join(dir, 'validators/index.ts')).href)) as { operations: Operations };
  const report: WriterReport = { withWriter: 0, withoutWriter: [], written: 0, differing: [], leftValid: [], mutated: 0, invalid: 0, writtenInvalid: [], mutatedDiffering: [] };
  for (const operation of result.built.api.operations) {
    for (const response of operation.responses) {
      for (const media of response.content) {
        if (!media.schema || !isJsonMediaType(media.contentType)) continue;
        const where = `${operation.name} ${response.status} ${media.contentType}`;
        const schema = operations[operation.name]!.responses[response.status]!.content[media.contentType]!;
        const writer = jsonWriterOf(schema);
        if (!writer) {
          report.withoutWriter.push(where);
          continue;
        }
        report.withWriter++;
        for (let seed = 1; seed <= seeds; seed++) {
          let body: unknown;
          try {
            body = mocks[operation.name]!({ status: response.status, contentType: media.contentType, seed, now: REFERENCE_NOW }).body;
          } catch (error) {
            if ((error as Error).name === 'MockError') break;
            throw error;
          }
          const text = writer(body, true);
          if (text === undefined) {
            report.leftValid.push(`${where} seed ${seed}`);
          } else {
            report.written++;
            const problem = differs(writer, body, text) ?? differs(writer, body, writer(body, false));
            if (problem) report.differing.push(`${where} seed ${seed}: ${problem}`);
          }
          for (const { change, value } of mutations(body, mutationsPerBody, seed)) {
            report.mutated++;
            const valid = schema.safeParse(value).success;
            if (!valid) report.invalid++;
            const checked = writer(value, true);
            if (checked !== undefined && !valid) report.writtenInvalid.push(`${where} seed ${seed}, ${change}`);
            const unchecked = writer(value, false);
            for (const t of [checked, unchecked]) {
              const problem = t === undefined ? undefined : differs(writer, value, t);
              if (problem) report.mutatedDiffering.push(`${where} seed ${seed}, ${change}: ${problem}`);
            }
          }
        }
      }
    }
  }
  return report;
}
