/**
 * A generated client types each parameter by its schema, as a caller writes it: petstore-expanded's
 * `limit` (int32) is a number and `tags` an array of strings, although both travel as text and
 * their validators decode text. A value of the wrong type fails to compile.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApi, oasExample } from './support/harness.js';
import { typeErrors, withoutExpectedErrors } from './support/type-errors.js';

const CALLS = `import { createClient, type FindPetsParams, type FindPetByIdParams } from './client/index.js';

const client = createClient({ baseUrl: 'http://127.0.0.1:1/api' });
export const fits: FindPetsParams = { query: { tags: ['dog'], limit: 5 } };
export const byId: FindPetByIdParams = { path: { id: 3 } };
export const call = () => client.findPets({ query: { limit: 1 } });
// @ts-expect-error limit is an integer, not text
export const textLimit: FindPetsParams = { query: { limit: '5' } };
// @ts-expect-error tags is an array of strings
export const oneTag: FindPetsParams = { query: { tags: 'dog' } };
// @ts-expect-error id is required
export const noId: FindPetByIdParams = { path: {} };
// @ts-expect-error id is a number
export const textId = () => client.findPetById({ path: { id: 'three' } });
`;

describe('client parameters are typed by their schemas', () => {
  let dir: string;

  beforeAll(async () => {
    ({ dir } = await generateApi(oasExample('3.0', 'petstore-expanded'), 'petstore-parameter-types'));
  });

  it('compiles values that fit and rejects the four that do not', async () => {
    const checked = path.join(dir, 'calls.ts');
    await writeFile(checked, CALLS);
    expect(typeErrors(checked)).toEqual([]);
  });

  it('reports each value that does not fit when nothing expects the error', async () => {
    const unchecked = path.join(dir, 'calls-unchecked.ts');
    await writeFile(unchecked, withoutExpectedErrors(CALLS));
    const errors = typeErrors(unchecked);
    expect(errors).toHaveLength(4);
    expect(errors.every((e) => e.startsWith('calls-unchecked.ts:'))).toBe(true);
  });
});
