/**
 * The declared error contract without a server: which response answers a status (the
 * operation's, the API's, a sibling's envelope, or none), and the body built for it.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { commonResponses, declaredFor, declaredStatusKey, errorAnswer, errorPlan, fillObvious, type ErrorAnswerOptions, type OperationResponses } from '../src/index.js';

const none = z.looseObject({});
const Errors = z.object({ Errors: z.array(z.object({ Code: z.string(), Message: z.string(), Path: z.string().optional() })) });
const codeMessage = z.object({ code: z.int(), message: z.string() });
const opaque = z.object({ reference: z.uuid() });

const envelope = { headers: none, content: { 'application/json': Errors, 'application/jwt': z.string() } };
const ok = { headers: none, content: { 'application/json': z.unknown() } };
const op = (operationId: string, responses: OperationResponses['responses']): OperationResponses => ({ operationId, responses });

const items = [{ code: 'Resource.NotFound', message: 'gone', path: '$.id' }];

function options(overrides: Partial<ErrorAnswerOptions> = {}): ErrorAnswerOptions & { told: unknown[] } {
  const told: unknown[] = [];
  return { operationId: 'op', validate: true, report: (failure) => told.push(failure), reported: new Set(), told, ...overrides };
}

describe('errorPlan', () => {
  const getThing = op('getThing', { '200': ok, '4XX': envelope, '500': envelope });
  const bare = op('bare', { '200': ok });

  it('takes the exact status, then the range, then default', () => {
    expect(declaredFor(getThing, 404)).toBe(envelope);
    expect(declaredFor(op('d', { default: envelope }), 503)).toBe(envelope);
    expect(declaredFor(undefined, 404)).toBeUndefined();
  });

  it('plans the envelope, problem details, a custom schema, headers only, or nothing', () => {
    const api = commonResponses([getThing, bare]);
    expect(errorPlan(getThing, api, 404)).toMatchObject({ kind: 'declared', style: 'envelope', jsonType: 'application/json', schema: Errors });
    expect(errorPlan(op('p', { '404': { headers: none, content: { 'application/problem+json': none } } }), api, 404)).toMatchObject({ style: 'problem' });
    expect(errorPlan(op('c', { '409': { headers: none, content: { 'application/json': codeMessage } } }), api, 409)).toMatchObject({ style: 'custom' });
    expect(errorPlan(op('e', { '404': { headers: none, content: {} } }), api, 404)).toEqual({ kind: 'empty' });
    expect(errorPlan(op('x', { '200': ok }), new Map(), 404)).toEqual({ kind: 'undeclared' });
  });

  it('borrows the JSON envelope a sibling status declares, and speaks for the API on an unknown path', () => {
    const api = commonResponses([op('post', { '400': envelope }), bare]);
    const borrowed = errorPlan(bare, api, 429);
    expect(borrowed).toMatchObject({ kind: 'declared', style: 'envelope', content: { 'application/json': Errors } });
    expect(Object.keys((borrowed as { content: object }).content)).toEqual(['application/json']);
    expect(errorPlan(undefined, commonResponses([getThing, bare]), 404)).toMatchObject({ style: 'envelope', content: envelope.content });
  });
});

describe('errorAnswer', () => {
  it('builds the declared envelope', () => {
    const answer = errorAnswer(errorPlan(op('o', { '404': envelope }), new Map(), 404), 404, items, options());
    expect(answer).toEqual({ body: { Errors: [{ Code: 'Resource.NotFound', Message: 'gone', Path: '$.id' }] }, contentType: 'application/json', declared: true });
  });

  it('fills the obvious members of a schema nobody here knows', () => {
    const plan = errorPlan(op('o', { '409': { headers: none, content: { 'application/json': codeMessage } } }), new Map(), 409);
    expect(errorAnswer(plan, 409, [{ code: 'Plain.Conflict', message: 'already there' }], options()).body).toEqual({ code: 409, message: 'already there' });
    expect(fillObvious(codeMessage, { status: 409, title: 'Conflict', detail: 'already there', items: [], operationId: undefined })).toEqual({ code: 409, message: 'already there' });
  });

  it('fills obvious members wrapped in an object of their own, as FSPIOP writes its errors', () => {
    const information = z.object({ errorCode: z.string(), errorDescription: z.string(), extensionList: z.object({ extension: z.array(z.object({ key: z.string() })) }).optional() }).strict();
    const wrapped = z.object({ errorInformation: information.optional() }).strict();
    const plan = errorPlan(op('o', { '400': { headers: none, content: { 'application/json': wrapped } } }), new Map(), 400);
    const answer = errorAnswer(plan, 400, [{ code: 'Body.Invalid', message: 'amount: expected string' }], options());
    expect(answer).toEqual({ body: { errorInformation: { errorCode: 'Body.Invalid', errorDescription: 'amount: expected string' } }, contentType: 'application/json', declared: true });
    // A wrapper whose inner members cannot be filled (a four-digit code) is left out; nothing else fits, so RFC 9457 is sent.
    const strictCode = z.object({ errorInformation: z.object({ errorCode: z.string().regex(/^[1-9]\d{3}$/), errorDescription: z.string() }).strict() }).strict();
    const refused = errorPlan(op('o', { '400': { headers: none, content: { 'application/json': strictCode } } }), new Map(), 400);
    expect(errorAnswer(refused, 400, [{ code: 'Body.Invalid', message: 'x' }], options()).contentType).toBe('application/problem+json');
  });

  it('sends what formatError builds when it fits, and reports one that does not', () => {
    const plan = errorPlan(op('o', { '409': { headers: none, content: { 'application/json': codeMessage } } }), new Map(), 409);
    const seen: unknown[] = [];
    const fits = options({ formatError: (error) => (seen.push(error), { code: 4090, message: `custom ${error.items[0]!.code}` }) });
    expect(errorAnswer(plan, 409, [{ code: 'Plain.Conflict', message: 'x' }], fits).body).toEqual({ code: 4090, message: 'custom Plain.Conflict' });
    expect(seen).toEqual([{ status: 409, title: 'Conflict', detail: 'x', items: [{ code: 'Plain.Conflict', message: 'x' }], operationId: 'op' }]);
    const misfit = options({ formatError: () => ({ code: 'not an integer' }) });
    expect(errorAnswer(plan, 409, [{ code: 'Plain.Conflict', message: 'x' }], misfit).body).toEqual({ code: 409, message: 'x' });
    expect(String(misfit.told[0])).toContain('formatError built a body that does not match the schema declared for HTTP 409');
  });

  it('falls back to RFC 9457 where nothing fits, reporting each schema once', () => {
    const plan = errorPlan(op('o', { '404': { headers: none, content: { 'application/json': opaque } } }), new Map(), 404);
    const shared = options();
    for (let i = 0; i < 2; i++) {
      expect(errorAnswer(plan, 404, [{ code: 'X', message: 'gone' }], shared)).toEqual({
        body: { type: 'about:blank', title: 'Not Found', status: 404, detail: 'gone' },
        contentType: 'application/problem+json',
        declared: false,
      });
    }
    expect(shared.told).toHaveLength(1);
    expect(String(shared.told[0])).toContain('no error body fits the schema the spec declares for HTTP 404');
  });

  it('answers RFC 9457 with the field problems where nothing is declared', () => {
    expect(errorAnswer({ kind: 'undeclared' }, 404, items, options()).body).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: '$.id: gone',
      errors: [{ detail: 'gone', pointer: '/id' }],
    });
  });
});

describe('declaredStatusKey', () => {
  it('names the declared response for a status: exact, then its range, then default', () => {
    const op = { responses: { '200': {}, '404': {}, '4XX': {}, '5xx': {}, default: {} } };
    expect(declaredStatusKey(op, 200)).toBe('200');
    expect(declaredStatusKey(op, 404)).toBe('404');
    expect(declaredStatusKey(op, 418)).toBe('4XX');
    expect(declaredStatusKey(op, 503)).toBe('5xx');
    expect(declaredStatusKey(op, 302)).toBe('default');
    expect(declaredStatusKey({ responses: { '200': {} } }, 500)).toBeUndefined();
    expect(declaredStatusKey(undefined, 200)).toBeUndefined();
  });
});
