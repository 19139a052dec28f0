/**
 * Reused memory for the bytes of answers. Text handed to Node is copied twice on its way out:
 * joined with the status line and headers into a new string as long as the body (Node does
 * that for text, not for bytes), then encoded into a fresh allocation of three bytes per
 * character. Encoded here, once, into a buffer that comes back when Node reports the answer
 * written (`finish`), the body skips both (BENCHMARKS.md, "Router at the floor").
 */
import { ServerResponse } from 'node:http';

/** Answers up to this many bytes are encoded into a reused buffer; larger ones go as text. */
export const REUSED_BUFFER_BYTES = 64 * 1024;
/**
 * Answers shorter than this many characters go as text: their copies cost little, and while
 * more answers are in flight than buffers are idle, each would hold 64 KiB instead of its size.
 */
export const REUSED_MIN_CHARS = 8 * 1024;
/** At most this many idle buffers are kept (1 MiB); any more in use at once are left to the GC. */
const MAX_IDLE = 16;

const idle: Buffer[] = [];

function giveBack(buffer: Buffer): void {
  if (idle.length < MAX_IDLE) idle.push(buffer);
}

/**
 * A body's bytes in a reused buffer, and `release`, to be called once Node has written them
 * (never earlier: the buffer is someone else's answer next). Undefined when the body is short
 * or does not fit, or `res` is not a node:http response (another response type may hold on to
 * the bytes past its `finish`).
 */
export function encodeIntoReused(res: unknown, text: string): { readonly bytes: Buffer; readonly release: () => void } | undefined {
  // Every UTF-16 code unit takes at least one byte: a longer text cannot fit.
  if (text.length < REUSED_MIN_CHARS || text.length > REUSED_BUFFER_BYTES || !(res instanceof ServerResponse)) return undefined;
  const buffer = idle.pop() ?? Buffer.allocUnsafeSlow(REUSED_BUFFER_BYTES);
  // `write` stops before a character that does not fit whole, and no character takes more
  // than 4 bytes: with 4 bytes or more left over, all of the text is in. Counting the bytes
  // first would read the whole text once more.
  const length = buffer.write(text, 0, 'utf8');
  if (length > REUSED_BUFFER_BYTES - 4) {
    giveBack(buffer);
    return undefined;
  }
  let released = false;
  return {
    bytes: buffer.subarray(0, length),
    release: () => {
      if (released) return;
      released = true;
      giveBack(buffer);
    },
  };
}
