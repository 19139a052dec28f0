/**
 * Form bodies as the client sends them: `@bank-data-sharing/wire` writes the fields by the
 * body's form layout (form-encode.ts there); a value the media type cannot carry is reported
 * as the client reports every request it cannot send, a `RequestError` naming the operation.
 */
import { encodeMultipart as multipartOf, encodeUrlEncoded as urlEncodedOf, formParts as partsOf, FormValueError, type FormLayout, type FormPart } from '@bank-data-sharing/wire';
import { RequestError } from './errors.js';

/** Which operation a body is for, and the media type it is sent as. */
export interface FormContext {
  readonly operationId: string;
  readonly mediaType: string;
}

/** Runs `encode`, turning the wire's refusal into a `RequestError` that names the operation. */
function asRequest<T>(context: FormContext, encode: () => T): T {
  try {
    return encode();
  } catch (error) {
    if (error instanceof FormValueError) throw new RequestError(`${context.operationId}: ${error.message}`);
    throw error;
  }
}

/**
 * The parts of a form body, in the order of the body object's members.
 *
 * @example
 * formParts({ scope: 42, tags: ['a', 'b'] }, undefined, { operationId: 'op', mediaType: 'application/x-www-form-urlencoded' })
 * // → [['scope', '42'], ['tags', 'a'], ['tags', 'b']]
 */
export function formParts(body: unknown, layout: FormLayout | undefined, context: FormContext): FormPart[] {
  return asRequest(context, () => partsOf(body, layout, context.mediaType));
}

/** `application/x-www-form-urlencoded` text of a body object. */
export function encodeUrlEncoded(body: unknown, layout: FormLayout | undefined, context: FormContext): string {
  return asRequest(context, () => urlEncodedOf(body, layout, context.mediaType));
}

/** `multipart/form-data` of a body object (fetch writes the boundary into `Content-Type`). */
export function encodeMultipart(body: unknown, layout: FormLayout | undefined, context: FormContext): FormData {
  return asRequest(context, () => multipartOf(body, layout, context.mediaType));
}
