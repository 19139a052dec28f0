/** Reached or not, why, and the declared statuses seen, from the statuses of an operation's answers. */
import { describe, expect, it } from 'vitest';
import type { ResponseIR } from '../../../src/ir/types.js';
import { coverageOf, reachOf, refusalIsFailure, shortWhy } from '../../../src/server-test/reach.js';
import { operation } from './fixtures.js';

const response = (status: string): ResponseIR => ({ status, description: status, headers: [], content: [] });
const getItem = operation({ operationId: 'getItem', responses: ['200', '401', '404', '4XX', 'default'].map(response) });
const redirect = operation({ operationId: 'go', responses: ['302', '404'].map(response) });
const context = { idParameters: ['itemId'], givenParameters: [], unknownIds: [], mockSigned: false, credentialsGiven: true };

describe('reachOf', () => {
  it('is reached by a 2xx where one is declared, by any answer below 400 where none is', () => {
    expect(reachOf(getItem, { '404': 3, '200': 1 }, 4, context)).toEqual({ reached: true });
    expect(reachOf(getItem, { '302': 4 }, 4, context).reached).toBe(false);
    expect(reachOf(redirect, { '302': 1 }, 1, context)).toEqual({ reached: true });
  });

  it('says why, by the statuses every valid request got', () => {
    expect(reachOf(getItem, { '404': 4 }, 4, context).why).toBe('every answer 404: no id the server knows for itemId; pass --set itemId=<id> or seed the server with data');
    expect(reachOf(getItem, { '404': 4 }, 4, { ...context, idParameters: [] }).why).toBe("every answer 404: the path is not served there; check that --base-url includes the path of the file's server");
    expect(reachOf(getItem, { '401': 2, '403': 2 }, 4, { ...context, credentialsGiven: false }).why).toBe('every answer 401/403: credentials: pass them with --auth or --header');
    expect(reachOf(getItem, { '400': 4 }, 4, context).why).toBe('every answer 400 to requests the file accepts: reported as valid-request-refused');
    // A 400 the server may rightly answer: to an id no answer handed out, to a body signed with the mock's secret.
    expect(reachOf(getItem, { '400': 4 }, 4, { ...context, unknownIds: ['itemId'] }).why).toBe('every answer 400: no id the server knows for itemId (a server may refuse an unknown id with 400); pass --set itemId=<id> or seed the server with data');
    expect(reachOf(getItem, { '400': 4 }, 4, { ...context, mockSigned: true }).why).toBe("every answer 400: the signed bodies went signed with the mock's published secret; pass --sign-key with a key the server trusts");
    expect(reachOf(getItem, { '403': 1, '404': 3 }, 4, context).why).toMatch(/^every answer 403\/404: no id the server knows for itemId, or the credentials given do not grant it/);
    expect(reachOf(getItem, { '503': 4 }, 4, context).why).toBe('every answer 503: the server failed (see the server-error failure)');
    expect(reachOf(getItem, { '409': 1, '404': 1 }, 2, context).why).toBe('every answer 404/409: no success answer');
    expect(reachOf(getItem, {}, 0, context).why).toBe('no valid request was sent (see its notes)');
    expect(reachOf(getItem, {}, 2, context).why).toBe('no valid request got an answer (see the transport-error failure)');
  });

  it('calls a refusal of every valid request a failure only when nothing the server may refuse went', () => {
    expect(refusalIsFailure(context)).toBe(true);
    expect(refusalIsFailure({ ...context, unknownIds: ['itemId'] })).toBe(false);
    expect(refusalIsFailure({ ...context, mockSigned: true })).toBe(false);
  });

  it('shortens why to its statuses for a summary line', () => {
    expect(shortWhy('every answer 404: no id the server knows for itemId; pass --set')).toBe('every answer 404');
  });
});

describe('coverageOf', () => {
  it('puts each status under the declared entry it falls under: exact, range, then default', () => {
    expect(coverageOf(getItem, { '200': 2, '400': 1, '404': 1 })).toEqual({ seen: ['200', '404', '4XX'], never: ['401', 'default'] });
    expect(coverageOf(getItem, { '503': 1 })).toEqual({ seen: ['default'], never: ['200', '401', '404', '4XX'] });
    expect(coverageOf(redirect, {})).toEqual({ seen: [], never: ['302', '404'] });
  });
});
