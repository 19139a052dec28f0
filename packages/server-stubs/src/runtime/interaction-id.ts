import { randomUUID } from 'node:crypto';

/** An RFC 4122 UUID in its textual form (any version), as `x-fapi-interaction-id` must be. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The interaction id of an exchange: the caller's `x-fapi-interaction-id` when it is a
 * UUID, otherwise a new random (version 4) UUID. A malformed value is not echoed, because
 * every response's header must itself be a valid UUID; the request is still rejected with
 * 400 naming the header.
 *
 * @example
 * interactionId('0f8fad5b-d9cb-469f-a165-70867728950e') // → the same value
 * interactionId(undefined) // → a fresh UUID such as '3b241101-e2bb-4255-8caf-4136c566a962'
 */
export function interactionId(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && UUID.test(value.trim()) ? value.trim() : randomUUID();
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
