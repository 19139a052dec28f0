/**
 * How pages link to each other and to assets. The sandbox serves absolute paths under
 * `/docs`; the static build writes relative links (every page is `<slug>/index.html`), so
 * the folder works opened from disk or from any static host, at any path.
 */
export interface DocsLinks {
  /** The index page. */
  index(): string;
  /** The page of a slug (`v2.2`, `lfi/v2.2`, `changes/v2.1..v2.2`). */
  page(slug: string): string;
  /** A file under the docs root's `assets/`. */
  asset(name: string): string;
}

/** Links of pages served by the sandbox under `root` (default `/docs`). */
export function servedLinks(root = '/docs'): DocsLinks {
  return {
    index: () => `${root}/`,
    page: (slug) => `${root}/${slug}`,
    asset: (name) => `${root}/assets/${name}`,
  };
}

/** Links of a page written at `<slug>/index.html` of a static folder ('' for the index itself). */
export function staticLinks(fromSlug: string): DocsLinks {
  const depth = fromSlug === '' ? 0 : fromSlug.split('/').length;
  const up = depth === 0 ? './' : '../'.repeat(depth);
  return {
    index: () => `${up}index.html`,
    page: (slug) => `${up}${slug}/index.html`,
    asset: (name) => `${up}assets/${name}`,
  };
}
