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
  const settled = function* (step: () => T[]): Generator<T> {
    let items: T[];
    try {
      items = step();
    } catch (error) {
      yield* decodedBefore(error) ?? [];
      throw error;
    }
    yield* items;
  };
  for await (const chunk of source) {
    yield* settled(() => decoder.push(typeof chunk === 'string' ? utf8.decode() + chunk : utf8.decode(chunk, { stream: true })));
  }
  yield* settled(() => decoder.push(utf8.decode()));
  yield* settled(() => decoder.end());
}

/** The JSON text of `value`; `fail` makes the error for a value JSON cannot hold. */
export function jsonTextOf(value: unknown, fail: (message: string) => Error): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw fail(`value cannot be written as JSON: ${(error as Error).message}`);
  }
  if (text === undefined) throw fail(`a value of type ${typeof value} has no JSON text`);
  return text;
}
