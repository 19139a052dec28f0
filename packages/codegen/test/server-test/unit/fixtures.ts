/** Small hand-made IR pieces for the server-test unit tests. */
import type { NumberNode, ObjectNode, OperationIR, ParameterIR, ParameterLocation, PropertyIR, SchemaNode, StringNode } from '../../../src/ir/types.js';
import type { RequestParts } from '../../../src/mock/sample-request.js';

export const str = (extra: Partial<Omit<StringNode, 'kind'>> = {}): StringNode => ({ kind: 'string', pointer: '#/test', ...extra });

export const int = (extra: Partial<Omit<NumberNode, 'kind' | 'integer'>> = {}): NumberNode => ({ kind: 'number', integer: true, pointer: '#/test', ...extra });

export const obj = (properties: PropertyIR[], additional: ObjectNode['additional'] = 'forbid'): ObjectNode => ({ kind: 'object', properties, additional, pointer: '#/test' });

export const prop = (name: string, schema: SchemaNode, required = false): PropertyIR => ({ name, schema, required });

export function param(name: string, where: ParameterLocation, schema: SchemaNode, required = where === 'path'): ParameterIR {
  return { name, in: where, required, schema, style: where === 'query' || where === 'cookie' ? 'form' : 'simple', explode: where === 'query' || where === 'cookie', examples: [] };
}

export function operation(extra: Partial<OperationIR> & Pick<OperationIR, 'operationId'>): OperationIR {
  return {
    name: extra.operationId,
    method: 'get',
    path: '/items',
    deprecated: false,
    tags: [],
    parameters: [],
    responses: [],
    security: [],
    extensions: {},
    pointer: `#/paths/test/${extra.operationId}`,
    ...extra,
  };
}

export function parts(extra: Partial<RequestParts> = {}): RequestParts {
  return { operation: 'test', path: {}, query: {}, header: {}, cookie: {}, credentials: { headers: {}, query: {}, cookies: {} }, ...extra };
}

/** A deep copy that keeps only JSON data (to compare a value before and after a call). */
export const snapshot = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
