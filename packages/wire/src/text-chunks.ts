/**
 * What the line-based stream readers share: bytes (UTF-8, decoded across chunk boundaries) or
 * text fed to an incremental decoder, the items it completes yielded as they come, and on a
 * failure the items completed before it yielded first, so none is lost.
 */

/** An incremental decoder: text in chunk by chunk, whole items out. */
export interface ChunkDecoder<T> {
  push(text: string): T[];
  end(): T[];
}

/**
 * The items of `source` through `decoder`. `decodedBefore` gives the items a decoder's error
 * carries (completed in the same chunk before the failure), or undefined for other errors.
 */
export async function* decodeChunks<T>(source: AsyncIterable<Uint8Array | string>, decoder: ChunkDecoder<T>, decodedBefore: (error: unknown) => readonly T[] | undefined): AsyncGenerator<T> {
  // The decoders see a BOM themselves: each decides whether to drop or refuse it.
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  for await (const chunk of source) {
    yield* settledItems(() => decoder.push(typeof chunk === 'string' ? utf8.decode() + chunk : utf8.decode(chunk, { stream: true })), decodedBefore);
  }
  yield* settledItems(() => decoder.push(utf8.decode()), decodedBefore);
  yield* settledItems(() => decoder.end(), decodedBefore);
}

/**
 * The items one decoding step completes; when it fails, the items its error carries
 * (`decodedBefore`) are yielded before the error is thrown, so none is lost.
 */
export function* settledItems<T>(step: () => readonly T[], decodedBefore: (error: unknown) => readonly T[] | undefined): Generator<T> {
  let items: readonly T[];
  try {
    items = step();
  } catch (error) {
    yield* decodedBefore(error) ?? [];
    throw error;
  }
  yield* items;
}

/**
 * The JSON text of `value`, written by `write` (a schema's compiled writer, say; JSON.stringify
 * by default); `fail` makes the error for a value JSON cannot hold.
 */
export function jsonTextOf(value: unknown, fail: (message: string) => Error, write: (value: unknown) => string | undefined = JSON.stringify): string {
  let text: string | undefined;
  try {
    text = write(value);
  } catch (error) {
    throw fail(`value cannot be written as JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw fail(`a value of type ${typeof value} has no JSON text`);
  return text;
}
