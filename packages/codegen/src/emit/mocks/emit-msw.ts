import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ApiIR } from '../../ir/types.js';
import { generatedHeader } from '../shared/header.js';
import type { Emitter, GeneratedFile } from '../types.js';

/**
 * The runtime of the MSW handlers, copied beside the mocks: hand-written, tested TypeScript
 * that imports `msw`, `@bank-data-sharing/wire`, zod's types and the mocks' runtime
 * (`./mock.js` becomes `./mock.gen.js` in the copy).
 */
function runtimeFile(header: string): GeneratedFile {
  const source = readFileSync(fileURLToPath(new URL('../../../templates/mocks/msw-runtime.ts', import.meta.url)), 'utf8');
  const contents = source.replace(/from '\.\/mock\.js'/g, "from './mock.gen.js'").replace(/from '\.\/msw-path\.js'/g, "from './msw-path.gen.js'");
  return { path: 'mocks/msw-runtime.gen.ts', contents: `${header}${contents}` };
}

/** How the handlers read path parameters (templates/mocks/msw-path.ts), copied beside their runtime. */
function pathFile(header: string): GeneratedFile {
  const source = readFileSync(fileURLToPath(new URL('../../../templates/mocks/msw-path.ts', import.meta.url)), 'utf8');
  return { path: 'mocks/msw-path.gen.ts', contents: `${header}${source}` };
}

/** Per operation, its security requirements, as the handlers check them (only those that ask for something). */
function securityOf(api: ApiIR): Record<string, Array<Record<string, string[]>>> {
  return Object.fromEntries(api.operations.filter((op) => op.security.length > 0).map((op) => [op.name, op.security.map((r) => ({ ...r }))]));
}

function schemesOf(api: ApiIR): Record<string, { type: string; scheme?: string; in?: string; name?: string }> {
  return Object.fromEntries(
    api.securitySchemes.map((s) => [
      s.name,
      { type: s.type, ...(s.scheme !== undefined ? { scheme: s.scheme } : {}), ...(s.in !== undefined ? { in: s.in } : {}), ...(s.parameterName !== undefined ? { name: s.parameterName } : {}) },
    ]),
  );
}

function mswFile(header: string, api: ApiIR, validatorsImport: string): string {
  const first = api.operations[0]?.name ?? 'someOperation';
  const prefix = api.servers[0]?.pathPrefix ?? '';
  return [
    header.trimEnd(),
    `import { operations } from '${validatorsImport}';`,
    "import { mocks } from './index.js';",
    "import { createMswHandlers, type CreateHandlersOptions, type MswHandlers } from './msw-runtime.gen.js';",
    '',
    "export type { CreateHandlersOptions, MswHandlerFactory, MswHandlers, MswMockOptions } from './msw-runtime.gen.js';",
    '',
    '/** The path prefix of the first server of the spec: the handlers match it on any origin. */',
    `export const pathPrefix = ${JSON.stringify(prefix)};`,
    '',
    '/** Per operation: its security requirements (alternatives; scheme → scopes). */',
    `const security = ${JSON.stringify(securityOf(api), null, 2)} as const;`,
    '',
    '/** How each security scheme carries its credential. */',
    `const securitySchemes = ${JSON.stringify(schemesOf(api), null, 2)} as const;`,
    '',
    '/** The realm of the `Basic` (and API key) challenges of a 401: the spec\'s title. */',
    `const realm = ${JSON.stringify(api.title)};`,
    '',
    '/**',
    ' * MSW handlers of every operation for an API served at `baseUrl` (prefix included); by',
    ' * default, at the spec\'s path prefix on any origin.',
    ' *',
    ' * @example',
    " * const { handlers } = createHandlers({ baseUrl: 'https://bank.example' + pathPrefix });",
    ' */',
    'export function createHandlers(options: CreateHandlersOptions = {}): MswHandlers<typeof operations> {',
    '  return createMswHandlers({ operations, mocks, pathPrefix, security, securitySchemes, realm }, options);',
    '}',
    '',
    'const atPrefix = createHandlers();',
    '',
    '/**',
    ' * One handler per operation: each validates the request as the server does (a bad one gets',
    ' * the declared error body and status, a missing credential the declared 401) and answers',
    ' * with the operation\'s mock.',
    ' *',
    ' * @example',
    " * const server = setupServer(...handlers); // from 'msw/node'",
    ' */',
    'export const handlers = atPrefix.handlers;',
    '',
    '/**',
    ' * Per operation: a handler answering with its mock made with the given options.',
    ' *',
    ' * @example',
    ` * server.use(mswHandlers.${first}({ status: 500 }));`,
    ' */',
    'export const mswHandlers = atPrefix.mswHandlers;',
    '',
  ].join('\n');
}

/** `mocks/msw.ts` and its runtime: MSW handlers of every operation, answering with the mocks. */
export const emitMsw: Emitter = (built, options) => {
  const api = built.api;
  const header = generatedHeader(api);
  return [runtimeFile(header), pathFile(header), { path: 'mocks/msw.ts', contents: mswFile(header, api, options.validatorsImport) }];
};
