/** RFC 6901 JSON pointers, as used in `$ref` fragments (`#/components/schemas/A`). */

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapePointerToken(token: string): string {
  return decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** Looks up `#/a/b` in `document`; undefined when any step is missing. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (!pointer.startsWith('#')) return undefined;
  const path = pointer.slice(1);
  if (path === '') return document;
  if (!path.startsWith('/')) return undefined;
  let node: unknown = document;
  for (const raw of path.slice(1).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    const token = unescapePointerToken(raw);
    if (!Object.prototype.hasOwnProperty.call(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
