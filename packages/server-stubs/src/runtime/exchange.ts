import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import { declaredFor } from '@bank-data-sharing/wire';
import type { RouterOptions } from './options.js';
import type { OperationSchemas, ResponseSchemas } from './types.js';

/** One request/response pair as the router works on it. */
export interface Exchange {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** `x-fapi-interaction-id` of the exchange (echoed or created); sent only when `echoInteractionId`. */
  readonly interactionId: string;
  /** The spec declares the interaction id for this exchange's operation (or an option turns it on). */
  echoInteractionId: boolean;
  /** `HEAD`: everything as for GET, without the body. */
  readonly head: boolean;
  readonly accept: string | undefined;
  /** The operation, once routing found one. */
  op: OperationSchemas | undefined;
  /** `WWW-Authenticate` of a 401 to this exchange: the challenges of the schemes its operation accepts. */
  challenge?: string;
  readonly options: RouterOptions<unknown>;
  /** For each status, range and `default`: the definition most operations share, for statuses an operation does not define. */
  readonly apiResponses: ReadonlyMap<string, ResponseSchemas>;
  /** Error schemas no body could be built for, already reported to `onError` (once each per router). */
  readonly reported: Set<z.ZodType>;
}

/**
 * The response definition of `status` for the exchange's operation: exact, then `4XX`,
 * then `default`; then the same status elsewhere in the API.
 */
export function responseFor(ex: Exchange, status: number): ResponseSchemas | undefined {
  return declaredFor(ex.op, status) ?? ex.apiResponses.get(String(status));
}
