/**
 * The parameter parser (the server's and mock handlers' reading) against OpenAPI's style examples: the value `blue`, the list
 * `blue, black, brown` and the object `{ R: 100, G: 200, B: 150 }` of a parameter `color`, in
 * every style the tables list (members stay text: the validators decode numbers).
 */
import { describe, expect, it } from 'vitest';
import { applyParameterStyles, ParameterStyleError, type ParameterWire } from '../src/index.js';

const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: '100', G: '200', B: '150' };

function wire(location: string, style: string, explode: boolean, shape: string, extra: Partial<ParameterWire> = {}): ParameterWire {
  return { name: 'color', in: location, style, explode, shape, ...extra };
}

function parse(parameter: ParameterWire, raw: { path?: string; query?: string; header?: string; cookie?: string }, declaredQuery: string[] = ['color']) {
  const maps = { path: {}, query: {}, headers: {}, cookies: {} } as Record<'path' | 'query' | 'headers' | 'cookies', Record<string, unknown>>;
  applyParameterStyles(
    [parameter],
    { path: raw.path === undefined ? {} : { color: raw.path }, query: raw.query ?? '', headers: raw.header === undefined ? {} : { color: raw.header }, cookie: raw.cookie },
    maps,
    { query: new Set(declaredQuery), cookie: new Set(['color']) },
  );
  return maps;
}

describe('path styles (the style examples table)', () => {
  it.each([
    ['simple', false, 'primitive', 'blue', 'blue'],
    ['simple', false, 'array', 'blue,black,brown', ARRAY],
    ['simple', false, 'object', 'R,100,G,200,B,150', OBJECT],
    ['simple', true, 'array', 'blue,black,brown', ARRAY],
    ['simple', true, 'object', 'R=100,G=200,B=150', OBJECT],
    ['label', false, 'primitive', '.blue', 'blue'],
    ['label', false, 'array', '.blue,black,brown', ARRAY],
    ['label', false, 'object', '.R,100,G,200,B,150', OBJECT],
    ['label', true, 'array', '.blue.black.brown', ARRAY],
    ['label', true, 'object', '.R=100.G=200.B=150', OBJECT],
    ['matrix', false, 'primitive', ';color=blue', 'blue'],
    ['matrix', false, 'primitive', ';color', ''],
    ['matrix', false, 'array', ';color=blue,black,brown', ARRAY],
    ['matrix', false, 'object', ';color=R,100,G,200,B,150', OBJECT],
    ['matrix', true, 'array', ';color=blue;color=black;color=brown', ARRAY],
    ['matrix', true, 'object', ';R=100;G=200;B=150', OBJECT],
  ])('%s (explode %s) %s: %s', (style, explode, shape, raw, expected) => {
    expect(parse(wire('path', style, explode, shape), { path: raw }).path['color']).toEqual(expected);
  });

  it('reads an encoded delimiter as data', () => {
    expect(parse(wire('path', 'simple', false, 'array'), { path: 'a%2Cb,c%20d' }).path['color']).toEqual(['a,b', 'c d']);
    expect(parse(wire('path', 'matrix', true, 'object'), { path: ';x%3Dy=1%3B2' }).path['color']).toEqual({ 'x=y': '1;2' });
  });
});

describe('query styles (the style examples table)', () => {
  it.each([
    ['form', false, 'primitive', 'color=blue', 'blue'],
    ['form', false, 'array', 'color=blue,black,brown', ARRAY],
    ['form', false, 'object', 'color=R,100,G,200,B,150', OBJECT],
    ['form', true, 'array', 'color=blue&color=black&color=brown', ARRAY],
    ['form', true, 'object', 'R=100&G=200&B=150', OBJECT],
    ['spaceDelimited', false, 'array', 'color=blue%20black%20brown', ARRAY],
    ['spaceDelimited', false, 'object', 'color=R%20100%20G%20200%20B%20150', OBJECT],
    ['pipeDelimited', false, 'array', 'color=blue|black|brown', ARRAY],
    ['pipeDelimited', false, 'object', 'color=R|100|G|200|B|150', OBJECT],
    ['deepObject', true, 'object', 'color[R]=100&color[G]=200&color[B]=150', OBJECT],
  ])('%s (explode %s) %s: %s', (style, explode, shape, raw, expected) => {
    expect(parse(wire('query', style, explode, shape), { query: raw }).query['color']).toEqual(expected);
  });

  it('reads `+` as a space and `%2C` as a comma inside a form list', () => {
    expect(parse(wire('query', 'form', false, 'array'), { query: 'color=a+b,c%2Cd' }).query['color']).toEqual(['a b', 'c,d']);
  });

  it('gives a form-exploded object only the names no other parameter declares', () => {
    const maps = parse(wire('query', 'form', true, 'object'), { query: 'R=100&page=2&G=200' }, ['color', 'page']);
    expect(maps.query['color']).toEqual({ R: '100', G: '200' });
  });

  it('leaves a parameter that was not sent absent', () => {
    expect('color' in parse(wire('query', 'deepObject', true, 'object'), { query: 'other=1' }).query).toBe(false);
  });

  it('parses a content-encoded (JSON) parameter', () => {
    const parameter = wire('query', 'form', true, 'object', { contentType: 'application/json' });
    expect(parse(parameter, { query: `color=${encodeURIComponent('{"R":100,"tags":["a"]}')}` }).query['color']).toEqual({ R: 100, tags: ['a'] });
  });
});

