/** Small HTML helpers shared by the portal's own pages (the index, the 404 page, the changes page frame). */

// The changes page (codegen's) and the portal's own pages escape alike.
import { escapeHtml } from '@bank-data-sharing/codegen';

export { escapeHtml };

/**
 * JSON safe inside a `<script>` element: `<` cannot close the element, and the two line
 * separators JavaScript once refused in string literals are escaped too.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** Styles of the portal's own pages: system fonts only, so nothing is fetched. */
export const PORTAL_CSS = `
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; color: #1b1f24; background: #fafbfc; }
  main { max-width: 52rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
  h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
  h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
  ul.cards { list-style: none; padding: 0; display: grid; gap: .75rem; }
  ul.cards li { background: #fff; border: 1px solid #d8dee4; border-radius: 6px; padding: .75rem 1rem; }
  ul.cards a { font-weight: 600; }
  .muted { color: #57606a; }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; background: #eef1f4; padding: .1em .3em; border-radius: 3px; word-break: break-all; }
  nav.crumbs { font-size: .9rem; margin-bottom: 1rem; }
`;

/** A whole page of the portal's own look. */
export function portalPage(input: { title: string; body: string; indexHref?: string }): string {
  const crumbs = input.indexHref === undefined ? '' : `<nav class="crumbs"><a href="${escapeHtml(input.indexHref)}">API docs</a></nav>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<style>${PORTAL_CSS}</style>
</head>
<body>
<main>
${crumbs}
${input.body}
</main>
</body>
</html>
`;
}
