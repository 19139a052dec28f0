import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { clampText, errorBody } from '../../src/runtime/index.js';
import { Errors400 } from '@bank-data-sharing/validators/v2.2';
import { LfiError } from '@bank-data-sharing/validators/v2.2/lfi';

const ITEM = { code: 'Body.InvalidFormat', message: 'must be a string', path: '$.Data.Status' };

describe('errorBody', () => {
  it('uses the Errors envelope where the spec does', () => {
    expect(errorBody([ITEM], Errors400)).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'must be a string', Path: '$.Data.Status' }] });
  });

  it('uses the LFI shape for the hub-to-LFI contract', () => {
    expect(errorBody([ITEM, { code: 'Body.InvalidFormat', message: 'too long' }], LfiError)).toEqual({
      errorCode: 'Body.InvalidFormat',
      errorMessage: '$.Data.Status: must be a string; too long',
    });
  });

  it('prefers a shape whose members an open schema declares (OAuth errors)', () => {
    const oauth = z.looseObject({ error: z.string().optional(), error_description: z.string().optional() });
    expect(errorBody([ITEM], oauth)).toEqual({ error: 'Body.InvalidFormat', error_description: 'must be a string' });
  });

  it('falls back to the Errors envelope without a schema, or when nothing fits', () => {
    expect(errorBody([ITEM], undefined)).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'must be a string', Path: '$.Data.Status' }] });
    expect(errorBody([ITEM], z.number())).toEqual({ Errors: [{ Code: 'Body.InvalidFormat', Message: 'must be a string', Path: '$.Data.Status' }] });
  });

  it('keeps Message and Path within 1 to 500 characters and lists at most 20 items', () => {
    const body = errorBody(
      Array.from({ length: 30 }, () => ({ code: 'GenericError', message: 'x'.repeat(600), path: 'p'.repeat(600) })),
      Errors400,
    ) as { Errors: Array<{ Message: string; Path: string }> };
    expect(body.Errors.length).toBe(20);
    expect(body.Errors[0]!.Message.length).toBe(500);
    expect(body.Errors[0]!.Path.length).toBe(500);
    expect(Errors400.safeParse(body).success).toBe(true);
    expect(clampText('')).toBe('-');
  });
});
