/**
 * JSON text of a body, through the writer the generated validators compile from its schema
 * (validators' print-writer.ts) when the schema has one: the check and the writing in one walk.
 * Everything else is written by `JSON.stringify`, as before.
 */

/** A compiled writer: text, or `undefined` for "invalid (when checking) or left to JSON.stringify". */
export type JsonWriter = (value: unknown, check?: boolean) => string | undefined;

/** Where the generated validators keep a schema's writer (zod's `bag`); the two must agree. */
const JSON_WRITER = 'bdsJsonWriter';

/** The major version of the V8 engine running this code, or undefined outside Node. */
function v8Major(): number | undefined {
  const version = (globalThis as { process?: { versions?: { v8?: string } } }).process?.versions?.v8;
  const major = version === undefined ? Number.NaN : Number.parseInt(version, 10);
  return Number.isNaN(major) ? undefined : major;
}

/**
 * Whether writing through the compiled writers is faster than `JSON.stringify` here, as
 * measured (BENCHMARKS.md, "JSON writers"): on V8 11 (Node 20) checking and writing in one walk
 * took the router's path to bytes to 1.26× its rate before; from V8 12 (Node 22 and 24)
 * `JSON.stringify` is about 1.5× faster than on V8 11, and the same path measured 0.83× (Node
 * 22) and 1.0× (Node 24). So the writers are used by default only on V8 before 12, and
 * nowhere outside Node (browsers have a native JSON.stringify as fast).
 */
export const jsonWritersPayOff: boolean = (v8Major() ?? Number.POSITIVE_INFINITY) < 12;

/** The compiled writer of a schema from generated validators, if it has one. */
export function jsonWriterOf(schema: unknown): JsonWriter | undefined {
  const bag = (schema as { _zod?: { bag?: Record<string, unknown> } } | null | undefined)?._zod?.bag;
  const writer = bag?.[JSON_WRITER];
  return typeof writer === 'function' ? (writer as JsonWriter) : undefined;
}

/**
 * The JSON text of `value`, written by the schema's writer when it has one, `useWriter` says so
 * (by default where the writers pay off) and it answers, else by
 * `JSON.stringify` (which may throw, on a BigInt or a cycle, and gives `undefined` for what JSON
 * cannot hold). Nothing is checked here: a writer called with `check` does both in one walk.
 */
export function writeJson(schema: unknown, value: unknown, useWriter: boolean = jsonWritersPayOff): string | undefined {
  const writer = useWriter ? jsonWriterOf(schema) : undefined;
  return (writer === undefined ? undefined : writer(value, false)) ?? JSON.stringify(value);
}
