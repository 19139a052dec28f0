/**
 * The parameter serializer (the client's writing) against OpenAPI's style examples: the value
 * `blue`, the list `blue, black, brown` and the object `{ R: 100, G: 200, B: 150 }` of a
 * parameter `color`, in every style the tables list; and what no form can carry, refused.
 */
import { describe, expect, it } from 'vitest';
import { ParameterStyleError, styledCookiePairs, styledHeaderText, styledPathText, styledQueryPairs, type ParameterWire } from '../src/index.js';

const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

function wire(location: string, style: string, explode: boolean, shape: string, extra: Partial<ParameterWire> = {}): ParameterWire {
  return { name: 'color', in: location, style, explode, shape, ...extra };
}

describe('path styles (the style examples table)', () => {
  it.each([
    ['simple', false, 'primitive', 'blue', 'blue'],
    ['simple', false, 'array', ARRAY, 'blue,black,brown'],
    ['simple', false, 'object', OBJECT, 'R,100,G,200,B,150'],
    ['simple', true, 'array', ARRAY, 'blue,black,brown'],
    ['simple', true, 'object', OBJECT, 'R=100,G=200,B=150'],
    ['label', false, 'primitive', 'blue', '.blue'],
    ['label', false, 'array', ARRAY, '.blue,black,brown'],
    ['label', false, 'object', OBJECT, '.R,100,G,200,B,150'],
    ['label', true, 'array', ARRAY, '.blue.black.brown'],
    ['label', true, 'object', OBJECT, '.R=100.G=200.B=150'],
    ['matrix', false, 'primitive', 'blue', ';color=blue'],
    ['matrix', false, 'primitive', '', ';color'],
    ['matrix', false, 'array', ARRAY, ';color=blue,black,brown'],
    ['matrix', false, 'object', OBJECT, ';color=R,100,G,200,B,150'],
    ['matrix', true, 'array', ARRAY, ';color=blue;color=black;color=brown'],
    ['matrix', true, 'object', OBJECT, ';R=100;G=200;B=150'],
  ])('%s (explode %s) %s %o → %s', (style, explode, shape, value, expected) => {
    expect(styledPathText(wire('path', style, explode, shape), value)).toBe(expected);
  });

  it('percent-encodes delimiters inside values', () => {
    expect(styledPathText(wire('path', 'simple', false, 'array'), ['a,b', 'c d'])).toBe('a%2Cb,c%20d');
    expect(styledPathText(wire('path', 'matrix', true, 'object'), { 'x=y': '1;2' })).toBe(';x%3Dy=1%3B2');
  });
});

describe('query styles (the style examples table)', () => {
  it.each([
    ['form', false, 'primitive', 'blue', ['color=blue']],
    ['form', false, 'array', ARRAY, ['color=blue,black,brown']],
    ['form', false, 'object', OBJECT, ['color=R,100,G,200,B,150']],
    ['form', true, 'array', ARRAY, ['color=blue', 'color=black', 'color=brown']],
    ['form', true, 'object', OBJECT, ['R=100', 'G=200', 'B=150']],
    ['spaceDelimited', false, 'array', ARRAY, ['color=blue%20black%20brown']],
    ['spaceDelimited', false, 'object', OBJECT, ['color=R%20100%20G%20200%20B%20150']],
    ['pipeDelimited', false, 'array', ARRAY, ['color=blue|black|brown']],
    ['pipeDelimited', false, 'object', OBJECT, ['color=R|100|G|200|B|150']],
    ['deepObject', true, 'object', OBJECT, ['color[R]=100', 'color[G]=200', 'color[B]=150']],
  ])('%s (explode %s) %s %o → %o', (style, explode, shape, value, expected) => {
    expect(styledQueryPairs(wire('query', style, explode, shape), value)).toEqual(expected);
  });

  it('keeps reserved characters with allowReserved, except those that would end or change the value', () => {
    const parameter = wire('query', 'form', true, 'primitive', { allowReserved: true });
    expect(styledQueryPairs(parameter, 'a/b?c:d@e,f;g=h&i#j+k%l')).toEqual(['color=a/b?c:d@e,f;g=h%26i%23j%2Bk%25l']);
    const list = wire('query', 'form', false, 'array', { allowReserved: true });
    expect(styledQueryPairs(list, ['a,b', 'c/d'])).toEqual(['color=a%2Cb,c/d']);
  });

  it('sends a content-encoded parameter as its JSON text', () => {
    const parameter = wire('query', 'form', true, 'object', { contentType: 'application/json' });
    expect(styledQueryPairs(parameter, { R: 100 })).toEqual([`color=${encodeURIComponent('{"R":100}')}`]);
  });
});

