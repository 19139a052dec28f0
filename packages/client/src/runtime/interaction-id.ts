import { InteractionIdMismatchError } from './errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/**
 * A new `x-fapi-interaction-id`: an RFC 4122 version 4 UUID.
 *
 * @example
 * headers['x-fapi-interaction-id'] = newInteractionId(); // e.g. "3f0c1e9a-7b2d-4c61-9f3e-0a8b5d2c4e71"
 */
export function newInteractionId(): string {
  // The Web Crypto global (Node 20+, browsers): no Node-only import in the runtime.
  return globalThis.crypto.randomUUID();
}

/** True for an RFC 4122 UUID (versions 1 to 8, RFC 4122 variant). */
export function isInteractionId(value: string): boolean {
  return UUID.test(value);
}

/**
 * Checks that a response echoes the interaction id its request carried. A missing header is
 * left to response validation (the contract says whether it is required); a different one is
 * a correlation failure and is refused.
 */
export function checkInteractionId(operationId: string, sent: string, received: string | null, status: number): void {
  if (received === null || received === '' || received === sent) return;
  if (received.toLowerCase() !== sent.toLowerCase()) throw new InteractionIdMismatchError(operationId, sent, received, status);
}
