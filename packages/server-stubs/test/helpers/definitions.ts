/** Hand-built API definitions (the shapes the generator emits) for the runtime's tests. */
import { z } from 'zod';
import type { ApiDefinition } from '../../src/runtime/index.js';

type Operation = ApiDefinition['operations'][string];

/** The parameters of a place where an operation declares none. */
export const noParams = z.looseObject({});

/** A GET without a body: its path and query parameters as given, no headers or cookies. */
export function getOperation(operationId: string, path: string, responses: Operation['responses'], params: { path?: z.ZodType; query?: z.ZodType } = {}): Operation {
  return {
    operationId,
    method: 'get',
    path,
    request: { path: params.path ?? noParams, query: params.query ?? noParams, headers: noParams, cookies: noParams, body: undefined },
    responses,
  };
}

/** An API of one operation below `prefix`, without security. */
export function oneOperationApi(title: string, prefix: string, operation: Operation): ApiDefinition {
  return {
    api: { title, version: '1', pathPrefix: prefix, servers: [prefix] },
    operations: { [operation.operationId]: operation },
    meta: { [operation.operationId]: { security: [], permissions: [] } },
    securitySchemes: {},
  };
}
