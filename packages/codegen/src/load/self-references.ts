/**
 * OpenAPI 3.2 `$self`: the document's own URI, the base its references resolve against. A
 * reference that names this document through it (`https://example.com/api.yaml#/components/...`,
 * or a relative `api.yaml#/...` that resolves to it) is rewritten as the plain fragment
 * (`#/components/...`), so that the rest of the pipeline sees an internal reference. Other
 * references are left as written: a relative one to another file still resolves against the
 * file's location when the loader bundles it.
 */
import { isRecord } from '../ir/json-pointer.js';
import { withoutFragment } from '../ir/json-schema-table.js';

/** `$self` as an absolute URI; a relative one is read against the file's own URL. */
function selfUri(self: string, fileUrl: string): string | undefined {
  try {
    return withoutFragment(new URL(self, fileUrl).href);
  } catch {
    return undefined;
  }
}

/**
 * Rewrites, in place, the references that name the document itself through `$self`.
 * Returns how many were rewritten. Inside a schema with its own `$id` only absolute references
 * are rewritten: a relative one there resolves against that `$id`, which the JSON Schema scope reads.
 */
export function internalizeSelfReferences(root: Record<string, unknown>, fileUrl: string): number {
  const self = root['$self'];
  if (typeof self !== 'string') return 0;
  const base = selfUri(self, fileUrl);
  if (base === undefined) return 0;
  let rewritten = 0;
  const visit = (node: unknown, underId: boolean): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, underId);
      return;
    }
    if (!isRecord(node)) return;
    const inside = underId || typeof node['$id'] === 'string';
    const ref = node['$ref'];
    if (typeof ref === 'string' && !ref.startsWith('#')) {
      const target = resolved(ref, base, inside);
      if (target !== undefined && withoutFragment(target) === base) {
        // The fragment as written: URL parsing would percent-encode some characters of a pointer.
        const hash = ref.indexOf('#');
        node['$ref'] = hash < 0 ? '#' : ref.slice(hash);
        rewritten++;
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (key !== '$ref' && typeof child === 'object') visit(child, inside);
    }
  };
  visit(root, false);
  return rewritten;
}

function resolved(ref: string, base: string, onlyAbsolute: boolean): string | undefined {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(ref);
  if (onlyAbsolute && !absolute) return undefined;
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}