describe('header and cookie styles', () => {
  it.each([
    ['array', false, 'blue,black,brown', ARRAY],
    ['array', true, 'blue, black, brown', ARRAY],
    ['object', false, 'R,100,G,200,B,150', OBJECT],
    ['object', true, 'R=100,G=200,B=150', OBJECT],
  ])('header simple %s (explode %s): %s', (shape, explode, raw, expected) => {
    expect(parse(wire('header', 'simple', explode as boolean, shape), { header: raw }).headers['color']).toEqual(expected);
  });

  it.each([
    ['array', false, 'color=blue,black,brown', ARRAY],
    ['array', true, 'color=blue; color=black; color=brown', ARRAY],
    ['object', false, 'color=R,100,G,200,B,150', OBJECT],
    ['object', true, 'R=100; G=200; B=150', OBJECT],
  ])('cookie form %s (explode %s): %s', (shape, explode, raw, expected) => {
    expect(parse(wire('cookie', 'form', explode as boolean, shape), { cookie: raw }).cookies['color']).toEqual(expected);
  });
});

describe('empty text for a list or an object', () => {
  it.each([
    ['path', 'label', false, '.'],
    ['path', 'label', true, '.'],
    ['path', 'matrix', false, ';color'],
    ['query', 'form', false, 'color='],
    ['query', 'pipeDelimited', false, 'color='],
    ['header', 'simple', false, ''],
    ['header', 'simple', true, ''],
    ['cookie', 'form', false, 'color='],
  ])('%s %s (explode %s) reads %j as an object without members, and as a list of one empty item', (location, style, explode, raw) => {
    const at = (shape: string) => {
      const key = location === 'cookie' ? 'cookies' : location === 'header' ? 'headers' : (location as 'path' | 'query');
      const given = location === 'header' ? { header: raw } : location === 'cookie' ? { cookie: raw } : { [location]: raw };
      return parse(wire(location, style, explode as boolean, shape), given)[key]['color'];
    };
    expect(at('object')).toEqual({});
    expect(at('array')).toEqual(['']);
  });
});

describe('values that do not parse in their style', () => {
  it.each([
    [wire('path', 'label', false, 'primitive'), { path: 'blue' }, 'path parameter "color": style label starts with "."'],
    [wire('path', 'matrix', false, 'primitive'), { path: ';colour=blue' }, 'path parameter "color": style matrix names the parameter (";color="); got "colour"'],
    [wire('path', 'simple', false, 'object'), { path: 'R,100,G' }, 'path parameter "color": an object in style simple is name,value pairs; got 3 items'],
    [wire('query', 'form', false, 'array'), { query: 'color=a&color=b' }, 'query parameter "color": given 2 times; style form without explode gives it once'],
    [wire('query', 'form', true, 'object', { contentType: 'application/json' }), { query: 'color={' }, 'query parameter "color": not valid JSON (content application/json)'],
    [wire('query', 'form', true, 'object', { contentType: 'application/json' }), { query: `color=${encodeURIComponent('{"__proto__":{}}')}` }, 'query parameter "color": not valid JSON (content application/json): '],
    [wire('query', 'pipeDelimited', false, 'array'), { query: 'color=%E0%A4%A' }, 'query parameter "color": not valid percent-encoding'],
    [wire('query', 'deepObject', true, 'object'), { query: 'color[__proto__]=1' }, 'query parameter "color": member name "__proto__" is not allowed'],
    [wire('header', 'simple', true, 'object'), { header: 'R=1,G' }, 'header "color": an exploded object in style simple is name=value members; got "G"'],
  ])('%o %o → %s', (parameter, raw, message) => {
    expect(() => parse(parameter, raw)).toThrow(ParameterStyleError);
    expect(() => parse(parameter, raw)).toThrow(message);
  });
});
