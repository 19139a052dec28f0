/**
 * OpenAPI links: runtime expressions (`$response.body#/id`, `$request.path.id`, ...) read
 * from a request and its answer, giving the parameters of a request to the link's target.
 */
import { isRecord } from '../ir/json-pointer.js';
import type { OperationIR, ParameterIR } from '../ir/types.js';
import type { PartValue, RequestParts } from '../mock/sample-request.js';

export interface LinkContext {
  readonly url: string;
  readonly method: string;
  readonly request: RequestParts;
  readonly requestBody: unknown;
  readonly status: number;
  /** Lower-case names. */
  readonly responseHeaders: Readonly<Record<string, string>>;
  readonly responseBody: unknown;
}

function partValue(part: PartValue | undefined): unknown {
  return part === undefined ? undefined : 'raw' in part ? part.raw : part.value;
}

/** RFC 6901 as the runtime-expression grammar writes it: no URI decoding (`#` and `%` are plain characters). */
function pointerInto(value: unknown, pointer: string | undefined): unknown {
  if (pointer === undefined || pointer === '') return value;
  if (!pointer.startsWith('/')) return undefined;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token)) current = current[Number(token)];
    else if (isRecord(current) && Object.prototype.hasOwnProperty.call(current, token)) current = current[token];
    else return undefined;
  }
  return current;
}

function evaluateOne(expression: string, ctx: LinkContext): unknown {
  if (expression === '$url') return ctx.url;
  if (expression === '$method') return ctx.method;
  if (expression === '$statusCode') return ctx.status;
  const hash = expression.indexOf('#');
  const source = hash === -1 ? expression : expression.slice(0, hash);
  const fragment = hash === -1 ? undefined : expression.slice(hash + 1);
  const match = /^\$(request|response)\.(path|query|header|body)(?:\.(.+))?$/.exec(source);
  if (!match) return undefined;
  const [, side, where, name] = match;
  if (where === 'body') return pointerInto(side === 'request' ? ctx.requestBody : ctx.responseBody, fragment);
  if (name === undefined) return undefined;
  if (side === 'response') return where === 'header' ? ctx.responseHeaders[name.toLowerCase()] : undefined;
  if (where === 'header') {
    const key = Object.keys(ctx.request.header).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : partValue(ctx.request.header[key]);
  }
  return partValue(ctx.request[where as 'path' | 'query'][name]);
}

/** A link parameter's value: a runtime expression, an expression embedded in text (`{$...}`), or a constant. */
export function evaluate(value: unknown, ctx: LinkContext): unknown {
  if (typeof value !== 'string') return value;
  if (value.startsWith('$')) return evaluateOne(value, ctx);
  if (!value.includes('{$')) return value;
  return value.replace(/\{(\$[^}]+)\}/g, (_m, inner: string) => String(evaluateOne(inner, ctx) ?? ''));
}

/** The target parameter a link parameter name (`itemId` or `path.itemId`) stands for. */
export function linkTarget(target: OperationIR, name: string): ParameterIR | undefined {
  const qualified = /^(path|query|header|cookie)\.(.+)$/.exec(name);
  if (qualified) return target.parameters.find((p) => p.in === qualified[1] && p.name === qualified[2]);
  return target.parameters.find((p) => p.name === name);
}

/** The operation a link points to: by operationId, or an `operationRef` into this file. */
export function linkedOperation(operations: readonly OperationIR[], link: { operationId?: string; operationRef?: string }): OperationIR | undefined {
  if (link.operationId !== undefined) return operations.find((o) => o.operationId === link.operationId);
  const ref = link.operationRef;
  const match = ref === undefined ? null : /^#\/paths\/([^/]+)\/([a-z]+)$/.exec(ref);
  if (!match) return undefined;
  const path = decodeURIComponent(match[1]!).replace(/~1/g, '/').replace(/~0/g, '~');
  return operations.find((o) => o.path === path && o.method === match[2]);
}
