/**
 * Server stubs: per API, a typed `Handlers` interface (one method per operation), the
 * operations' security and permissions as data, and `createRouter(handlers, options)`,
 * which hands all of it to the runtime of `@bank-data-sharing/server-stubs`. The files stay
 * thin: request and response types are derived from the validators' schemas by the
 * runtime's generic types, so no schema is repeated here.
 */
import type { ApiIR } from '../../ir/types.js';
import { generatedHeader } from '../shared/header.js';
import type { Emitter, GeneratedFile } from '../types.js';
import { jsDoc, moduleSpecifier } from './comment.js';
import { printHandlers } from './print-handlers.js';
import { printMeta } from './print-meta.js';

/** Module specifier of the runtime the generated code calls. */
export const SERVER_RUNTIME_IMPORT = '@bank-data-sharing/server-stubs/runtime';

function printIndex(api: ApiIR, header: string, validatorsImport: string): string {
  const prefix = api.servers[0]?.pathPrefix ?? '';
  return [
    header.trimEnd(),
    `import { createApiRouter, type ApiRouter, type RouterOptions } from ${moduleSpecifier(SERVER_RUNTIME_IMPORT)};`,
    `import { api, operations } from ${moduleSpecifier(validatorsImport)};`,
    "import type { Handlers } from './handlers.gen.js';",
    "import { operationMeta, securitySchemes } from './meta.gen.js';",
    '',
    "export type { Handlers } from './handlers.gen.js';",
    "export { operationMeta, securitySchemes } from './meta.gen.js';",
    '',
    jsDoc(
      [
        `An Express-compatible router (Express 4 or 5) serving ${api.title.replace(/\s+/g, ' ').trim()} (${api.version}) with \`handlers\`, under ${
          prefix ? `\`${prefix}\` (the first server in the spec)` : 'the root'
        } unless \`options.prefix\` says otherwise.`,
        'Every request is checked before its handler runs (404, 405, 406, 415, 401, 403, 400), and every result is checked against the spec before it is sent (switch off with `validateResponses: false`).',
        "Operations without a handler answer 501 with the spec's error envelope, and are named once when the router is created (`missingHandlers: 'throw'` makes a missing one an error instead).",
        '@example\napp.use(createRouter(handlers, { authorize }));',
      ],
      '',
    ).trimEnd(),
    'export function createRouter(handlers: Partial<Handlers>, options: RouterOptions = {}): ApiRouter {',
    '  return createApiRouter({ api, operations, meta: operationMeta, securitySchemes }, handlers, options);',
    '}',
    '',
  ].join('\n');
}

export const emitServer: Emitter = (built, options) => {
  const { api } = built;
  const header = generatedHeader(api);
  const files: GeneratedFile[] = [
    { path: 'server/handlers.gen.ts', contents: printHandlers(api, header, SERVER_RUNTIME_IMPORT, options.validatorsImport) },
    { path: 'server/index.ts', contents: printIndex(api, header, options.validatorsImport) },
    { path: 'server/meta.gen.ts', contents: printMeta(api, header, SERVER_RUNTIME_IMPORT) },
  ];
  return files;
};
