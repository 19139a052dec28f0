/**
 * The style sheet of the HTML diff, written into the page: the page loads nothing (no font, no
 * sheet, no image), so it reads the same offline, from a file or behind a strict policy.
 */
export const DIFF_HTML_STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --muted: #57606a; --line: #d0d7de; --head: #f6f8fa;
  --breaking-bg: #ffebe9; --breaking-fg: #a40e26; --ok-bg: #dafbe1; --ok-fg: #116329; --code: #eff1f3; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --head: #151b23;
    --breaking-bg: #4c1a1d; --breaking-fg: #ffb3ad; --ok-bg: #133a20; --ok-fg: #8ddb8c; --code: #262c36; }
}
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); margin: 0 auto; max-width: 80rem; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; }
h2 { font-size: 1.25rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
a { color: inherit; }
.note, .versions, .none, .operation-id { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
thead th, .counts tbody th { background: var(--head); }
.counts { width: auto; }
.counts td { text-align: right; font-variant-numeric: tabular-nums; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code); padding: 0 .25rem; border-radius: 4px; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: 12px; font-weight: 600; padding: 0 .5rem; border-radius: 1rem; white-space: nowrap; }
.badge.breaking { background: var(--breaking-bg); color: var(--breaking-fg); }
.badge.compatible { background: var(--ok-bg); color: var(--ok-fg); }
.pointers { display: grid; gap: .15rem; }
.reaches { margin: 0; padding-left: 1rem; }
`;
