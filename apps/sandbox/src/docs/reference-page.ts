/** The reference page of one spec: Scalar's bundle and its configuration, nothing else. */
import { escapeHtml, scriptJson } from './html.js';
import type { DocsLinks } from './links.js';
import { SCALAR_BUNDLE_NAME } from './scalar-bundle.js';

export function referencePage(input: { title: string; config: Record<string, unknown>; links: DocsLinks }): string {
  // The configuration travels as JSON data, read by a tiny script: the document never
  // becomes JavaScript source.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
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
