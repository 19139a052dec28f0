import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isOpenFinanceFamily } from '../../ir/api-family.js';
import type { ApiIR, ExampleIR, HeaderIR, MediaTypeIR, ResponseIR, SchemaNode } from '../../ir/types.js';
import { generatedHeader } from '../shared/header.js';
import type { Emitter, GeneratedFile } from '../types.js';

/**
 * The runtime of the mocks, copied beside them: hand-written, tested TypeScript that imports
 * only its siblings (and zod's types), so that the mocks need nothing but zod and the
 * validators. In the copies, `./x.js` becomes `./x.gen.js`.
 */
const RUNTIME_MODULES = ['random', 'sample-error', 'regex-syntax', 'linear-regex', 'regex-sample', 'formats', 'hints', 'media-files', 'sample', 'json-schema-sample', 'mock'] as const;

/** Modules the mocks share with the validators: the pattern reader and the linear matcher. */
const FROM_VALIDATORS: ReadonlySet<string> = new Set(['regex-syntax', 'linear-regex']);

function runtimeFile(module: (typeof RUNTIME_MODULES)[number], header: string): GeneratedFile {
  const folder = FROM_VALIDATORS.has(module) ? 'validators' : 'mocks';
  const source = readFileSync(fileURLToPath(new URL(`../../../templates/${folder}/${module}.ts`, import.meta.url)), 'utf8');
  const siblings = new RegExp(`from '\\.(?:\\./validators)?/(${RUNTIME_MODULES.join('|')})\\.js'`, 'g');
  return { path: `mocks/${module}.gen.ts`, contents: `${header}${source.replace(siblings, "from './$1.gen.js'")}` };
}

/** Members of IR nodes the mocks never read: left out of the model to keep it small. */
const UNREAD = new Set(['description', 'deprecated', 'shape', 'selects', 'tuple']);

function withoutUnread(key: string, value: unknown): unknown {
  return UNREAD.has(key) ? undefined : value;
}

/** An example's name: its key under `examples`, or `example` for the single one. */
export function exampleName(example: ExampleIR): string {
  const tokens = example.pointer.split('/');
  const last = tokens.at(-1);
  if ((last === 'value' || last === 'dataValue' || last === 'serializedValue') && tokens.at(-3) === 'examples') return decodeToken(tokens.at(-2)!);
  if (tokens.at(-2) === 'examples') return decodeToken(last!);
  return 'example';
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

function contentModel(media: MediaTypeIR): { schema?: SchemaNode; itemSchema?: SchemaNode; examples: Record<string, unknown> } {
  const examples: Record<string, unknown> = {};
  for (const example of media.examples) examples[exampleName(example)] ??= example.value;
  // A sequence (OpenAPI 3.2 `itemSchema`) is mocked as a few items; its examples are of one item.
  if (media.itemSchema) return { itemSchema: media.itemSchema, examples };
  return { ...(media.schema ? { schema: media.schema } : {}), examples };
}

function responseModel(response: ResponseIR) {
  return {
    headers: response.headers.map((h: HeaderIR) => ({ name: h.name, required: h.required, schema: h.schema })),
    content: Object.fromEntries(response.content.map((media) => [media.contentType, contentModel(media)])),
  };
}

/** Everything the mocks sample from: the schemas as IR nodes, their examples, and each operation's responses. */
function mockModel(api: ApiIR): unknown {
  return {
    // This family's own files get its banking vocabulary; any other file, words of any domain.
    ...(isOpenFinanceFamily(api) ? { hints: 'open-finance' } : {}),
    schemas: Object.fromEntries(api.schemas.map((s) => [s.name, s.schema])),
    examples: Object.fromEntries(api.schemas.filter((s) => s.examples.length > 0).map((s) => [s.name, s.examples.map((e) => e.value)])),
    operations: Object.fromEntries(
      api.operations.map((op) => [op.name, { responses: Object.fromEntries(op.responses.map((r) => [r.status, responseModel(r)])) }]),
    ),
  };
}

/**
 * The model is data, parsed once at load: JSON text is read faster than an object literal of
 * the same size, and costs the type checker nothing.
 */
function modelFile(header: string, api: ApiIR): string {
  return [
    header.trimEnd(),
    "import type { MockModel } from './mock.gen.js';",
    '',
    '/** Every schema of the API as the generator read it, with the examples of the spec. */',
    `export const model: MockModel = JSON.parse(${JSON.stringify(JSON.stringify(mockModel(api), withoutUnread))});`,
    '',
  ].join('\n');
}

function indexFile(header: string, api: ApiIR, validatorsImport: string): string {
  const json = api.jsonSchemas !== undefined;
  return [
    header.trimEnd(),
    `import { operations, schemas${json ? ', jsonSchemas' : ''} } from '${validatorsImport}';`,
    `import { createMocks${json ? ', jsonNodeSampler' : ''} } from './mock.gen.js';`,
    "import { model } from './model.gen.js';",
    '',
    "export { MockError, SampleError, type MockBody, type MockOptions, type MockResult } from './mock.gen.js';",
    '',
    '/**',
    ' * A mock answer of every operation, keyed by its name: a declared status (the first 2xx unless',
    ' * `status` says otherwise), its media type, header text and a body that the validators accept.',
    ' *',
    ' * @example',
    ` * const { status, body } = mocks.${api.operations[0]?.name ?? 'someOperation'}({ seed: 7 });`,
    ' */',
    `export const mocks = createMocks({ operations, schemas, model${json ? ', json: jsonNodeSampler(jsonSchemas)' : ''} });`,
    '',
  ].join('\n');
}

/** `mocks/`: seeded mock responses of every operation, checked by the validators. */
export const emitMocks: Emitter = (built, options) => {
  const api = built.api;
  const header = generatedHeader(api);
  return [
    ...RUNTIME_MODULES.map((module) => runtimeFile(module, header)),
    { path: 'mocks/model.gen.ts', contents: modelFile(header, api) },
    { path: 'mocks/index.ts', contents: indexFile(header, api, options.validatorsImport) },
  ];
};
