/**
 * JSON text of a body, through the writer the generated validators compile from its schema
 * (validators' print-writer.ts) when the schema has one: the check and the writing in one walk.
 * Everything else is written by `JSON.stringify`, as before.
 */

/** A compiled writer: text, or `undefined` for "invalid (when checking) or left to JSON.stringify". */
export type JsonWriter = (value: unknown, check?: boolean) => string | undefined;

/** Where the generated validators keep a schema's writer (zod's `bag`); the two must agree. */
const JSON_WRITER = 'bdsJsonWriter';

/** The compiled writer of a schema from generated validators, if it has one. */
export function jsonWriterOf(schema: unknown): JsonWriter | undefined {
  const bag = (schema as { _zod?: { bag?: Record<string, unknown> } } | null | undefined)?._zod?.bag;
  const writer = bag?.[JSON_WRITER];
  return typeof writer === 'function' ? (writer as JsonWriter) : undefined;
}

/**
 * The JSON text of `value`, written by the schema's writer when `useWriter` says so (the caller
 * knows its engine: see the server stubs' `jsonWriters`), the schema has one and it answers, else by
 * `JSON.stringify` (which may throw, on a BigInt or a cycle, and gives `undefined` for what JSON
 * cannot hold). Nothing is checked here: a writer called with `check` does both in one walk.
 */
export function writeJson(schema: unknown, value: unknown, useWriter: boolean): string | undefined {
  const writer = useWriter ? jsonWriterOf(schema) : undefined;
  return (writer === undefined ? undefined : writer(value, false)) ?? JSON.stringify(value);
}
