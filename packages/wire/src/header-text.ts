/**
 * What a header value carries exactly: visible ASCII and Latin-1 (RFC 9110 §5.5), with spaces
 * and tabs inside only. HTTP (fetch too) drops whitespace at the ends, and a line break would
 * start another header, so any other value arrives changed or not at all: the client refuses it.
 */
const HEADER_TEXT = /^(?:[\x21-\x7e\x80-\xff](?:[\x20\x09\x21-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;

/** True when `value` arrives in a header as it is sent. */
export function isHeaderText(value: string): boolean {
  return HEADER_TEXT.test(value);
}
