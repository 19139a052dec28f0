/**
 * Which OpenAPI versions the generator reads, and what each means for its schemas: 3.1 and
 * 3.2 schemas are JSON Schema 2020-12 (one dialect), 3.0's are its own draft-4 variant.
 */

/** `openapi` values read: 3.0.x, 3.1.x and 3.2.x. */
export const SUPPORTED_OPENAPI = /^3\.[012]\./;

export const SUPPORTED_VERSIONS_TEXT = 'OpenAPI 3.0, 3.1 and 3.2';

/** The schema dialect of a document by its `openapi` value. */
export function schemaDialectOf(openapi: string): '3.0' | '3.1' {
  return /^3\.[12]\./.test(openapi) ? '3.1' : '3.0';
}

/** Whether a document of this `openapi` value may use the fields OpenAPI 3.2 added. */
export function hasOpenApi32Fields(openapi: string): boolean {
  return /^3\.2\./.test(openapi);
}
