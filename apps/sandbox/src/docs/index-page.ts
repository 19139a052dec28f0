/** The portal's index: every spec with a reference page, and the "what changed" pages. */
import { changesSlug, DOCS_CHANGES, DOCS_SPECS } from './catalog.js';
import { escapeHtml, portalPage } from './html.js';
import type { DocsLinks } from './links.js';

/** What the sandbox adds to its index: where "try it" sends requests, and with which consent. */
export interface IndexSandboxNote {
  readonly hubUrl: string;
  readonly consentId: string;
}

function tryItNote(spec: (typeof DOCS_SPECS)[number], sandbox: IndexSandboxNote | undefined): string {
  if (spec.servedBy !== 'hub') return '';
  return sandbox === undefined
    ? ' <span class="muted">(start the sandbox to send requests from the page: <code>npm start</code>, then its /docs)</span>'
    : ' <span class="muted">Try it: requests go to this sandbox with its token filled in.</span>';
}

export function indexPage(input: { links: DocsLinks; sandbox?: IndexSandboxNote }): string {
  const specs = DOCS_SPECS.map(
    (spec) =>
      `<li><a href="${escapeHtml(input.links.page(spec.slug))}">${escapeHtml(spec.label)}</a><br><span>${escapeHtml(spec.blurb)}</span>${tryItNote(spec, input.sandbox)}</li>`,
  ).join('\n');
  const changes = DOCS_CHANGES.map(
    (pair) => `<li><a href="${escapeHtml(input.links.page(changesSlug(pair)))}">What changed from ${escapeHtml(pair.from)} to ${escapeHtml(pair.to)}</a><br><span class="muted">Every operation and schema change, and whom it breaks.</span></li>`,
  ).join('\n');
  const sandbox =
    input.sandbox === undefined
      ? ''
      : `<p class="muted">Served by the sandbox hub at <code>${escapeHtml(input.sandbox.hubUrl)}</code>; the reference pages send requests with the token of consent <code>${escapeHtml(input.sandbox.consentId)}</code>.</p>`;
  return portalPage({
    title: 'Bank Data Sharing API docs',
    body: `<h1>Bank Data Sharing API docs</h1>
${sandbox}
<h2>Reference</h2>
<ul class="cards">
${specs}
</ul>
<h2>What changed</h2>
<ul class="cards">
${changes}
</ul>`,
  });
}
