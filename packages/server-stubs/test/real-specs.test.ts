/**
 * Stubs generated from the published OpenAPI files (beside the repository, when present)
 * mount and route: with request validation off, a request to every operation of every file
 * reaches that operation's handler through its own path template; with validation on, each
 * is reached or stopped by its own checks, never by routing (404, 405) or a crash.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, writeFiles } from '@bank-data-sharing/codegen';
import { ApiError, bodyKind, type ApiRouter, type RouterOptions } from '../src/runtime/index.js';
import { listen, send } from './helpers/http.js';
import { testKeys, type TestKeys } from './helpers/keys.js';

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = path.resolve(PACKAGE_ROOT, '../..');
const REAL_SPECS = path.resolve(REPO_ROOT, '../shared/real-specs');
const OUTPUT = path.join(PACKAGE_ROOT, '.test-output', 'real-specs');

const files = existsSync(REAL_SPECS) ? readdirSync(REAL_SPECS).filter((f) => f.endsWith('.yaml')).sort() : [];
if (files.length === 0) console.log('published specs not found at ../shared/real-specs beside the repository: skipping the real-spec router checks');

afterAll(() => rm(OUTPUT, { recursive: true, force: true }));

interface Operation {
  operationId: string;
  method: string;
  path: string;
  request: { body: undefined | { content: Record<string, unknown> } };
}

/** A concrete request path for a template: every parameter becomes `p1`, `p2`, ... */
function concretePath(template: string): string {
  let n = 0;
  return template.replace(/\{[^}]+\}/g, () => `p${++n}`);
}

/** A body of the operation's first media type that any schema-less reading accepts. */
async function someBody(op: Operation, keys: TestKeys): Promise<{ headers: Record<string, string>; body?: string }> {
  const type = Object.keys(op.request.body?.content ?? {})[0];
  if (type === undefined) return { headers: {} };
  const concrete = type.includes('*') ? 'application/json' : type;
  const now = Math.floor(Date.now() / 1000);
  const bodies = {
    json: '{}',
    jwt: await new SignJWT({ message: {} }).setProtectedHeader({ alg: 'ES256' }).setIssuer('t').setNotBefore(now).setExpirationTime(now + 60).sign(keys.tppPrivate),
    form: 'a=b',
    multipart: '--b\r\ncontent-disposition: form-data; name="a"\r\n\r\nb\r\n--b--\r\n',
    text: 'x',
    binary: 'x',
  };
  const kind = bodyKind(concrete);
  return { headers: { 'content-type': kind === 'multipart' ? `${concrete}; boundary=b` : concrete }, body: bodies[kind] };
}

async function generated(file: string): Promise<{ createRouter(handlers: object, options: RouterOptions): ApiRouter; operations: Operation[] }> {
  const dir = path.join(OUTPUT, file.replace(/\.yaml$/, ''));
  await mkdir(dir, { recursive: true });
  const result = await generate({ spec: path.join(REAL_SPECS, file), targets: ['validators', 'server'] });
  await writeFiles(dir, result.files, { check: false });
  const server = (await import(/* @vite-ignore */ path.join(dir, 'server/index.ts'))) as { createRouter(handlers: object, options: RouterOptions): ApiRouter };
  const validators = (await import(/* @vite-ignore */ path.join(dir, 'validators/index.ts'))) as { operations: Record<string, Operation> };
  return { createRouter: server.createRouter, operations: Object.values(validators.operations) };
}

// Without the published specs the file still holds a (skipped) test: an empty file fails vitest.
if (files.length === 0) it.skip('the router on each published spec (the specs are not beside the repository)', () => {});

describe.each(files)('%s', (file) => {
  it.each([false, true])('routes every operation (request validation %s)', async (validate) => {
    const { createRouter, operations } = await generated(file);
    const reached: string[] = [];
    const handlers = new Proxy(
      {},
      {
        get: (_target, name) => () => {
          reached.push(String(name));
          throw new ApiError(500, 'GenericError', 'reached');
        },
      },
    );
    const keys = await testKeys();
    const app = express();
    app.use(
      createRouter(handlers, {
        prefix: '/api',
        // Every credential is valid and grants every scope the operation asks for.
        authorize: ({ requiredScopes }) => ({ scopes: requiredScopes }),
        signing: keys.signing,
        verification: keys.verification,
        validateRequests: validate,
        onError: () => undefined,
      }),
    );
    const running = await listen(app);
    try {
      const unexpected: string[] = [];
      for (const op of operations) {
        const { headers, body } = await someBody(op, keys);
        const reply = await send(`${running.origin}/api${concretePath(op.path)}`, {
          method: op.method.toUpperCase(),
          headers: { authorization: 'Bearer t', 'x-api-key': 't', ...headers },
          ...(body !== undefined ? { body } : {}),
        });
        const routed = reached.at(-1) === op.operationId;
        reached.length = 0;
        // Without validation every operation must be reached; with it, 400 is its own checks speaking.
        if (!routed && (!validate || reply.status !== 400)) unexpected.push(`${op.method.toUpperCase()} ${op.path} (${op.operationId}): ${reply.status} ${reply.text.slice(0, 200)}`);
      }
      expect(unexpected).toEqual([]);
    } finally {
      await running.close();
    }
  });
});
