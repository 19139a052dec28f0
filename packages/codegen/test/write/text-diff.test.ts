import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../src/text-diff.js';

const lines = (n: number, at = 1) => Array.from({ length: n }, (_, i) => `line ${i + at}`);

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => {
    expect(unifiedDiff({ before: 'a\n', after: 'a\n', fromName: 'x', toName: 'y' })).toBe('');
  });

  it('shows one changed line with three lines of context and correct ranges', () => {
    const before = `${lines(10).join('\n')}\n`;
    const after = before.replace('line 5\n', 'line five\n');
    expect(unifiedDiff({ before, after, fromName: 'a/f.ts', toName: 'b/f.ts' })).toBe(
      ['--- a/f.ts', '+++ b/f.ts', '@@ -2,7 +2,7 @@', ' line 2', ' line 3', ' line 4', '-line 5', '+line five', ' line 6', ' line 7', ' line 8', ''].join('\n'),
    );
  });

  it('splits far-apart changes into hunks, and handles insertions and deletions', () => {
    const a = lines(30);
    const b = [...a];
    b.splice(2, 1); // delete line 3
    b.splice(24, 0, 'new'); // insert before line 26 (index shifted by the deletion)
    const diff = unifiedDiff({ before: `${a.join('\n')}\n`, after: `${b.join('\n')}\n`, fromName: 'a', toName: 'b' });
    expect(diff).toBe(
      [
        '--- a',
        '+++ b',
        '@@ -1,6 +1,5 @@',
        ' line 1',
        ' line 2',
        '-line 3',
        ' line 4',
        ' line 5',
        ' line 6',
        '@@ -23,6 +22,7 @@',
        ' line 23',
        ' line 24',
        ' line 25',
        '+new',
        ' line 26',
        ' line 27',
        ' line 28',
        '',
      ].join('\n'),
    );
  });

  it('from nothing, and cut after maxLines', () => {
    const diff = unifiedDiff({ before: '', after: `${lines(100).join('\n')}\n`, fromName: 'a', toName: 'b', maxLines: 10 });
    expect(diff.split('\n').slice(0, 4)).toStrictEqual(['--- a', '+++ b', '@@ -0,0 +1,100 @@', '+line 1']);
    expect(diff).toContain('... (diff cut at 10 lines)');
    expect(diff.split('\n')).toHaveLength(12);
  });
});
