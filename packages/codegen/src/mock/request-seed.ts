/**
 * The seed of one answer: the server's seed and what identifies the request (method, path
 * and query), so that the same request is answered with the same bytes, and two requests
 * that differ get different data.
 */

/** FNV-1a, 32 bits, over the UTF-16 units of `text`. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A 32-bit seed for the request `target` (path and query, as sent). Query parameters are
 * taken in sorted order: `?a=1&b=2` and `?b=2&a=1` ask for the same thing.
 *
 * @example
 * requestSeed({ seed: 1, method: 'GET', target: '/accounts?page=2' }) === requestSeed({ seed: 1, method: 'get', target: '/accounts?page=2' })
 */
export function requestSeed({ seed, method, target }: { seed: number; method: string; target: string }): number {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  query.sort();
  return fnv1a([String(seed), method.toUpperCase(), path, query.toString()].join('\u0000'));
}
