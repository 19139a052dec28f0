import type { ApiChange, ApiDiff } from './diff-apis.js';

function tag(change: ApiChange): string {
  const { client, server } = change.breaking;
  if (client && server) return 'BREAKING client+server';
  if (client) return 'BREAKING client';
  if (server) return 'BREAKING server';
  return 'compatible';
}

function where(change: ApiChange): string {
  return change.path ? `${change.location} › ${change.path}` : change.location;
}

function header(diff: ApiDiff): string {
  return `${diff.from.title} ${diff.from.version} → ${diff.to.title} ${diff.to.version}`;
}

function summaryLine(diff: ApiDiff): string {
  return `${diff.summary.total} changes: ${diff.summary.breakingForClients} breaking for clients, ${diff.summary.breakingForServers} breaking for servers`;
}

/** Renamed components whose content is compared below them: noise in a report for people. */
function isRename(change: ApiChange): boolean {
  return change.direction === 'compatible' && change.description.startsWith('schema renamed ');
}

function renamesNote(diff: ApiDiff): string[] {
  const renames = diff.changes.filter(isRename).length;
  return renames > 0 ? [`(${renames} references to renamed schemas not listed; their contents are compared.)`] : [];
}

/** Readable text, one change a line, grouped by where it happened. */
export function formatDiffText(diff: ApiDiff): string {
  const lines = [header(diff), summaryLine(diff), ...renamesNote(diff), ''];
  let last = '';
  for (const change of diff.changes.filter((c) => !isRename(c))) {
    if (change.location !== last) {
      lines.push(change.location);
      last = change.location;
    }
    lines.push(`  [${tag(change)}] ${change.path ? `${change.path}: ` : ''}${change.description}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A changelog section: breaking changes first, then the rest. */
export function formatDiffMarkdown(diff: ApiDiff, note?: string, level = 1): string {
  const h = '#'.repeat(level);
  const breaking = diff.changes.filter((c) => c.breaking.client || c.breaking.server);
  const compatible = diff.changes.filter((c) => !c.breaking.client && !c.breaking.server && !isRename(c));
  const row = (c: ApiChange) => `| ${where(c).replace(/\|/g, '\\|')} | ${c.description.replace(/\|/g, '\\|')} | ${c.breaking.client ? 'yes' : 'no'} | ${c.breaking.server ? 'yes' : 'no'} |`;
  const table = (changes: ApiChange[]) =>
    changes.length === 0 ? ['None.'] : ['| where | change | breaks clients | breaks servers |', '| --- | --- | --- | --- |', ...changes.map(row)];
  return [
    `${h} Changes from ${diff.from.version} to ${diff.to.version}`,
    '',
    ...(note ? [note, ''] : []),
    `${header(diff)}: ${summaryLine(diff)}.`,
    ...renamesNote(diff),
    '',
    `${h}# Breaking changes`,
    '',
    ...table(breaking),
    '',
    `${h}# Compatible changes`,
    '',
    ...table(compatible),
    '',
  ].join('\n');
}
