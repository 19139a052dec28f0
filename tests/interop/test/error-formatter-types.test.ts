/**
 * The generated `createRouter` types `formatError` by the error bodies the file declares:
 * for petstore-expanded, `Error {code: int32, message: string}`. A formatter whose body does
 * not fit fails to compile; one that fits compiles.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateApi, oasExample } from './support/harness.js';
import { typeErrors, withoutExpectedErrors } from './support/type-errors.js';

const FORMATTERS = `import { createRouter } from './server/index.js';

// Fits Error: compiles.
createRouter({}, { formatError: ({ status, detail }) => ({ code: status, message: detail }) });
// Leaving one to the router: compiles.
createRouter({}, { formatError: () => undefined });
// @ts-expect-error Error requires message
createRouter({}, { formatError: ({ status }) => ({ code: status }) });
// @ts-expect-error Error's code is an integer, not a string
createRouter({}, { formatError: ({ detail }) => ({ code: 'E42', message: detail }) });
`;

describe('formatError is typed by the declared error schema', () => {
  let dir: string;

  beforeAll(async () => {
    ({ dir } = await generateApi(oasExample('3.0', 'petstore-expanded'), 'petstore-formatter'));
  });

  it('compiles a fitting formatter and rejects the two that do not fit', async () => {
    const checked = path.join(dir, 'formatters.ts');
    await writeFile(checked, FORMATTERS);
    expect(typeErrors(checked)).toEqual([]);
  });

  it('reports each non-fitting formatter when nothing expects the error', async () => {
    const unchecked = path.join(dir, 'formatters-unchecked.ts');
    await writeFile(unchecked, withoutExpectedErrors(FORMATTERS));
    const errors = typeErrors(unchecked);
    expect(errors).toHaveLength(2);
    expect(errors.every((e) => e.startsWith('formatters-unchecked.ts:'))).toBe(true);
  });
});
