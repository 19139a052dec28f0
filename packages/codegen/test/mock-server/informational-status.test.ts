/**
 * An operation that declares only an informational status (ReadMe's status-code examples
 * declare `100`...`103` alone) has no final answer a server can send. The router refuses a
 * handler's 1xx as a contract error (500, told to `onError`) instead of writing it as the
 * final response, which HTTP clients read as a broken connection.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startMockServer } from '../../src/index.js';
import { removeScratchDirs, scratchDir } from '../support/generated-validators.js';

afterAll(removeScratchDirs);

describe('a handler answering an informational status', () => {
  it('gets a 500 and an onError naming the rule, never a 1xx as the final response', { timeout: 60_000 }, async () => {
    const spec = path.join(await scratchDir('informational'), 'status.json');
    await writeFile(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Statuses', version: '1' },
        paths: { '/status/103': { get: { operationId: 'getStatus103', responses: { '103': { description: 'Early Hints' } } } } },
      }),
    );
    const errors: string[] = [];
    const server = await startMockServer({ spec, port: 0, onError: (error) => errors.push(String((error as Error).message)) });
    try {
      const answer = await fetch(`${server.url}/status/103`);
      expect(answer.status).toBe(500);
      expect(errors.join('\n')).toContain('status 103 is informational (1xx), which cannot be the final answer to a request');
    } finally {
      await server.close();
    }
  });
});
