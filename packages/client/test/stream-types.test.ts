/**
 * What callers of sequence operations send and receive, checked by the type checker: the
 * client of the OpenAPI 3.2 test document is generated into a scratch folder with a file of
 * type assertions beside it, and the two are compiled strictly against this runtime's sources.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generatedCodeCompilerOptions } from '@bank-data-sharing/codegen';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { generateInto, packageRoot, type GeneratedOutput } from './helpers/generated-client.js';
import { MARKET_FEED_SPEC } from './helpers/market-feed.js';

/** Compiled beside the generated client; each line is an assertion the checker must accept. */
const ASSERTIONS = `
import { expectTypeOf } from 'vitest';
import type { Quote } from './validators/index.js';
import { createClient, type ImportQuotesParams, type QuoteHistoryResult, type StreamQuotesResult } from './client/index.js';

type QuoteEvent = {
  event?: 'quote' | 'heartbeat' | undefined;
  id?: string | undefined;
  retry?: number | undefined;
  data: string;
  [key: string]: unknown;
};

expectTypeOf<StreamQuotesResult['body']>().toEqualTypeOf<AsyncIterable<QuoteEvent>>();
expectTypeOf<QuoteHistoryResult['body']>().toEqualTypeOf<AsyncIterable<Quote>>();
expectTypeOf<QuoteHistoryResult['contentType']>().toEqualTypeOf<'application/jsonl' | 'application/json-seq'>();

// A request sequence is any iterable of items: an array, a generator, an async generator.
expectTypeOf<Quote[]>().toExtend<ImportQuotesParams['body']>();
expectTypeOf<AsyncGenerator<Quote>>().toExtend<ImportQuotesParams['body']>();
// @ts-expect-error an item of the wrong shape
expectTypeOf<Array<{ symbol: number }>>().toExtend<ImportQuotesParams['body']>();

export async function readEvents(): Promise<void> {
  const client = createClient({ baseUrl: 'http://127.0.0.1:1/feed', resume: { maxReconnects: 2, delayMs: 500 } });
  const result = await client.streamQuotes({ headers: { 'last-event-id': '7' } }, { resume: false });
  for await (const event of result.body) {
    expectTypeOf(event.data).toEqualTypeOf<string>();
    expectTypeOf(event.event).toEqualTypeOf<'quote' | 'heartbeat' | undefined>();
  }
  // @ts-expect-error resume takes bounds or a boolean
  await client.streamQuotes({}, { resume: 'yes' });
}
`;

let output: GeneratedOutput | undefined;

afterAll(async () => {
  await output?.remove();
});

describe('sequence operation types', () => {
  it('types a sequence body as an async iterable of its items, and a sequence request body as any iterable of them', { timeout: 120_000 }, async () => {
    output = await generateInto(MARKET_FEED_SPEC, 'stream-types');
    const check = path.join(output.dir, 'check.ts');
    await writeFile(check, ASSERTIONS);
    const program = ts.createProgram([check], {
      ...generatedCodeCompilerOptions(ts),
      // The runtime's sources, so the check does not depend on a build.
      paths: { '@bank-data-sharing/client/runtime': [path.join(packageRoot, 'src/runtime/index.ts')] },
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${path.relative(output!.dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  });
});
