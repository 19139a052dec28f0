/** RFC 6901 JSON pointers, as used in `$ref` fragments (`#/components/schemas/A`). */

/** A JSON object (not null, not an array): what a schema or a map of schemas is. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `%xx` escapes as a URI fragment carries them; a token that is not valid percent-encoding is read as written. */
function percentDecoded(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

function unescapePointerToken(token: string): string {
  return percentDecoded(token).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The same pointer with its tokens percent-decoded: one spelling per place, as the IR writes them. */
export function normalizePointer(pointer: string): string {
  if (!pointer.startsWith('#/')) return pointer;
  return `#/${pointer
    .slice(2)
    .split('/')
    .map((t) => escapePointerToken(unescapePointerToken(t)))
    .join('/')}`;
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

/**
 * Where a chain of `$ref`s to JSON pointers (`#/...`) of `document` leads, reporting nothing
 * (the schema's own reading reports a bad one): undefined when a reference points nowhere or is
 * of another form; after 32 hops (a cycle), the `$ref` object reached.
 */
export function followPointerRefs(document: unknown, value: unknown): unknown {
  let current = value;
  for (let hops = 0; hops < 32 && isRecord(current) && typeof current['$ref'] === 'string'; hops++) {
    const ref = current['$ref'];
    current = ref.startsWith('#/') ? resolvePointer(document, ref) : undefined;
  }
  return current;
}
