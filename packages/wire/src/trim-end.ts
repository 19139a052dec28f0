/**
 * `text` without the run of `char` it ends with, by a scan from the end. The regular
 * expression one would write (`/\/+$/`, `/0+$/`) is tried at every character of the run and is
 * quadratic in a text holding a long run that does not end it: a base URL or issuer of many
 * slashes, a date-time fraction of many zeros, a self link, each of any length on the wire.
 */
export function withoutTrailing(text: string, char: string): string {
  const code = char.charCodeAt(0);
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === code) end--;
  return text.slice(0, end);
}
