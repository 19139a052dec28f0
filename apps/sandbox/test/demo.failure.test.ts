/** The demo's failure line stays one line whatever the hub put in its error message. */
import { ApiError, NetworkError } from '@bank-data-sharing/client/runtime';
import { describe, expect, it } from 'vitest';
import { demoFailureLine } from '../src/demo/failure.js';

const apiError = (message: string) =>
  new ApiError({
    status: 400,
    operationId: 'GetAccounts',
    url: 'http://127.0.0.1:1/accounts',
    errors: [{ Code: 'Field.Invalid', Message: message }],
    interactionId: 'i-1',
    retryAfter: undefined,
    body: {},
  });

describe('demoFailureLine', () => {
  it('shows line breaks and other control characters of the message escaped, on one line', () => {
    const line = demoFailureLine(apiError('first line\nsecond\r\nthird\u2028fourth\u001b[31mred\u0000\ttab'));
    expect(line).toBe('demo: GetAccounts failed with HTTP 400: Field.Invalid first line\\nsecond\\r\\nthird\\u2028fourth\\u001b[31mred\\u0000\\ttab (x-fapi-interaction-id i-1)');
  });

  it('keeps an ordinary message as it is', () => {
    expect(demoFailureLine(apiError('Unknown account: café ✓'))).toBe('demo: GetAccounts failed with HTTP 400: Field.Invalid Unknown account: café ✓ (x-fapi-interaction-id i-1)');
  });

  it('makes one line of the client\'s other errors too', () => {
    const line = demoFailureLine(new NetworkError('GetAccounts', 'http://127.0.0.1:1/accounts', new Error('refused\nby peer')));
    expect(line).toBe('demo: GetAccounts: request to http://127.0.0.1:1/accounts failed: refused\\nby peer');
  });
});
