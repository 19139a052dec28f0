/**
 * Generates an OpenAPI file's validators, server and client into this package (so their
 * imports of zod and the runtime packages resolve as in a user's project), serves the server
 * on Express over loopback and hands back its generated client.
 */
import { createRequire } from 'node:module';
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, writeFiles, type GenerateOptions } from '@bank-data-sharing/codegen';
import express from 'express';

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outputRoot = path.join(packageRoot, '.generated');

/** Folder of @readme/oas-examples, the pinned public corpus (read, never copied). */
export const OAS_EXAMPLES = path.dirname(createRequire(import.meta.url).resolve('@readme/oas-examples/package.json'));

/** Path of one document of @readme/oas-examples, e.g. `oasExample('3.0', 'petstore-expanded')`. */
export function oasExample(version: '3.0' | '3.1', name: string): string {
  return path.join(OAS_EXAMPLES, version, 'json', `${name}.json`);
}

export interface GeneratedApi {
  /** Folder the targets were written to (`validators/`, `server/`, `client/`). */
  readonly dir: string;
  readonly server: Record<string, unknown>;
  readonly client: Record<string, unknown>;
  readonly validators: Record<string, unknown>;
}

/** Generates every target of `spec` under `.generated/<label>` and imports them. */
export async function generateApi(spec: string, label: string, options: Omit<GenerateOptions, 'spec' | 'targets'> = {}): Promise<GeneratedApi> {
  const dir = path.join(outputRoot, label);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const result = await generate({ ...options, spec, targets: ['validators', 'server', 'client'] });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) throw new Error(`${label}: ${errors.map((d) => `${d.pointer}: ${d.message}`).join('\n')}`);
  await writeFiles(dir, result.files, { check: false });
  const [server, client, validators] = await Promise.all([
    import(path.join(dir, 'server/index.ts')),
    import(path.join(dir, 'client/index.ts')),
    import(path.join(dir, 'validators/index.ts')),
  ]);
  return { dir, server, client, validators };
}

export interface Running {
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `app` on 127.0.0.1 on a free port. */
export async function listen(app: express.Express): Promise<Running> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An Express app serving `router` (a generated `createRouter(...)` result). */
export function appWith(router: express.RequestHandler): express.Express {
  const app = express();
  app.use(router);
  return app;
}

/** The generated server's `createRouter`; each test writes its own handlers and options. */
export function routerFactory(api: GeneratedApi): (handlers: object, options?: object) => express.RequestHandler {
  return api.server['createRouter'] as (handlers: object, options?: object) => express.RequestHandler;
}

/** A client of the generated API (`createClient(options)`), its methods typed as the test calls them. */
export function clientOf<Method = (...args: unknown[]) => unknown>(api: GeneratedApi, options: object): Record<string, Method> {
  return (api.client['createClient'] as (options: object) => Record<string, Method>)(options);
}

/** What a test asks of a generated schema: whether a value fits it. */
export interface Checkable {
  safeParse(value: unknown): { success: boolean };
}

/** A named schema of the generated validators (`components.schemas`). */
export function schemaOf(api: GeneratedApi, name: string): Checkable {
  const schema = (api.validators['schemas'] as Record<string, Checkable | undefined>)[name];
  if (!schema) throw new Error(`no schema ${name} in the generated validators`);
  return schema;
}
