import type { ApiChange, ApiDiff, Breaking } from './diff-apis.js';
import { DIFF_HTML_STYLE } from './diff-html-style.js';
import { escapeHtml as esc } from './escape-html.js';
import { reachesByOperation } from './format-diff.js';
import { groupDiff, type Fate, type GroupedDiff, type OperationGroup, type SchemaGroup } from './group-diff.js';

export interface DiffHtmlOptions {
  /** The page's heading and title (default: `<API title>: changes from <version> to <version>`). */
  title?: string;
  /** A paragraph under the heading, as plain text (where the files came from, say). */
  note?: string;
}

/** Whom a change breaks, as the `data-breaking` attribute says it; undefined when no one. */
function breakingFor(breaking: Breaking): 'clients' | 'servers' | 'both' | undefined {
  if (breaking.client && breaking.server) return 'both';
  if (breaking.client) return 'clients';
  if (breaking.server) return 'servers';
  return undefined;
}

const BADGE_TEXT = { clients: 'breaking for clients', servers: 'breaking for servers', both: 'breaking for clients and servers' } as const;

function breakingAttribute(breaking: Breaking): string {
  const who = breakingFor(breaking);
  return who ? ` data-breaking="${who}"` : '';
}

function badge(breaking: Breaking): string {
  const who = breakingFor(breaking);
  return who ? `<span class="badge breaking">${BADGE_TEXT[who]}</span>` : '<span class="badge compatible">compatible</span>';
}

const code = (text: string) => `<code>${esc(text)}</code>`;

function pointers(change: ApiChange): string {
  const { from, to } = change.pointers;
  const sides = [from !== undefined ? `<span>from ${code(from)}</span>` : '', to !== undefined ? `<span>to ${code(to)}</span>` : ''];
  return `<span class="pointers">${sides.join('')}</span>`;
}

function reaches(change: ApiChange): string {
  if (!change.reaches) return '';
  if (change.reaches.length === 0) return '<span class="none">no operation</span>';
  return `<ul class="reaches">${reachesByOperation(change.reaches).map((line) => `<li>${esc(line)}</li>`).join('')}</ul>`;
}

const operationLabel = (group: OperationGroup) => `${group.operation.method} ${group.operation.path}`;

/** Where in its operation a change is: its location without the operation's own name. */
function placeInOperation(change: ApiChange, group: OperationGroup): string {
  const own = `${group.operation.noun} ${group.operation.operationId}`;
  const rest = change.location.startsWith(own) ? change.location.slice(own.length).trim() : change.location;
  return rest === '' ? group.operation.noun : rest;
}

function operationAttributes(group: OperationGroup): string {
  return ` data-operation="${esc(operationLabel(group))}" data-operation-id="${esc(group.operation.operationId)}" data-change="${group.fate}"${breakingAttribute(group.breaking)}`;
}

/** Added or removed operations: one row each, with why it breaks whom and where it is (or was). */
function addedOrRemovedTable(heading: string, groups: readonly OperationGroup[]): string {
  if (groups.length === 0) return '<p class="none">None.</p>';
  const rows = groups.map((group) => {
    const change = group.changes[0]!;
    return `<tr class="operation"${operationAttributes(group)}><td>${code(operationLabel(group))}</td><td>${esc(group.operation.operationId)}</td><td>${badge(change.breaking)}</td><td>${esc(change.why ?? '')}</td><td>${pointers(change)}</td></tr>`;
  });
  return ['<table>', `<thead><tr><th>${heading}</th><th>operationId</th><th>Breaking</th><th>Why</th><th>JSON pointers</th></tr></thead>`, '<tbody>', ...rows, '</tbody>', '</table>'].join('\n');
}

