import type { ApiIR, OperationIR } from '../../ir/types.js';
import { jsDoc, moduleSpecifier } from './comment.js';
import { propertyKey } from '../shared/names.js';
import { printSchemeEntry } from '../shared/security-scheme.js';

/** Consent permissions of an operation: its `x-permissions` when that is a list of strings. */
export function permissionsOf(op: Pick<OperationIR, 'extensions'>): string[] {
  const value = op.extensions['x-permissions'];
  return Array.isArray(value) ? value.filter((p): p is string => typeof p === 'string') : [];
}

function stringList(values: readonly string[]): string {
  return `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
}

function printOperationMeta(op: Pick<OperationIR, 'security' | 'extensions'>, key: string, withPermissions: boolean): string {
  const requirements = op.security.map((requirement) => {
    const entries = Object.entries(requirement).map(([scheme, scopes]) => `${propertyKey(scheme)}: ${stringList(scopes)}`);
    return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
  });
  return [
    `  ${propertyKey(key)}: {`,
    `    security: [${requirements.join(', ')}],`,
    ...(withPermissions ? [`    permissions: ${stringList(permissionsOf(op))},`] : []),
    '  },',
  ].join('\n');
}

/** `meta.gen.ts`: security schemes and per-operation security and permissions, as plain data. */
export function printMeta(api: ApiIR, header: string, runtimeImport: string): string {
  const schemes = api.securitySchemes.map((scheme) => printSchemeEntry(scheme, (text) => JSON.stringify(text)));
  const hooks = api.webhooks ?? [];
  // Consent permissions are spoken of only in an API that has some (`x-permissions`).
  const withPermissions = [...api.operations, ...hooks].some((op) => permissionsOf(op).length > 0);
  const operations = api.operations.map((op) => printOperationMeta(op, op.name, withPermissions));
  const webhookMeta = hooks.map((hook) => printOperationMeta(hook, hook.key, withPermissions));
  return [
    header.trimEnd(),
    `import type { OperationMeta, SecuritySchemeMeta } from ${moduleSpecifier(runtimeImport)};`,
    '',
    jsDoc(['How each security scheme of the spec carries its credential.'], '').trimEnd(),
    `export const securitySchemes = ${schemes.length ? `{\n${schemes.join('\n')}\n}` : '{}'} as const satisfies Record<string, SecuritySchemeMeta>;`,
    '',
    jsDoc(
      [
        withPermissions
          ? 'Per operation: its security requirements (alternatives; scheme → scopes) and the consent permissions of its `x-permissions`, at least one of which the consent must grant.'
          : 'Per operation: its security requirements (alternatives; scheme → scopes).',
      ],
      '',
    ).trimEnd(),
    `export const operationMeta = ${operations.length ? `{\n${operations.join('\n')}\n}` : '{}'} as const satisfies Record<string, OperationMeta>;`,
    '',
    ...(webhookMeta.length > 0
      ? [
          jsDoc(["Per webhook, by its key in the validators' `webhooks`: the security the receiver may require of the sender, as declared on the webhook."], '').trimEnd(),
          `export const webhookMeta = {\n${webhookMeta.join('\n')}\n} as const satisfies Record<string, OperationMeta>;`,
          '',
        ]
      : []),
  ].join('\n');
}
