/**
 * One problem of an error answer, as the publisher's error contract builds its body from it:
 * the envelope's `{ Code, Message, Path }`, problem details' `errors`, or another shape.
 */

/** One problem, as the error envelope reports it. */
export interface ErrorItem {
  /** A prescribed code (section 7) or a namespaced `Area.Code`. */
  readonly code: string;
  /** Free text, 1 to 500 characters (longer text is truncated when sent). */
  readonly message: string;
  /** JSON path (body) or parameter name (path, query, header) of the faulty field. */
  readonly path?: string;
  /** Link to remediation information. */
  readonly url?: string;
}
