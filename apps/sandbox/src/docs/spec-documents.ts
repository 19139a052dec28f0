/**
 * The bundled spec documents the portal renders: one self-contained OpenAPI document per
 * spec, bundled by the codegen loader from the repository's spec files, once per process.
 */
import { DOCS_SPECS, specFile, type DocsSpec } from './catalog.js';

export type OpenApiDocument = Record<string, unknown>;

const cache = new Map<string, Promise<OpenApiDocument>>();

async function bundle(spec: DocsSpec): Promise<OpenApiDocument> {
  // Imported on first use: the codegen entry is heavy and `npm start` must stay quick.
  const { loadSpec } = await import('@bank-data-sharing/codegen');
  const loaded = await loadSpec(specFile(spec));
  return loaded.document;
}

/** The bundled document of a spec (a fresh copy each call: callers adapt it freely). */
export async function specDocument(spec: DocsSpec): Promise<OpenApiDocument> {
  let pending = cache.get(spec.slug);
  if (pending === undefined) {
    pending = bundle(spec);
    // A failed bundle is not kept: the next request tries again.
    pending.catch(() => cache.delete(spec.slug));
    cache.set(spec.slug, pending);
  }
  return structuredClone(await pending);
}

/** The spec shown at a slug, if any. */
export function specAt(slug: string): DocsSpec | undefined {
  return DOCS_SPECS.find((spec) => spec.slug === slug);
}
