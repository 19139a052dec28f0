import type { ApiIR, OperationIR } from '../../ir/types.js';
import { propertyKey } from '../shared/names.js';
import { jsDoc, moduleSpecifier } from './comment.js';
import { permissionsOf } from './print-meta.js';

/** `typeof operations.X`, or `(typeof operations)["x-y"]` when the id is not an identifier. */
export function operationType(operationId: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(operationId) ? `typeof operations.${operationId}` : `(typeof operations)[${JSON.stringify(operationId)}]`;
}

function securityLine(op: OperationIR): string | undefined {
  if (op.security.length === 0) return 'Security: none.';
  const alternatives = op.security.map((requirement) => {
    const entries = Object.entries(requirement);
    if (entries.length === 0) return 'anonymous';
    return entries.map(([scheme, scopes]) => (scopes.length ? `${scheme} (${scopes.join(', ')})` : scheme)).join(' and ');
  });
  return `Security: ${alternatives.join(', or ')}.`;
}

function printMember(op: OperationIR): string {
  const title = `${op.method.toUpperCase()} ${op.path}${op.summary ? ` — ${op.summary.trim().split(/\r?\n/)[0]}` : ''}`;
  const permissions = permissionsOf(op);
  const statuses = op.responses.length ? `Responses: ${op.responses.map((r) => r.status).join(', ')}.` : undefined;
  const doc = jsDoc(
    [
      title,
      [securityLine(op), permissions.length ? `Consent permissions (any of): ${permissions.join(', ')}.` : undefined, statuses]
        .filter(Boolean)
        .join(' '),
      op.deprecated ? '@deprecated The spec marks this operation as deprecated.' : undefined,
    ],
    '  ',
  );
  const type = operationType(op.operationId);
  // Whether a body is required comes from the IR, so it holds however the validators type it.
  const request = op.requestBody?.required ? `HandlerRequest<${type}, true>` : `HandlerRequest<${type}>`;
  const oneLine = `  ${propertyKey(op.operationId)}(request: ${request}): HandlerReply<${type}>;`;
  if (oneLine.length <= 100) return `${doc}${oneLine}`;
  return `${doc}  ${propertyKey(op.operationId)}(\n    request: ${request},\n  ): HandlerReply<${type}>;`;
}

/** `handlers.gen.ts`: the interface an implementation of the API fills in. */
export function printHandlers(api: ApiIR, header: string, runtimeImport: string, validatorsImport: string): string {
  const members = api.operations.map(printMember);
  return [
    header.trimEnd(),
    `import type { HandlerReply, HandlerRequest } from ${moduleSpecifier(runtimeImport)};`,
    `import type { operations } from ${moduleSpecifier(validatorsImport)};`,
    '',
    jsDoc(
      [
        `One method per operation of ${api.title.replace(/\s+/g, ' ').trim()} (${api.version}).`,
        'Each receives the validated request (typed path, query, headers, body) and returns one of the statuses the spec defines with its body; throw `ApiError` to answer with an error envelope.',
      ],
      '',
    ).trimEnd(),
    `export interface Handlers ${members.length ? `{\n${members.join('\n\n')}\n}` : '{}'}`,
    '',
  ].join('\n');
}
