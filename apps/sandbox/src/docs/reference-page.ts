/**
 * The reference page of one spec: a link back to the portal's index, Scalar's bundle and its
 * configuration, and on pages that send requests the paging-links panel.
 */
import { followLinksHead, type FollowLinksSettings } from './follow-links.js';
import { escapeHtml, scriptJson } from './html.js';
import type { DocsLinks } from './links.js';
import { SCALAR_BUNDLE_NAME } from './scalar-bundle.js';

// A thin bar above Scalar's layout (its sidebar sticks below it once scrolled).
const BACK_STYLE = `
  nav.portal { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; padding: 6px 12px; border-bottom: 1px solid #d8dee4; background: #fafbfc; }
`;

export function referencePage(input: { title: string; config: Record<string, unknown>; links: DocsLinks; followLinks?: FollowLinksSettings }): string {
  // The configuration travels as JSON data, read by a tiny script: the document never
  // becomes JavaScript source.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<link rel="icon" href="data:,">
<style>${BACK_STYLE}</style>
${input.followLinks === undefined ? '' : followLinksHead(input.followLinks)}
</head>
<body>
<nav class="portal"><a href="${escapeHtml(input.links.index())}">← API docs</a></nav>
<div id="app"></div>
<script id="docs-config" type="application/json">${scriptJson(input.config)}</script>
<script src="${escapeHtml(input.links.asset(SCALAR_BUNDLE_NAME))}"></script>
<script>
  Scalar.createApiReference('#app', JSON.parse(document.getElementById('docs-config').textContent));
</script>
</body>
</html>
`;
}
