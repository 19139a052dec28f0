/** A `curl` command line for a sampled request, to paste into a POSIX shell. */
import type { SampledRequest } from './sample-request.js';

/** Single-quoted for a POSIX shell: safe whatever the text holds. */
function shellQuote(text: string): string {
  return /^[A-Za-z0-9_\-./:=@,+%]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * `curl -i '<base><target>'` with the request's method, headers and body.
 *
 * @example
 * curlLine('http://127.0.0.1:4010/v1', { method: 'GET', target: '/pets', headers: {} }) // "curl -i http://127.0.0.1:4010/v1/pets"
 */
export function curlLine(baseUrl: string, request: Pick<SampledRequest, 'method' | 'target' | 'headers' | 'body'>): string {
  const parts = ['curl', '-i'];
  if (request.method !== 'GET') parts.push('-X', request.method);
  for (const [name, value] of Object.entries(request.headers)) parts.push('-H', shellQuote(`${name}: ${value}`));
  if (request.body !== undefined) parts.push('--data-raw', shellQuote(request.body));
  parts.push(shellQuote(`${baseUrl}${request.target}`));
  return parts.join(' ');
}
