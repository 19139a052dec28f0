/** The portal's answer for an address it has no page for. */
import { escapeHtml, portalPage } from './html.js';
import type { DocsLinks } from './links.js';

export function notFoundPage(input: { path: string; links: DocsLinks }): string {
  return portalPage({
    title: 'No such page - Bank Data Sharing API docs',
    indexHref: input.links.index(),
    body: `<h1>No such page</h1>
<p>There is no docs page at <code>${escapeHtml(input.path)}</code>. The <a href="${escapeHtml(input.links.index())}">index</a> lists every spec and every version pair with a changes page.</p>`,
  });
}
