/** What the stream codec tests share: every way to chunk an input, and async sources of chunks. */

/** Every way to cut `input` in two, and one character (or byte) at a time. */
export function cuts(input: string): string[][];
export function cuts(input: Uint8Array): Uint8Array[][];
export function cuts(input: string | Uint8Array): Array<Array<string | Uint8Array>> {
  const single: Array<string | Uint8Array> = typeof input === 'string' ? [...input] : [...input].map((byte) => Uint8Array.of(byte));
  const ways: Array<Array<string | Uint8Array>> = [single];
  for (let i = 0; i <= input.length; i++) ways.push([input.slice(0, i), input.slice(i)]);
  return ways;
}

export async function* source<T>(chunks: T[]): AsyncGenerator<T> {
  yield* chunks;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