function changeRow(cells: string[], change: ApiChange): string {
  return `<tr class="change" data-kind="${esc(change.kind)}"${breakingAttribute(change.breaking)}>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
}

const memberCell = (change: ApiChange) => (change.path ? code(change.path) : '');

function changedOperation(group: OperationGroup): string {
  const rows = group.changes.map((c) => changeRow([esc(placeInOperation(c, group)), memberCell(c), esc(c.description), badge(c.breaking), esc(c.why ?? ''), pointers(c)], c));
  return [
    `<article class="operation"${operationAttributes(group)}>`,
    `<h3>${code(operationLabel(group))} <span class="operation-id">${esc(group.operation.operationId)}</span> ${badge(group.breaking)}</h3>`,
    '<table>',
    '<thead><tr><th>Where</th><th>Member</th><th>Change</th><th>Breaking</th><th>Why</th><th>JSON pointers</th></tr></thead>',
    '<tbody>',
    ...rows,
    '</tbody>',
    '</table>',
    '</article>',
  ].join('\n');
}

/** The three sections of operations (or webhooks): added, removed, changed. */
function operationSections(noun: 'operation' | 'webhook', groups: readonly OperationGroup[]): string[] {
  const plural = noun === 'operation' ? 'Operations' : 'Webhooks';
  const heading = noun === 'operation' ? 'Operation' : 'Webhook';
  const of = (fate: Fate) => groups.filter((g) => g.fate === fate);
  const changed = of('changed');
  return [
    `<section id="${noun}s-added">`,
    `<h2>${plural} added</h2>`,
    addedOrRemovedTable(heading, of('added')),
    '</section>',
    `<section id="${noun}s-removed">`,
    `<h2>${plural} removed</h2>`,
    addedOrRemovedTable(heading, of('removed')),
    '</section>',
    `<section id="${noun}s-changed">`,
    `<h2>${plural} changed</h2>`,
    // A component schema's change is listed once, under its schema, with the operations it reaches.
    '<p class="note">Changes to component schemas are under Schema changes, each with the operations that read it.</p>',
    ...(changed.length === 0 ? ['<p class="none">None.</p>'] : changed.map(changedOperation)),
    '</section>',
  ];
}

function schemaAttributes(group: SchemaGroup): string {
  return ` data-schema="${esc(group.schema)}" data-change="${group.fate}"${breakingAttribute(group.breaking)}`;
}

/** Component schemas added or removed in one table, then each changed one with its members. */
function schemaSection(groups: readonly SchemaGroup[]): string[] {
  const whole = groups.filter((g) => g.fate !== 'changed');
  const changed = groups.filter((g) => g.fate === 'changed');
  const wholeTable =
    whole.length === 0
      ? []
      : [
          '<table>',
          '<thead><tr><th>Schema</th><th>Change</th><th>JSON pointers</th></tr></thead>',
          '<tbody>',
          ...whole.map((g) => `<tr class="schema"${schemaAttributes(g)}><td>${code(g.schema)}</td><td>${g.fate}</td><td>${pointers(g.changes[0]!)}</td></tr>`),
          '</tbody>',
          '</table>',
        ];
  const articles = changed.map((group) =>
    [
      `<article class="schema"${schemaAttributes(group)}>`,
      `<h3>${code(group.schema)} ${badge(group.breaking)}</h3>`,
      '<table>',
      '<thead><tr><th>Member</th><th>Change</th><th>Breaking</th><th>Why</th><th>Reaches</th><th>JSON pointers</th></tr></thead>',
      '<tbody>',
      ...group.changes.map((c) => changeRow([memberCell(c), esc(c.description), badge(c.breaking), esc(c.why ?? ''), reaches(c), pointers(c)], c)),
      '</tbody>',
      '</table>',
      '</article>',
    ].join('\n'),
  );
  return ['<section id="schemas">', '<h2>Schema changes</h2>', ...(groups.length === 0 ? ['<p class="none">None.</p>'] : [...wholeTable, ...articles]), '</section>'];
}

function otherSection(changes: readonly ApiChange[]): string[] {
  if (changes.length === 0) return [];
  return [
    '<section id="other-changes">',
    '<h2>Other changes</h2>',
    '<table>',
    '<thead><tr><th>Where</th><th>Change</th><th>Breaking</th><th>Why</th><th>JSON pointers</th></tr></thead>',
    '<tbody>',
    ...changes.map((c) => changeRow([esc(c.location), esc(c.description), badge(c.breaking), esc(c.why ?? ''), pointers(c)], c)),
    '</tbody>',
    '</table>',
    '</section>',
  ];
}

function renamesSection(diff: ApiDiff): string[] {
  if (diff.renames.length === 0) return [];
  const items = diff.renames.map((r) => `<li>${esc(r.location)}${r.path ? ` ${code(r.path)}` : ''}: ${esc(r.description)}</li>`);
  return [
    '<section id="renames">',
    '<h2>Renamed schemas</h2>',
    `<p>${diff.renames.length} reference(s) to renamed schemas, not counted as changes: the contents are compared under the new name.</p>`,
    '<ul>',
    ...items,
    '</ul>',
    '</section>',
  ];
}

function countRow(label: string, id: string, groups: ReadonlyArray<{ fate: Fate; breaking: Breaking }>): string {
  const count = (fate: Fate) => groups.filter((g) => g.fate === fate).length;
  const breaking = groups.filter((g) => breakingFor(g.breaking) !== undefined).length;
  const cells = (['added', 'removed', 'changed'] as const).map((fate) => `<td data-count="${id}-${fate}">${count(fate)}</td>`);
  return `<tr><th scope="row">${label}</th>${cells.join('')}<td data-count="${id}-breaking">${breaking}</td></tr>`;
}

function summarySection(diff: ApiDiff, grouped: GroupedDiff): string[] {
  const { total, breaking, breakingForClients, breakingForServers } = diff.summary;
  const side = (s: ApiDiff['from']) => `${esc(s.title)} ${esc(s.version)}${s.pathPrefix ? ` (${code(s.pathPrefix)})` : ''}`;
  return [
    '<section id="summary">',
    '<h2>Summary</h2>',
    `<p class="versions">${side(diff.from)} → ${side(diff.to)}</p>`,
    '<table class="counts">',
    '<thead><tr><th></th><th scope="col">added</th><th scope="col">removed</th><th scope="col">changed</th><th scope="col">with a breaking change</th></tr></thead>',
    '<tbody>',
    countRow('Operations', 'operations', grouped.operations),
    ...(grouped.webhooks.length > 0 ? [countRow('Webhooks', 'webhooks', grouped.webhooks)] : []),
    countRow('Component schemas', 'schemas', grouped.schemas),
    '</tbody>',
    '</table>',
    `<p class="totals"><span data-count="changes">${total}</span> change(s), <span data-count="breaking">${breaking}</span> breaking ` +
      `(<span data-count="breaking-clients">${breakingForClients}</span> for clients, <span data-count="breaking-servers">${breakingForServers}</span> for servers); a change breaking both counts once.</p>`,
    '</section>',
  ];
}

/** Links to the sections the page has (webhooks, other changes and renames only when there are some). */
function nav(grouped: GroupedDiff, diff: ApiDiff): string[] {
  const links: Array<[id: string, text: string, shown: boolean]> = [
    ['summary', 'Summary', true],
    ['operations-added', 'Operations added', true],
    ['operations-removed', 'Operations removed', true],
    ['operations-changed', 'Operations changed', true],
    ['webhooks-added', 'Webhooks added', grouped.webhooks.length > 0],
    ['webhooks-removed', 'Webhooks removed', grouped.webhooks.length > 0],
    ['webhooks-changed', 'Webhooks changed', grouped.webhooks.length > 0],
    ['schemas', 'Schema changes', true],
    ['other-changes', 'Other changes', grouped.other.length > 0],
    ['renames', 'Renamed schemas', diff.renames.length > 0],
  ];
  const items = links.filter(([, , shown]) => shown).map(([id, text]) => `<li><a href="#${id}">${text}</a></li>`);
  return ['<nav>', '<ul>', ...items, '</ul>', '</nav>'];
}

/**
 * The diff as one self-contained HTML page for people: counts, then operations added, removed
 * and changed, then schema changes, each breaking change badged with whom it breaks and given
 * with its JSON pointers. Everything from the specs is escaped; the page loads nothing and runs
 * nothing (its Content-Security-Policy allows only its own style sheet). The same diff gives
 * the same bytes.
 *
 * For tools: rows and blocks of operations carry `data-operation="GET /path"` (a webhook's:
 * `POST webhook <name>`), `data-operation-id`,
 * `data-change="added|removed|changed"` and, when something in them breaks,
 * `data-breaking="clients|servers|both"`; schemas carry `data-schema`; each change row
 * `data-kind`; the counts `data-count`.
 *
 * @example
 * const page = formatDiffHtml(await diffSpecFiles('old.yaml', 'new.yaml'), { note: 'old.yaml → new.yaml' });
 */
export function formatDiffHtml(diff: ApiDiff, options: DiffHtmlOptions = {}): string {
  const grouped = groupDiff(diff);
  const title = options.title ?? `${diff.to.title}: changes from ${diff.from.version} to ${diff.to.version}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${DIFF_HTML_STYLE}</style>`,
    '</head>',
    '<body>',
    '<header>',
    `<h1>${esc(title)}</h1>`,
    ...(options.note ? [`<p class="note">${esc(options.note)}</p>`] : []),
    '</header>',
    ...nav(grouped, diff),
    '<main>',
    ...summarySection(diff, grouped),
    ...operationSections('operation', grouped.operations),
    ...(grouped.webhooks.length > 0 ? operationSections('webhook', grouped.webhooks) : []),
    ...schemaSection(grouped.schemas),
    ...otherSection(grouped.other),
    ...renamesSection(diff),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
