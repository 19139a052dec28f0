/**
 * OpenAPI 3.2's `cookie` style: `form`'s forms in the Cookie header, pairs separated by `; `,
 * values sent as written (never percent-encoded) and read back as written.
 */
import { describe, expect, it } from 'vitest';
import { applyParameterStyles, ParameterStyleError, styledCookiePairs, type ParameterWire } from '../src/index.js';

const wire = (explode: boolean, shape: 'primitive' | 'array' | 'object'): ParameterWire => ({ name: 'color', in: 'cookie', style: 'cookie', explode, shape });

function read(parameter: ParameterWire, cookie: string): unknown {
  const maps = { path: {}, query: {}, headers: {}, cookies: {} as Record<string, unknown> };
  applyParameterStyles([parameter], { path: {}, query: '', headers: {}, cookie }, maps, { query: new Set(), cookie: new Set(['color']) });
  return maps.cookies['color'];
}

describe('style cookie', () => {
  it('writes the forms of the 3.2 style table, with nothing percent-encoded', () => {
    expect(styledCookiePairs(wire(true, 'primitive'), 'blue%20sky')).toEqual(['color=blue%20sky']);
    expect(styledCookiePairs(wire(true, 'array'), ['blue', 'black'])).toEqual(['color=blue', 'color=black']);
    expect(styledCookiePairs(wire(false, 'array'), ['blue', 'black'])).toEqual(['color=blue,black']);
    expect(styledCookiePairs(wire(true, 'object'), { R: '100', G: '200' })).toEqual(['R=100', 'G=200']);
    expect(styledCookiePairs(wire(false, 'object'), { R: '100', G: '200' })).toEqual(['color=R,100,G,200']);
  });

  it('reads them back as written: a percent sign is data', () => {
    expect(read(wire(true, 'primitive'), 'color=blue%20sky')).toBe('blue%20sky');
    expect(read(wire(true, 'array'), 'color=blue; color=black')).toEqual(['blue', 'black']);
    expect(read(wire(false, 'array'), 'color=blue,black')).toEqual(['blue', 'black']);
    expect(read(wire(true, 'object'), 'R=100; G=200')).toEqual({ R: '100', G: '200' });
    // The form style, by contrast, percent-decodes.
    expect(read({ ...wire(true, 'primitive'), style: 'form' }, 'color=blue%20sky')).toBe('blue sky');
  });

  it('refuses a value it would have to escape, naming the parameter and the rule', () => {
    for (const bad of ['two words', 'a;b', 'a,b', '"q"', 'back\\slash', 'é']) {
      expect(() => styledCookiePairs(wire(true, 'primitive'), bad)).toThrow(ParameterStyleError);
    }
    expect(() => styledCookiePairs(wire(true, 'primitive'), 'a b')).toThrow('cookie "color": "a b" cannot travel in style cookie, which escapes nothing');
  });
});
