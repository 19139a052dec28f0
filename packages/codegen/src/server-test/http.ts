/**
 * Sends one request and reads the whole answer, bounded: a request that takes longer than
 * the timeout, or an answer larger than the cap, ends with a transport failure instead of
 * waiting or filling memory.
 */
import type { ReceivedAnswer, SentRequest } from './types.js';

/** Bodies beyond this are cut (the checks then see the part read). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const EXCERPT = 1000;

export interface Exchange {
  readonly request: SentRequest;
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", " as fetch joins them. */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  readonly truncated: boolean;
}

export interface TransportFailure {
  readonly request: SentRequest;
  readonly error: string;
}

export function isTransportFailure(value: Exchange | TransportFailure): value is TransportFailure {
  return 'error' in value;
}

export async function send(request: SentRequest, options: { timeout: number; fetch: typeof fetch }): Promise<Exchange | TransportFailure> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeout);
  try {
    const response = await options.fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: request.body } : {}),
      redirect: 'manual',
      signal: controller.signal,
    });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    const { text, truncated } = await readBounded(response);
    return { request, status: response.status, headers, text, truncated };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = controller.signal.aborted ? `no answer within ${options.timeout} ms` : (cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
    return { request, error: why };
  } finally {
    clearTimeout(timer);
  }
}

async function readBounded(response: Response): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: '', truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      return { text: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES).toString('utf8'), truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}

export function answerOf(exchange: Exchange): ReceivedAnswer {
  return { status: exchange.status, headers: exchange.headers, bodyExcerpt: exchange.text.length > EXCERPT ? `${exchange.text.slice(0, EXCERPT)}…` : exchange.text };
}
