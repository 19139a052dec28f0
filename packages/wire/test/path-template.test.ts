import { describe, expect, it } from 'vitest';
import { matchSegment, segmentTemplate } from '../src/index.js';
import { KiB, SAFETY_BOUND_MS, timed } from './support/safety-bound.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The regular expression a template segment used to be matched by: the reference answer. */
function regexOf(segment: string, prefer: 'shortest' | 'longest'): RegExp {
  const { literals } = segmentTemplate(segment, true);
  const group = prefer === 'shortest' ? '([^/]+?)' : '([^/]+)';
  return new RegExp(`^${literals.map(escapeRegExp).join(group)}$`);
}

describe('segmentTemplate', () => {
  it('reads parameters and the literals around them', () => {
    expect(segmentTemplate('{id}.{format}', true)).toEqual({ literals: ['', '.', ''], names: ['id', 'format'] });
    expect(segmentTemplate('report-{year}.json', false)).toEqual({ literals: ['report-', '.json'], names: ['year'] });
    expect(segmentTemplate('a{}b{x}', true)).toEqual({ literals: ['a', 'b', ''], names: ['', 'x'] });
    expect(segmentTemplate('a{}b{x}', false)).toEqual({ literals: ['a{}b', ''], names: ['x'] });
    expect(segmentTemplate('a{b', true)).toEqual({ literals: ['a{b'], names: [] });
  });
});

describe('matchSegment', () => {
  it('gives the captures of the regular expression, shortest or longest, on 20000 random cases', () => {
    let seed = 11;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const pieces = ['', '.', '-', 'a', 'ab', '.a', 'a.', '..', 'x'];
    const alphabet = ['a', 'b', '.', '-', 'x'];
    for (let round = 0; round < 20000; round++) {
      const count = next(4);
      let segment = pieces[next(pieces.length)]!;
      for (let i = 0; i < count; i++) segment += `{p${i}}${pieces[next(pieces.length)]!}`;
      const text = Array.from({ length: next(9) }, () => alphabet[next(alphabet.length)]!).join('');
      for (const prefer of ['shortest', 'longest'] as const) {
        const match = regexOf(segment, prefer).exec(text);
        const expected = match ? match.slice(1) : undefined;
        expect(matchSegment(segmentTemplate(segment, true), text, prefer), `${segment} on ${text} (${prefer})`).toEqual(expected);
      }
    }
  });

  it('answers for a 256 KiB segment of the shape that makes the regular expression quadratic', () => {
    const text = 'a.'.repeat(128 * KiB);
    for (const prefer of ['shortest', 'longest'] as const) {
      const { value, ms } = timed(() => matchSegment(segmentTemplate('{name}.{ext}.txt', true), text, prefer));
      expect(value).toBeUndefined();
      expect(ms).toBeLessThan(SAFETY_BOUND_MS);
      const found = timed(() => matchSegment(segmentTemplate('{a}.{b}.{c}', true), `${text}x`, prefer));
      expect(found.value).toEqual(prefer === 'shortest' ? ['a', 'a', `${text.slice(4)}x`] : [text.slice(0, -3), 'a', 'x']);
      expect(found.ms).toBeLessThan(SAFETY_BOUND_MS);
    }
  });
});
