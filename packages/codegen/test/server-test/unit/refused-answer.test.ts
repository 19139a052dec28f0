/** A 500 of a router that refused its own handler's answer: the cause it tells, or where to look. */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../../src/server-test/http.js';
import { serverError } from '../../../src/server-test/refused-answer.js';

const REFUSED = '{"Errors":[{"Code":"GenericError","Message":"The server failed to produce a valid response"}]}';
const exchange = (headers: Record<string, string>, text = REFUSED): Exchange => ({ request: { method: 'GET', url: 'http://x.test/a', headers: {} }, status: 500, headers, text, truncated: false });

describe('serverError', () => {
  it('names the member and rule of the X-Contract-Violation header', () => {
    const told = JSON.stringify({ message: 'status 200: application/json body does not match the response schema', issues: ['Data.Account.0.Nickname: Invalid input: expected string, received undefined', 'Meta: Required'] });
    expect(serverError(exchange({ 'x-contract-violation': told }), 'HTTP 500')).toEqual({
      check: 'server-error',
      message: "HTTP 500: the router refused its handler's answer: status 200: application/json body does not match the response schema; Data.Account.0.Nickname: Invalid input: expected string, received undefined; Meta: Required",
      pointer: '/Data/Account/0/Nickname',
      rule: 'Invalid input: expected string, received undefined',
    });
  });

  it('takes a status refused with no issues as the rule, and the root as an empty pointer', () => {
    expect(serverError(exchange({ 'x-contract-violation': '{"message":"status 418 is not defined for GetAccounts","issues":[]}' }), 'HTTP 500').rule).toBe('status 418 is not defined for GetAccounts');
    expect(serverError(exchange({ 'x-contract-violation': '{"message":"m","issues":["(root): Expected object"]}' }), 'HTTP 500').pointer).toBe('');
  });

  it('escapes / and ~ of member names in the pointer (RFC 6901)', () => {
    const told = JSON.stringify({ message: 'm', issues: ['links.text/html.a~b: Invalid input'] });
    expect(serverError(exchange({ 'x-contract-violation': told }), 'HTTP 500').pointer).toBe('/links/text~1html/a~0b');
  });

  it("says where to look when the router keeps the cause to itself, and nothing more for another server's 500", () => {
    expect(serverError(exchange({}), 'HTTP 500').message).toContain("the member or status and the rule are in the server's log (onError)");
    expect(serverError(exchange({ 'x-contract-violation': 'not json' }), 'HTTP 500').message).toContain("server's log");
    expect(serverError(exchange({}, 'Internal Server Error'), 'HTTP 500')).toEqual({ check: 'server-error', message: 'HTTP 500' });
  });
});