describe('header and cookie styles', () => {
  it.each([
    ['array', false, ARRAY, 'blue,black,brown'],
    ['array', true, ARRAY, 'blue,black,brown'],
    ['object', false, OBJECT, 'R,100,G,200,B,150'],
    ['object', true, OBJECT, 'R=100,G=200,B=150'],
  ])('header simple %s (explode %s) → %s', (shape, explode, value, expected) => {
    expect(styledHeaderText(wire('header', 'simple', explode as boolean, shape), value)).toBe(expected);
  });

  it.each([
    ['array', false, ARRAY, ['color=blue,black,brown']],
    ['array', true, ARRAY, ['color=blue', 'color=black', 'color=brown']],
    ['object', false, OBJECT, ['color=R,100,G,200,B,150']],
    ['object', true, OBJECT, ['R=100', 'G=200', 'B=150']],
  ])('cookie form %s (explode %s) → %o', (shape, explode, value, expected) => {
    expect(styledCookiePairs(wire('cookie', 'form', explode as boolean, shape), value)).toEqual(expected);
  });
});

describe('what no form carries is refused, naming the parameter and the rule', () => {
  it.each([
    [wire('header', 'simple', false, 'array'), ['a,b'], 'header "color": item "a,b" holds ",", the delimiter of style simple; headers are not percent-encoded'],
    [wire('header', 'simple', false, 'primitive'), ' padded', 'header "color": the value " padded" cannot travel in a header'],
    [wire('header', 'simple', false, 'primitive'), 'snow ☃', 'header "color": the value "snow ☃" cannot travel in a header'],
  ])('%o %o', (parameter, value, message) => {
    expect(() => styledHeaderText(parameter, value)).toThrow(ParameterStyleError);
    expect(() => styledHeaderText(parameter, value)).toThrow(message);
  });

  it('refuses a space in a spaceDelimited item, a non-object deepObject and nested members', () => {
    expect(() => styledQueryPairs(wire('query', 'spaceDelimited', false, 'array'), ['a b'])).toThrow('query parameter "color": a spaceDelimited item cannot hold a space');
    expect(() => styledQueryPairs(wire('query', 'deepObject', true, 'array'), ['a'])).toThrow('query parameter "color": style deepObject carries only objects');
    expect(() => styledQueryPairs(wire('query', 'form', true, 'object'), { a: { b: 1 } })).toThrow('query parameter "color": member "a" must be a primitive');
  });

  it('refuses a null item or member rather than sending the text "null" (which reads back as that string)', () => {
    expect(() => styledQueryPairs(wire('query', 'form', false, 'array'), ['a', null])).toThrow('query parameter "color": item 1 is null, which no style can carry');
    expect(() => styledPathText(wire('path', 'simple', false, 'object'), { R: null })).toThrow('path parameter "color": member "R" is null, which no style can carry');
    expect(() => styledHeaderText(wire('header', 'simple', false, 'array'), [null])).toThrow('header "color": item 0 is null');
    expect(() => styledCookiePairs(wire('cookie', 'form', true, 'object'), { R: null })).toThrow('cookie "color": member "R" is null');
  });

  it('refuses "." in exploded label items (URLs read %2E as ".")', () => {
    expect(() => styledPathText(wire('path', 'label', true, 'array'), ['a.b'])).toThrow('path parameter "color": an exploded label item or member cannot hold "."');
  });
});
