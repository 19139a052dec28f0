/**
 * `parseInstant` is a character scan; this compares it, string by string, with a plain
 * reference written the obvious way (one regex, then Date.UTC round trips for the calendar),
 * on seeded generated RFC 3339 instants and full dates and on single-character mutations of
 * them, so the scan and the pattern it documents cannot drift apart unnoticed.
 */
import { describe, expect, it } from 'vitest';
import { parseInstant, type Instant } from '../../src/runtime/index.js';

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2}))?$/;

/** The reference: the documented pattern, a date that survives Date.UTC unchanged, times and offsets in range. */
function referenceParse(text: string): Instant | undefined {
  const m = PATTERN.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  // Date.UTC reads years 0-99 as 1900-1999; a month or day out of range rolls over and shows.
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  if (h === undefined) return { seconds: date.getTime() / 1000, fraction: '' };
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  let offset = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(zone!.slice(1, 3));
    const om = Number(zone!.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offset = (zone!.startsWith('-') ? -1 : 1) * (oh * 3600 + om * 60);
  }
  return { seconds: Date.UTC(year, month - 1, day, hour, minute, second) / 1000 - offset, fraction: (frac ?? '').replace(/0+$/, '') };
}

/** mulberry32: a small seeded generator, so a failure can be reproduced. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function generator(seed: number) {
  const next = rng(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;

  function year(): number {
    return pick([() => int(0, 99), () => int(1900, 2100), () => pick([0, 4, 96, 100, 1900, 2000, 2024, 2100, 2400, 9999]), () => int(0, 9999)])();
  }
  function instant(): string {
    const y = year();
    const leapDay = chance(0.15);
    const month = leapDay ? 2 : chance(0.05) ? pick([0, 13, 99]) : int(1, 12);
    const day = leapDay ? pick([28, 29, 30]) : chance(0.05) ? pick([0, 32, 99]) : int(1, pick([28, 30, 31]));
    const date = `${pad(y, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
    if (chance(0.2)) return date;
    const hour = chance(0.05) ? pick([24, 99]) : int(0, 23);
    const minute = chance(0.05) ? pick([60, 99]) : int(0, 59);
    const second = chance(0.1) ? pick([59, 60, 61]) : int(0, 59);
    const fraction = chance(0.4) ? `.${Array.from({ length: int(1, 12) }, () => (chance(0.3) ? '0' : String(int(0, 9)))).join('')}` : '';
    const zone = chance(0.4)
      ? pick(['Z', 'z'])
      : `${pick(['+', '-'])}${pad(chance(0.05) ? pick([24, 99]) : int(0, 14), 2)}:${pad(chance(0.05) ? pick([60, 99]) : pick([0, 0, 30, 45, int(0, 59)]), 2)}`;
    return `${date}${pick(['T', 'T', 't'])}${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction}${zone}`;
  }
  const NOISE = [...'0123456789', '-', ':', '.', 'T', 't', 'Z', 'z', '+', ' ', 'x', '\n', '\u0663' /* Arabic-Indic three */, '\uff11' /* fullwidth one */];
  function mutate(text: string): string {
    const at = int(0, text.length - 1);
    switch (pick(['replace', 'replace', 'delete', 'insert', 'duplicate', 'append'] as const)) {
      case 'replace':
        return text.slice(0, at) + pick(NOISE) + text.slice(at + 1);
      case 'delete':
        return text.slice(0, at) + text.slice(at + 1);
      case 'insert':
        return text.slice(0, at) + pick(NOISE) + text.slice(at);
      case 'duplicate':
        return text.slice(0, at + 1) + text.slice(at);
      case 'append':
        return text + pick(NOISE);
    }
  }
  return { instant, mutate, chance };
}

describe('parseInstant against a regex-and-Date.UTC reference', () => {
  it('gives the same result for thousands of generated and mutated strings', () => {
    const gen = generator(0x5eed);
    const texts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const text = gen.instant();
      texts.push(text, gen.mutate(text));
      if (gen.chance(0.3)) texts.push(gen.mutate(gen.mutate(text)));
    }
    // Fixed cases at the edges: leap days, years 0-99, lowercase t and z, long fractions.
    texts.push('2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '0000-02-29', '0004-02-29', '0096-02-29T00:00:00Z', '2100-02-29T00:00:00Z');
    texts.push('2025-03-14t09:30:00.250z', '2025-03-14T13:30:00+04:00', '1969-12-31T23:59:60.999999999999-00:30', '', '2025-03-14T', '2025-03-14T09:30:00.Z');

    const mismatches = texts.flatMap((text) => {
      const actual = parseInstant(text);
      const expected = referenceParse(text);
      return JSON.stringify(actual) === JSON.stringify(expected) ? [] : [{ text, actual, expected }];
    });
    expect(mismatches.slice(0, 10)).toEqual([]);
    // The generated strings reach both answers often enough to mean something.
    const valid = texts.filter((text) => referenceParse(text) !== undefined).length;
    expect(texts.length).toBeGreaterThan(6000);
    expect(valid).toBeGreaterThan(1500);
    expect(texts.length - valid).toBeGreaterThan(1500);
  });
});
