/**
 * The typed client emitter: per API one `client/index.ts` with `createClient(options)`,
 * whose methods (one per operationId) take and return types derived from the validators'
 * `operations` by the runtime's helper types. The file stays thin: all behaviour lives in
 * `@bank-data-sharing/client/runtime`, and the spec's facts live in the validators.
 */
import type { ApiIR, OperationIR, SecurityRequirementIR } from '../../ir/types.js';
import { generatedHeader } from '../shared/header.js';
import { NameResolver, propertyKey } from '../shared/names.js';
import { printSchemeEntry } from '../shared/security-scheme.js';
import type { Emitter, GeneratedFile } from '../types.js';
import { typeBaseName } from './method-name.js';
import { apiTitle, apiVersion } from '../shared/titles.js';

/** Module specifier generated clients import their runtime from. */
export const CLIENT_RUNTIME_IMPORT = '@bank-data-sharing/client/runtime';

/** Module-level names the file declares or imports: operation type names never take them. */
const MODULE_NAMES = ['rt', 'api', 'operations', 'securitySchemes', 'createClient', 'Client', 'ClientOptions', 'CallOptions'];

/** A single-quoted TypeScript string literal. */
function quote(text: string): string {
  return `'${JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
}

/** A JSDoc block; `*\/` in spec text cannot close it early. */
function doc(lines: string[], indent: string): string {
  const body = lines.map((l) => l.trimEnd().replace(/\*\//g, '*\\/'));
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */\n`;
}

function firstLine(text: string | undefined): string | undefined {
  const line = text?.trim().split(/\r?\n/)[0]?.trim();
  return line ? line : undefined;
}

/** `GET /accounts — List accounts`: what each method and type says about itself. */
function operationTitle(op: OperationIR): string {
  const summary = firstLine(op.summary);
  return `${op.method.toUpperCase()} ${op.path}${summary ? ` — ${summary}` : ''}`;
}

