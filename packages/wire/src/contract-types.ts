/**
 * The parts of a generated operation the error contract reads: structural descriptions of
 * what the generated validators emit (`operations.<name>.responses`), so any generated
 * validators module, for any spec, fits them without a cast.
 */
import type { z } from 'zod';

/** Schemas by media type, exactly as written in the spec (`application/json; charset=utf-8`). */
export type ContentSchemas = { readonly [contentType: string]: z.ZodType };

/** One declared response: its header schema and a schema per media type. */
export interface ResponseSchemas {
  readonly headers: z.ZodType;
  readonly content: ContentSchemas;
}

/** An operation's declared responses, by status, range (`4XX`) or `default`. */
export interface OperationResponses {
  readonly operationId: string;
  readonly responses: { readonly [status: string]: ResponseSchemas };
}
