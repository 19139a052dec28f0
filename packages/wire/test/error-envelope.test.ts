/**
 * Error bodies in the spec's own shape, against hand-written schemas of the shapes this family
 * and others use (the server stubs test the same against the generated validators).
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { clampText, errorBody, isEnvelopeSchema, knownShapeBody } from '../src/index.js';

const ITEM = { code: 'Body.InvalidFormat', message: 'must be a string', path: '$.Data.Status' };
const Errors = z.object({ Errors: z.array(z.object({ Code: z.string(), Message: z.string().min(1).max(500), Path: z.string().min(1).max(500).optional() })).min(1) });
const Lfi = z.object({ errorCode: z.string(), errorMessage: z.string() });

describe('errorBody', () => {
  it('uses the Errors envelope, or the LFI shape, where the schema does', () => {
    expect(errorBody([ITEM], Errors)).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'must be a string', Path: '$.Data.Status' }] });
    expect(errorBody([ITEM, { code: 'Body.InvalidFormat', message: 'too long' }], Lfi)).toEqual({ errorCode: 'Body.InvalidFormat', errorMessage: '$.Data.Status: must be a string; too long' });
  });

  it('leaves out paths an enum of codes or a closed item refuses', () => {
    const noPaths = z.object({ Errors: z.array(z.strictObject({ Code: z.string(), Message: z.string() })) });
    expect(errorBody([ITEM], noPaths)).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'must be a string' }] });
  });

  it('keeps text within 1 to 500 characters and at most 20 items', () => {
    const body = errorBody(Array.from({ length: 30 }, () => ({ code: 'GenericError', message: 'x'.repeat(600) })), Errors) as { Errors: Array<{ Message: string }> };
    expect(body.Errors).toHaveLength(20);
    expect(body.Errors[0]!.Message).toHaveLength(500);
    expect(clampText('')).toBe('-');
  });
});

describe('known shapes', () => {
  it('tells this family’s envelopes from other shapes', () => {
    expect(isEnvelopeSchema(Errors)).toBe(true);
    expect(isEnvelopeSchema(Lfi)).toBe(true);
    expect(isEnvelopeSchema(z.object({ code: z.int(), message: z.string() }))).toBe(false);
  });

  it('builds a well-known shape only when the schema names every member of it', () => {
    const oauth = z.object({ error: z.string(), error_description: z.string() });
    expect(knownShapeBody([ITEM], oauth)).toEqual({ error: 'Body.InvalidFormat', error_description: 'must be a string' });
    expect(knownShapeBody([ITEM], z.object({ reference: z.uuid() }))).toBeUndefined();
  });
});
