/**
 * The MSW handlers' path parameters: the answer of the regular expression they were read by
 * (`<template>/?$`, greedy, searched from the left), found in time linear in the path.
 */
import { describe, expect, it } from 'vitest';
import { pathPattern } from '../../templates/mocks/msw-path.js';

const SAFETY_BOUND_MS = 2000;
const KiB = 1024;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The reading the handlers had: the reference answer. */
function regexParameters(template: string, pathname: string): string[] | undefined {
  let source = '';
  let last = 0;
  for (const match of template.matchAll(/\{([^}]+)\}/g)) {
    source += escapeRegExp(template.slice(last, match.index));
    source += '([^/]+)';
    last = match.index + match[0].length;
  }
  source += escapeRegExp(template.slice(last));
  const found = new RegExp(`${source}/?$`).exec(pathname);
  return found ? found.slice(1) : undefined;
}

describe('pathPattern', () => {
  it('reads the parameters the regular expression read, on 20000 random templates and paths', () => {
    let seed = 5;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
    const segments = ['a', 'b', '{p}', '{q}.{r}', 'x{s}', '{t}-{u}.j', '{}', ''];
    const alphabet = ['a', 'b', '.', '-', 'x', 'j', '/', '{}'];
    for (let round = 0; round < 20000; round++) {
      const template = Array.from({ length: 1 + next(3) }, () => `/${segments[next(segments.length)]!}`).join('');
      const pathname = `/${Array.from({ length: next(10) }, () => alphabet[next(alphabet.length)]!).join('')}`;
      expect(pathPattern(template).match(pathname), `${template} on ${pathname}`).toEqual(regexParameters(template, pathname));
    }
  });

  it('names the parameters in template order', () => {
    const { match, params } = pathPattern('/accounts/{AccountId}/files/{name}.{ext}');
    expect(params).toEqual(['AccountId', 'name', 'ext']);
    expect(match('/v1/accounts/a%201/files/x.tar.gz/')).toEqual(['a%201', 'x.tar', 'gz']);
  });

  it('answers for a 256 KiB segment of the shape that makes the regular expression quadratic', () => {
    const { match } = pathPattern('/files/{name}.{ext}');
    const segment = 'a.'.repeat(128 * KiB);
    for (const [pathname, expected] of [
      [`/files/${segment}/x`, undefined],
      [`/files/${segment}x`, [segment.slice(0, -1), 'x']],
    ] as const) {
      const started = performance.now();
      expect(match(pathname)).toEqual(expected);
      expect(performance.now() - started).toBeLessThan(SAFETY_BOUND_MS);
    }
  });
});
