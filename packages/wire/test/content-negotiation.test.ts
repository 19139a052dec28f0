import { describe, expect, it } from 'vitest';
import { acceptedContentType, bodyKind, negotiate, parseMediaType } from '../src/index.js';

const OFFERS = ['application/json; charset=utf-8', 'application/json', 'application/jwt'];

describe('negotiate', () => {
  it.each([
    [undefined, 'application/json; charset=utf-8'],
    ['', 'application/json; charset=utf-8'],
    ['*/*', 'application/json; charset=utf-8'],
    ['application/*', 'application/json; charset=utf-8'],
    ['application/json', 'application/json'],
    ['application/json; charset=UTF-8', 'application/json; charset=utf-8'],
    ['application/jwt', 'application/jwt'],
    ['application/json;q=0.5, application/jwt', 'application/jwt'],
    ['application/jwt;q=0.1, */*;q=0.5', 'application/json; charset=utf-8'],
    ['application/json;q=0, application/jwt;q=0', undefined],
    ['text/html', undefined],
    ['garbage', 'application/json; charset=utf-8'],
  ])('Accept %j → %j', (accept, expected) => {
    expect(negotiate(accept, OFFERS)).toBe(expected);
  });

  it('offers nothing when there is nothing to offer', () => {
    expect(negotiate('*/*', [])).toBeUndefined();
  });

  it('handles quoted commas and caps the number of ranges it reads', () => {
    expect(negotiate('text/plain; x="a,b", application/jwt', OFFERS)).toBe('application/jwt');
    expect(negotiate(`${'text/html, '.repeat(1000)}application/jwt`, OFFERS)).toBeUndefined();
  });
});

describe('acceptedContentType', () => {
  it.each([
    ['application/json', 'application/json'],
    ['Application/JSON', 'application/json'],
    ['application/json;charset=UTF-8', 'application/json; charset=utf-8'],
    ['application/json; charset=latin1', 'application/json'],
    ['application/jwt', 'application/jwt'],
    ['text/plain', undefined],
    ['nonsense', undefined],
  ])('%j → %j', (contentType, expected) => {
    expect(acceptedContentType(contentType, OFFERS)).toBe(expected);
  });

  it('matches wildcards in the spec', () => {
    expect(acceptedContentType('image/png', ['image/*'])).toBe('image/*');
    expect(acceptedContentType('image/png', ['*/*'])).toBe('*/*');
  });
});

describe('media types', () => {
  it('parses parameters and lower-cases charset', () => {
    const media = parseMediaType('Application/Problem+JSON; Charset="UTF-8"; q=1');
    expect(media?.type).toBe('application');
    expect(media?.subtype).toBe('problem+json');
    expect(Object.fromEntries(media!.params)).toEqual({ charset: 'utf-8', q: '1' });
  });

  it.each([
    ['application/json; charset=utf-8', 'json'],
    ['application/problem+json', 'json'],
    ['application/jwt', 'jwt'],
    ['application/x-www-form-urlencoded', 'form'],
    ['text/csv', 'text'],
    ['application/octet-stream', 'binary'],
  ])('%s is %s', (type, kind) => {
    expect(bodyKind(type)).toBe(kind);
  });
});
