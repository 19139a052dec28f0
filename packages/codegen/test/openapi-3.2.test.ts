/**
 * An OpenAPI 3.2 document of our own that uses the additions (codegen's fixture): every target
 * generated, type-checked strictly with code that uses it (handlers returning typed items,
 * a typed streamed request body, the client's typed results), its examples verified, and mocks
 * of its sequences made of valid items (each one its multipart part can carry). Our 3.0 and 3.1 files are not touched by any of it.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generate, verify } from '../src/index.js';
import { scratchDir } from './helpers/generated.js';
import { typeCheckFile } from './helpers/type-check.js';

const FIXTURE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/openapi-3.2.yaml');

describe('an OpenAPI 3.2 document, generated', () => {
  it('generates every target without a warning, and a sequence module only because it has sequences', async () => {
    const result = await generate({ spec: FIXTURE, targets: ['validators', 'server', 'client', 'mocks'] });
    expect(result.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    const files = Object.fromEntries(result.files.map((f) => [f.path, f.contents]));
    const operations = files['validators/operations.gen.ts']!;
    expect(operations).toContain('  method: "query",');
    expect(operations).toContain('  method: "COPY",');
    expect(operations).toContain('"application/jsonl": seq.sequence(Quote),');
    // Part encodings only where the spec writes them (multipart/mixed).
    expect(operations).toContain('{ prefixEncoding: [{ contentType: "application/json" }], itemEncoding: { contentType: "text/plain" } })');
    expect(operations.match(/prefixEncoding/g)).toHaveLength(1);
    expect(operations).toContain("import * as seq from './sequence.gen.js';");
    expect(files['validators/sequence.gen.ts']).toContain('export function sequence<');
    expect(files['server/handlers.gen.ts']).toContain('Responses: 200 (The quotes found), 400 (A problem).');
    // A tag with a 3.2 summary and parent: its place among its parents, and its kind.
    expect(files['server/handlers.gen.ts']).toContain('   * Tag: Quotes › Live quotes (nav). Security: bearer, or device (quotes). Responses: 200, 400 (A\n   * problem).');
    const instrument = result.built.api.schemas.find((schema) => schema.name === 'Instrument')!.schema;
    expect(instrument).toMatchObject({ kind: 'union', discriminator: { propertyName: 'kind', defaultVariant: 0 } });
    const equity = result.built.api.schemas.find((schema) => schema.name === 'Equity')!.schema;
    expect(equity.kind === 'object' && equity.properties.find((p) => p.name === 'symbol')!.schema.xmlNodeType).toBe('attribute');
  });

  it('type-checks, and types items on both sides', async () => {
    const dir = await scratchDir();
    const report = await verify({ spec: FIXTURE, keepDir: dir, targets: ['validators', 'server', 'client'] });
    expect(report.typeErrors).toEqual([]);
    expect(report.ok).toBe(true);
    await writeFile(
      path.join(dir, 'consumer.ts'),
      [
        "import type { Handlers } from './server/index.js';",
        "import type { StreamQuotesResult, QuoteHistoryResult, QuoteReportResult, ImportQuotesParams, SearchQuotesByJsonParams, FilterQuotesParams } from './client/index.js';",
        "import type { Quote, QuoteSearch } from './validators/index.js';",
        '',
        'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
        'const assert = <T extends true>(): T | undefined => undefined;',
        "type Event = { event?: 'quote' | 'heartbeat'; id?: string; retry?: number; data: string; [key: string]: unknown };",
        "assert<Same<Parameters<Handlers['importQuotes']>[0]['body'], AsyncIterable<Quote>>>();",
        "assert<Same<StreamQuotesResult['body'], AsyncIterable<Event>>>();",
        "assert<Same<QuoteHistoryResult['body'], AsyncIterable<Quote>>>();",
        "assert<Same<QuoteReportResult['body'], AsyncIterable<Quote | string>>>();",
        "assert<Same<Parameters<Handlers['searchQuotesByJson']>[0]['query'], QuoteSearch>>();",
        "assert<Same<Parameters<Handlers['filterQuotes']>[0]['query'], { symbol: string; limit?: number; venues?: string[]; [key: string]: unknown }>>();",
        "export const search: SearchQuotesByJsonParams = { query: { symbols: ['ABC'] } };",
        "export const filter: FilterQuotesParams = { query: { symbol: 'ABC', venues: ['X'] } };",
        "// @ts-expect-error symbols is required in the JSON query string",
        "export const noSymbols: SearchQuotesByJsonParams = { query: {} };",
        "export const upload: ImportQuotesParams = { body: [{ symbol: 'ABC', price: 1, at: '2026-01-01T00:00:00Z' }] };",
        '',
        'export const handlers: Handlers = {',
        "  searchQuotes: ({ body }) => ({ status: 200, body: body.symbols.map((symbol) => ({ symbol, price: 1, at: '2026-01-01T00:00:00Z' })) }),",
        "  copyQuote: ({ headers }) => ({ status: 201, body: { symbol: headers.destination, price: 1, at: '2026-01-01T00:00:00Z' } }),",
        '  streamQuotes: () => ({',
        '    status: 200,',
        '    body: (async function* () {',
        "      yield { event: 'quote' as const, id: '1', data: '{}' };",
        '    })(),',
        '  }),',
        "  quoteHistory: () => ({ status: 200, body: [{ symbol: 'ABC', price: 1, at: '2026-01-01T00:00:00Z' }] }),",
        "  quoteReport: () => ({ status: 200, body: [{ symbol: 'ABC', price: 1, at: '2026-01-01T00:00:00Z' }, 'a note'] }),",
        "  getInstrument: ({ cookies }) => ({ status: 200, body: cookies.prefs?.includes('bond') ? { kind: 'bond', isin: 'XS0123456789' } : { symbol: 'ABC' } }),",
        "  searchQuotesByJson: ({ query }) => ({ status: 200, body: query.symbols.map((symbol) => ({ symbol, price: 1, at: '2026-01-01T00:00:00Z' })) }),",
        "  filterQuotes: ({ query }) => ({ status: 200, body: [{ symbol: query.symbol, price: query.limit ?? 1, at: '2026-01-01T00:00:00Z' }] }),",
        '  importQuotes: async ({ body }) => {',
        '    let count = 0;',
        '    for await (const quote of body) count += quote.price > 0 ? 1 : 0;',
        '    return { status: 200, body: { count } };',
        '  },',
        '};',
        'export const wrong: Partial<Handlers> = {',
        "  // @ts-expect-error an event's type is quote or heartbeat",
        "  streamQuotes: () => ({ status: 200, body: [{ event: 'trade', data: '' }] }),",
        '  // @ts-expect-error items of the history are quotes',
        "  quoteHistory: () => ({ status: 200, body: [{ symbol: 'ABC' }] }),",
        '};',
        '',
      ].join('\n'),
    );
    expect(await typeCheckFile(path.join(dir, 'consumer.ts'))).toEqual([]);
  });

  it('mocks a sequence as valid items', async () => {
    const dir = await scratchDir();
    const report = await verify({ spec: FIXTURE, keepDir: dir, targets: ['validators', 'mocks'] });
    expect(report.ok).toBe(true);
    const { mocks } = (await import(/* @vite-ignore */ path.join(dir, 'mocks/index.ts'))) as { mocks: Record<string, (options?: object) => { status: number; contentType: string; body: unknown }> };
    const { Quote } = (await import(/* @vite-ignore */ path.join(dir, 'validators/index.ts'))) as { Quote: { safeParse(v: unknown): { success: boolean } } };
    const history = mocks['quoteHistory']!({ contentType: 'application/jsonl' });
    expect(history).toMatchObject({ status: 200, contentType: 'application/jsonl' });
    expect(Array.isArray(history.body) && history.body.length).toBe(3);
    for (const item of history.body as unknown[]) expect(Quote.safeParse(item).success).toBe(true);
    const events = mocks['streamQuotes']!();
    expect((events.body as Array<{ data: unknown }>).every((event) => typeof event.data === 'string')).toBe(true);
    // multipart/mixed: items valid, and each one its part can carry (text/plain after the first).
    for (let seed = 1; seed <= 20; seed++) {
      const report = mocks['quoteReport']!({ seed });
      expect(report).toMatchObject({ status: 200, contentType: 'multipart/mixed' });
      const [, ...notes] = report.body as unknown[];
      expect(notes.length, `seed ${seed}`).toBe(2);
      for (const note of notes) expect(typeof note, `seed ${seed}`).toBe('string');
    }
  });
});

describe('discriminator defaultMapping', () => {
  it('reports the default variant\'s issues for a value without the tag; what validates is unchanged', async () => {
    const dir = await scratchDir();
    const report = await verify({ spec: FIXTURE, keepDir: dir, targets: ['validators'] });
    expect(report.ok).toBe(true);
    type Issues = { success: boolean; error?: { issues: Array<{ path: PropertyKey[] }> } };
    const { Instrument } = (await import(/* @vite-ignore */ path.join(dir, 'validators/index.ts'))) as { Instrument: { safeParse(v: unknown): Issues } };
    const paths = (value: unknown) => Instrument.safeParse(value).error?.issues.map((i) => i.path.join('.'));
    // No tag: the issues of Equity, the default (not the union's "no variant matched").
    expect(paths({})).toEqual(['symbol']);
    // A tag the mapping names: that variant's issues, as before.
    expect(paths({ kind: 'bond' })).toEqual(['isin']);
    expect(Instrument.safeParse({ symbol: 'ABC' }).success).toBe(true);
    expect(Instrument.safeParse({ kind: 'bond', isin: 'XS0123456789' }).success).toBe(true);
  });
});