function printSecurity(security: SecurityRequirementIR[]): string {
  const alternatives = security.map((requirement) => {
    const entries = Object.keys(requirement).map((scheme) => `${propertyKey(scheme)}: [${(requirement[scheme] ?? []).map(quote).join(', ')}]`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  });
  return `[${alternatives.join(', ')}]`;
}

function printSchemes(api: ApiIR): string[] {
  const schemes = api.securitySchemes.map((scheme) => printSchemeEntry(scheme, quote, { oauth: true }));
  return [
    doc(["How each security scheme of the spec carries its credential; `credentials` in the options is typed by these names."], '').trimEnd(),
    `export const securitySchemes = ${schemes.length > 0 ? `{\n${schemes.join('\n')}\n}` : '{}'} as const satisfies Record<string, rt.SecuritySchemeInfo>;`,
  ];
}

/** A doc line naming the deprecated schemes among an operation's alternatives (a method is not deprecated for them). */
function deprecatedSchemesNote(api: ApiIR, op: OperationIR): string | undefined {
  const deprecated = new Set(api.securitySchemes.filter((s) => s.deprecated).map((s) => s.name));
  const used = [...new Set(op.security.flatMap((requirement) => Object.keys(requirement)))].filter((name) => deprecated.has(name));
  if (used.length === 0) return undefined;
  const names = used.map((name) => `\`${name}\``).join(', ');
  const other = op.security.some((requirement) => !Object.keys(requirement).some((name) => deprecated.has(name)));
  return `Security scheme${used.length > 1 ? 's' : ''} ${names} ${used.length > 1 ? 'are' : 'is'} deprecated in the spec${other ? ': prefer another of its alternatives' : ''}.`;
}

/** `operations.GetAccounts`, or `operations["ö"]` when the name is not an ASCII identifier. */
function operationRef(name: string): string {
  const key = propertyKey(name);
  return key.startsWith('"') ? `operations[${key}]` : `operations.${key}`;
}

interface NamedOperation {
  op: OperationIR;
  method: string;
  params: string;
  result: string;
}

/**
 * Decides every name once. A method is its operation's name (`OperationIR.name`, decided in the
 * IR and shared with the server's handler and the validators' entry); only the exported type
 * names need a resolver, as they share the module scope.
 */
export function clientNames(api: ApiIR): NamedOperation[] {
  const types = new NameResolver(MODULE_NAMES);
  return api.operations.map((op) => {
    const base = typeBaseName(op.name);
    return {
      op,
      method: op.name,
      params: types.assign(`${base}Params`, `params:${op.name}`),
      result: types.assign(`${base}Result`, `result:${op.name}`),
    };
  });
}

/** An example call for the doc comment: the first operation without required parameters. */
function exampleCall(named: NamedOperation[]): string | undefined {
  const simple = named.find(({ op }) => !op.parameters.some((p) => p.required) && !op.requestBody?.required);
  if (simple) return `const result = await client.${simple.method}();`;
  const first = named[0];
  return first ? `const result = await client.${first.method}(params);` : undefined;
}

function createClientDoc(api: ApiIR, named: NamedOperation[]): string {
  const server = api.servers[0];
  const absolute = server !== undefined && /^https?:\/\//i.test(server.url);
  const title = `${apiTitle(api)} (${apiVersion(api)})`;
  const lines = [`Typed client of ${title}: one method per operation.`, ''];
  if (absolute) lines.push(`\`baseUrl\` defaults to the spec's first server, ${server.url}.`);
  else lines.push(`\`baseUrl\` defaults to \`origin\` + ${JSON.stringify(server?.pathPrefix ?? '')} (the spec's server path).`);
  lines.push('', '@example', absolute ? 'const client = createClient({ tokens });' : "const client = createClient({ origin: 'https://api.example.com', tokens });");
  const call = exampleCall(named);
  if (call) lines.push(call);
  return doc(lines, '');
}

function printClient(api: ApiIR, validatorsImport: string): string {
  const named = clientNames(api);
  const out: string[] = [generatedHeader(api).trimEnd()];
  out.push(`import * as rt from ${quote(CLIENT_RUNTIME_IMPORT)};`);
  out.push(`import { ${named.length > 0 ? 'api, operations' : 'api'} } from ${quote(validatorsImport)};`);
  out.push('');
  out.push(...printSchemes(api));
  out.push('');
  out.push('export type ClientOptions = rt.ClientOptions<typeof securitySchemes>;');
  out.push('export type CallOptions = rt.CallOptions;');
  for (const { op, params, result } of named) {
    out.push('');
    out.push(doc([`Parameters and 2xx results of ${operationTitle(op)}.`], '').trimEnd());
    out.push(`export type ${params} = rt.ParamsOf<typeof ${operationRef(op.name)}>;`);
    out.push(`export type ${result} = rt.ResultOf<typeof ${operationRef(op.name)}>;`);
  }
  out.push('');
  out.push(createClientDoc(api, named).trimEnd());
  out.push('export function createClient(options: ClientOptions = {}) {');
  out.push('  const core = rt.createClientCore(api, options, securitySchemes);');
  if (named.length === 0) {
    out.push('  void core;');
    out.push('  return {};');
  } else {
    out.push('  return {');
    for (const { op, method } of named) {
      const lines = [operationTitle(op)];
      const schemesNote = deprecatedSchemesNote(api, op);
      if (schemesNote) lines.push('', schemesNote);
      if (op.deprecated) lines.push('@deprecated The spec marks this operation as deprecated.');
      out.push(doc(lines, '    ').trimEnd());
      out.push(`    ${propertyKey(method)}: core.operation(${operationRef(op.name)}, {`);
      out.push(`      security: ${printSecurity(op.security)},`);
      out.push('    }),');
    }
    out.push('  };');
  }
  out.push('}');
  out.push('');
  out.push('/** The client `createClient` returns. */');
  out.push('export type Client = ReturnType<typeof createClient>;');
  out.push('');
  return out.join('\n');
}

/** Emits `client/index.ts` for an API. */
export const emitClient: Emitter = (built, options): GeneratedFile[] => [
  { path: 'client/index.ts', contents: printClient(built.api, options.validatorsImport) },
];
