/**
 * "What changed" pages: `changes/<from>..<to>`, the codegen diff of two versions' specs as
 * its HTML page, with a way back to the index.
 */
import type { ApiDiff } from '@bank-data-sharing/codegen';
import { changesSlug, DOCS_CHANGES, specFile } from './catalog.js';
import { escapeHtml } from './html.js';
import type { DocsLinks } from './links.js';
import { specAt } from './spec-documents.js';

export type ChangesPair = (typeof DOCS_CHANGES)[number];

/** The pair a slug names, when the portal has a page for it. */
export function changesPairAt(slug: string): ChangesPair | undefined {
  return DOCS_CHANGES.find((pair) => changesSlug(pair) === slug);
}

const diffs = new Map<string, Promise<ApiDiff>>();

/** The diff of a pair, computed once per process (loading both specs takes seconds). */
export async function changesDiff(pair: ChangesPair): Promise<ApiDiff> {
  const slug = changesSlug(pair);
  let pending = diffs.get(slug);
  if (pending === undefined) {
    const from = specAt(pair.from);
    const to = specAt(pair.to);
    if (from === undefined || to === undefined) throw new Error(`no spec for ${slug}`);
    // Imported on first use, as for the reference pages: `npm start` must stay quick.
    pending = import('@bank-data-sharing/codegen').then(({ diffSpecFiles }) => diffSpecFiles(specFile(from), specFile(to)));
    pending.catch(() => diffs.delete(slug));
    diffs.set(slug, pending);
  }
  return pending;
}

export async function changesPage(pair: ChangesPair, links: DocsLinks): Promise<string> {
  const [{ formatDiffHtml }, diff] = await Promise.all([import('@bank-data-sharing/codegen'), changesDiff(pair)]);
  const page = formatDiffHtml(diff, {
    title: `What changed from ${pair.from} to ${pair.to}`,
    note: `${diff.to.title}: every change between the ${pair.from} and ${pair.to} specs, and whom it breaks.`,
  });
  // The diff page is a document of its own; the portal adds the way back to its index.
  const back = `<nav class="portal"><a href="${escapeHtml(links.index())}">← API docs</a></nav>`;
  return page.replace('<body>', `<body>\n${back}`);
}
