/**
 * Listed parameters as the client writes them into a request (the forms themselves are
 * `@bank-data-sharing/wire`'s, tested there): templates filled, the other parameters written
 * as before, and a value no form carries refused as a `RequestError` naming the operation.
 */
import { describe, expect, it } from 'vitest';
import type { ParameterWire } from '@bank-data-sharing/wire';
import { RequestError } from '../src/runtime/errors.js';
import { cookieHeader, fillPath, headerParameters, queryString } from '../src/runtime/request.js';

const ARRAY = ['blue', 'black', 'brown'];

function wire(location: string, style: string, explode: boolean, shape: string, extra: Partial<ParameterWire> = {}): ParameterWire {
  return { name: 'color', in: location, style, explode, shape, ...extra };
}

describe('listed parameters in a request', () => {
  it('fills a template, encoding literal text a path cannot carry and refusing dot segments', () => {
    const parameters = [wire('path', 'label', true, 'array')];
    expect(fillPath('/things#v2/{color}', { color: ['a', 'b'] }, 'op', parameters)).toBe('/things%23v2/.a.b');
    expect(() => fillPath('/things/{id}', { id: '..' }, 'op')).toThrow('op: path parameter "id" is the segment "..", which URLs remove');
  });

  it('writes the listed parameters in their style and the others as before', () => {
    expect(queryString({ color: ARRAY, page: 2, tag: ['a', 'b'] }, [wire('query', 'pipeDelimited', false, 'array')], 'op')).toBe('?color=blue|black|brown&page=2&tag=a&tag=b');
  });

  it('refuses what no form carries with a RequestError naming the operation, the parameter and the rule', () => {
    const refused = (write: () => unknown, message: string) => {
      expect(write).toThrow(RequestError);
      expect(write).toThrow(message);
    };
    refused(() => fillPath('/things/{color}', { color: ['a.b'] }, 'op', [wire('path', 'label', true, 'array')]), 'op: path parameter "color": an exploded label item or member cannot hold "."');
    refused(() => queryString({ color: ['a b'] }, [wire('query', 'spaceDelimited', false, 'array')], 'op'), 'op: query parameter "color": a spaceDelimited item cannot hold a space');
    refused(() => headerParameters({ color: ['a,b'] }, [wire('header', 'simple', false, 'array')], 'op'), 'op: header "color": item "a,b" holds ","');
    refused(() => cookieHeader({ color: { R: null } }, [wire('cookie', 'form', true, 'object')], 'op'), 'op: cookie "color": member "R" is null');
  });
});
