/** Media type essences, as a receiver of responses reads them: kinds, and declared-type matching. */
import { describe, expect, it } from 'vitest';
import { bodyKind, declaredContentType, isFormType, isJsonType, isJwtType, isMultipartType, isTextType, mediaTypeOf, normalizeContentType } from '../src/index.js';

describe('essences', () => {
  it('drops parameters, case and spaces', () => {
    expect(mediaTypeOf(' Application/JSON ; charset=UTF-8')).toBe('application/json');
    expect(normalizeContentType('Application/JSON ; Charset=UTF-8')).toBe('application/json;charset=utf-8');
  });

  it.each([
    ['application/json; charset=utf-8', 'json'],
    ['application/problem+json', 'json'],
    ['application/jwt', 'jwt'],
    ['application/x-www-form-urlencoded', 'form'],
    ['multipart/form-data; boundary=x', 'multipart'],
    ['text/csv', 'text'],
    ['text/json', 'json'],
    ['Text/JSON; charset=utf-8', 'json'],
    ['application/vnd.api+json', 'json'],
    ['text/vnd.example+json', 'json'],
    ['application/jsonp', 'none'],
    ['application/x-json-stream', 'none'],
    ['json', 'none'],
  ])('%s is %s', (type, kind) => {
    const kinds = { json: isJsonType(type), jwt: isJwtType(type), form: isFormType(type), multipart: isMultipartType(type), text: isTextType(type) };
    expect(Object.entries(kinds).filter(([, yes]) => yes).map(([name]) => name)).toEqual(kind === 'none' ? [] : [kind]);
  });

  it('calls JSON what bodyKind reads and writes as JSON', () => {
    for (const type of ['application/json', 'text/json', 'application/problem+json', 'text/vnd.example+json', 'application/jsonp', 'text/plain', 'application/jwt']) {
      expect(isJsonType(type), type).toBe(bodyKind(type) === 'json');
    }
  });
});

describe('declaredContentType', () => {
  const declared = ['application/json; charset=utf-8', 'application/json', 'application/jwt'];

  it('matches exact spelling first, then the media type, then wildcards', () => {
    expect(declaredContentType(declared, 'application/json; charset=utf-8')).toBe('application/json; charset=utf-8');
    expect(declaredContentType(declared, 'APPLICATION/JSON;CHARSET=UTF-8')).toBe('application/json; charset=utf-8');
    expect(declaredContentType(declared, 'application/json')).toBe('application/json');
    expect(declaredContentType(declared, 'application/jwt; charset=ascii')).toBe('application/jwt');
    expect(declaredContentType(declared, 'text/plain')).toBeUndefined();
    expect(declaredContentType(['application/*'], 'application/pdf')).toBe('application/*');
    expect(declaredContentType(['*/*'], 'image/png')).toBe('*/*');
  });
});
