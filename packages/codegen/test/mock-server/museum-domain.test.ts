/**
 * Mocks of a file of another domain (a museum's events, test/fixtures/museum-events-3.1.yaml):
 * words of any domain and none of this family's banking ones, titles for things, plural
 * arrays with items, lists that honour `limit`/`page` and `per_page`/`offset`, and image and
 * PDF answers that are real files.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/index.js';

const SPEC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/museum-events-3.1.yaml');

/** Words this family's hints use (hints.ts, `open-finance`): none may reach another domain's mocks. */
const BANKING_WORDS = [
  ...['Amira', 'Omar', 'Layla', 'Yusuf', 'Hamdan', 'Noor', 'Khalid', 'Rashid', 'Al Mansoori', 'Haddad', 'Rahman', 'Nasser', 'Farouk', 'Karim', 'Saleh', 'Qasim'],
  ...['Falcon Trading', 'Harbor Foods', 'Cedar Logistics', 'Summit Retail', 'Pearl Technologies'],
  ...['Monthly subscription', 'Grocery shopping', 'Salary payment', 'Transfer to savings'],
  ...['Sheikh Zayed', 'Al Wasl', 'Corniche', 'Dubai', 'Abu Dhabi', 'Sharjah', 'Riyadh', '"AED"', '"SAR"', '+9715'],
];

interface Event {
  id: string;
  name: string;
  title?: string;
  description?: string;
  dates: string[];
  tags?: string[];
  venue?: { name: string; city: string };
  price?: { amount: string; currency: string };
}

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ spec: SPEC, port: 0 });
});
afterAll(async () => {
  await server?.close();
});

async function get(target: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.url}${target}`, { headers, signal: AbortSignal.timeout(10_000) });
}

const generated = { prefer: 'dynamic=true' };

/** Generated events of many requests (each query its own seed). */
async function manyEvents(count: number): Promise<Event[]> {
  const events: Event[] = [];
  for (let i = 0; i < count; i++) {
    const body = (await (await get(`/events?limit=5&page=${i + 1}`, generated)).json()) as { items: Event[] };
    events.push(...body.items);
  }
  return events;
}

describe('mocks of a museum', () => {
  it("use no word of this family's banking hints", async () => {
    const text = JSON.stringify(await manyEvents(12)) + JSON.stringify(await (await get('/artworks?per_page=20', generated)).json());
    for (const word of BANKING_WORDS) expect(text, word).not.toContain(word);
  });

  it('name things with titles, and people only where the member says so', async () => {
    const events = await manyEvents(6);
    expect(events.length).toBeGreaterThan(20);
    for (const event of events) {
      expect(event.name).toMatch(/^(The )?[A-Z][a-z]+ [A-Z][a-z]+$/);
      if (event.title !== undefined) expect(event.title).toMatch(/^(The )?[A-Z][a-z]+ [A-Z][a-z]+$/);
      if (event.venue) expect(['London', 'Lisbon', 'Toronto', 'Osaka', 'Nairobi', 'Berlin']).toContain(event.venue.city);
      if (event.price) expect(['EUR', 'USD', 'GBP', 'JPY', 'CAD']).toContain(event.price.currency);
      if (event.description !== undefined) expect(event.description).toMatch(/^[A-Z][a-z]*( [a-z]+)+$/);
    }
    const artworks = (await (await get('/artworks?per_page=20', generated)).json()) as Array<{ artist: string }>;
    for (const artwork of artworks) expect(artwork.artist).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
  });

  it('give arrays named as plurals items, though minItems allows none', async () => {
    const events = await manyEvents(6);
    for (const event of events) {
      expect(event.dates.length, JSON.stringify(event)).toBeGreaterThan(0);
      if (event.tags !== undefined) expect(event.tags.length).toBeGreaterThan(0);
      for (const date of event.dates) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('answer ?limit=2 with two items, from the example and from generated data', async () => {
    const fromExample = (await (await get('/events?limit=2')).json()) as { items: Event[] };
    expect(fromExample.items.map((e) => e.id)).toEqual(['e1', 'e2']);
    const second = (await (await get('/events?limit=2&page=2')).json()) as { items: Event[] };
    expect(second.items.map((e) => e.id)).toEqual(['e3', 'e4']);
    const past = (await (await get('/events?limit=2&page=4')).json()) as { items: Event[] };
    expect(past.items).toEqual([]);
    for (const limit of [2, 7, 30]) {
      const made = (await (await get(`/events?limit=${limit}`, generated)).json()) as { items: Event[] };
      expect(made.items).toHaveLength(limit);
    }
  });

  it('answer per_page and offset on a bare array', async () => {
    const page = (await (await get('/artworks?per_page=3&offset=6', generated)).json()) as unknown[];
    expect(page).toHaveLength(3);
    const unpaged = await get('/artworks', generated);
    expect(unpaged.status).toBe(200);
  });

  it('answer the same bytes to the same request', async () => {
    const a = await (await get('/events?limit=9&page=2', generated)).text();
    const b = await (await get('/events?limit=9&page=2', generated)).text();
    expect(a).toBe(b);
    const p1 = new Uint8Array(await (await get('/events/e1/poster')).arrayBuffer());
    const p2 = new Uint8Array(await (await get('/events/e1/poster')).arrayBuffer());
    expect(p1).toEqual(p2);
  });

  it('answer a PNG that is a PNG: signature, IHDR first, IEND last, each CRC right', async () => {
    const response = await get('/events/e1/poster');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = pngChunks(bytes);
    expect(chunks[0]!.type).toBe('IHDR');
    expect(chunks[0]!.data.readUInt32BE(0)).toBe(1);
    expect(chunks[0]!.data.readUInt32BE(4)).toBe(1);
    expect(chunks.at(-1)!.type).toBe('IEND');
    expect(chunks.map((c) => c.type)).toContain('IDAT');
  });

  it('answer a PDF, a JPEG and a GIF that are what they say', async () => {
    const pdf = Buffer.from(await (await get('/events/e1/programme', { accept: 'application/pdf' })).arrayBuffer()).toString('latin1');
    expect(pdf.startsWith('%PDF-1.')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const jpeg = Buffer.from(await (await get('/events/e1/programme', { accept: 'image/jpeg' })).arrayBuffer());
    expect([...jpeg.subarray(0, 2)]).toEqual([0xff, 0xd8]);
    expect([...jpeg.subarray(-2)]).toEqual([0xff, 0xd9]);
    const gif = Buffer.from(await (await get('/events/e1/programme', { accept: 'image/gif' })).arrayBuffer());
    expect(gif.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect(gif.at(-1)).toBe(0x3b);
  });
});

/** The chunks of a PNG, each CRC checked (ISO 3309 CRC-32 over type and data). */
function pngChunks(bytes: Buffer): Array<{ type: string; data: Buffer }> {
  const chunks: Array<{ type: string; data: Buffer }> = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const typed = bytes.subarray(at + 4, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length), `CRC of ${typed.subarray(0, 4).toString('latin1')}`).toBe(crc32(typed));
    chunks.push({ type: typed.subarray(0, 4).toString('latin1'), data: typed.subarray(4) });
    at += 12 + length;
  }
  return chunks;
}

function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}
