import type { ApiChange, ApiDiff, Reach } from './diff-apis.js';

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

/** The counts, which are those of the changes listed (each change once, renames apart). */
function summaryLine(diff: ApiDiff): string {
  const { total, breaking, breakingForClients, breakingForServers } = diff.summary;
  return `${total} change(s), ${breaking} breaking (${breakingForClients} for clients, ${breakingForServers} for servers)`;
}

function renamesNote(diff: ApiDiff): string[] {
  return diff.renames.length > 0 ? [`(${diff.renames.length} references to renamed schemas not listed; their contents are compared.)`] : [];
}

/** Each operation a change reaches, with its places: `GET /a: response 200 body application/json, parameter query x`. */
export function reachesByOperation(reaches: readonly Reach[]): string[] {
  const byOperation = new Map<string, string[]>();
  for (const r of reaches) {
    const op = `${r.method} ${r.path}`;
    byOperation.set(op, [...(byOperation.get(op) ?? []), r.place]);
  }
  return [...byOperation].map(([op, places]) => `${op}: ${places.join(', ')}`);
}

/** Readable text, one change a line (with why it breaks and where it is read), grouped by where it happened. */
export function formatDiffText(diff: ApiDiff): string {
  const lines = [header(diff), summaryLine(diff), ...renamesNote(diff), ''];
  let last = '';
  for (const change of diff.changes) {
    if (change.location !== last) {
      lines.push(change.location);
      last = change.location;
    }
    lines.push(`  [${tag(change)}] ${change.path ? `${change.path}: ` : ''}${change.description}${change.why ? ` — ${change.why}` : ''}`);
    if (change.reaches) {
      const ops = reachesByOperation(change.reaches);
      lines.push(...(ops.length > 0 ? ops.map((op) => `      reaches ${op}`) : ['      reaches no operation']));
    }
  }
  return `${lines.join('\n')}\n`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** A changelog section: breaking changes first (with why), then the rest. */
export function formatDiffMarkdown(diff: ApiDiff, note?: string, level = 1, title = `Changes from ${diff.from.version} to ${diff.to.version}`): string {
  const h = '#'.repeat(level);
  const breaking = diff.changes.filter((c) => c.breaking.client || c.breaking.server);
  const compatible = diff.changes.filter((c) => !c.breaking.client && !c.breaking.server);
  const reached = (c: ApiChange) => (c.reaches ? (c.reaches.length > 0 ? reachesByOperation(c.reaches).join('<br>') : 'no operation') : '');
  const breakingRow = (c: ApiChange) =>
    `| ${cell(where(c))} | ${cell(c.description)} | ${c.breaking.client ? 'yes' : 'no'} | ${c.breaking.server ? 'yes' : 'no'} | ${cell(c.why ?? '')} | ${cell(reached(c))} |`;
  const compatibleRow = (c: ApiChange) => `| ${cell(where(c))} | ${cell(c.description)} | ${cell(reached(c))} |`;
  const breakingTable =
    breaking.length === 0
      ? ['None.']
      : ['| where | change | breaks clients | breaks servers | why | reaches |', '| --- | --- | --- | --- | --- | --- |', ...breaking.map(breakingRow)];
  const compatibleTable = compatible.length === 0 ? ['None.'] : ['| where | change | reaches |', '| --- | --- | --- |', ...compatible.map(compatibleRow)];
  return [
    `${h} ${title}`,
    '',
    ...(note ? [note, ''] : []),
    `${header(diff)}: ${summaryLine(diff)}.`,
    ...renamesNote(diff),
    '',
    `${h}# Breaking changes`,
    '',
    ...breakingTable,
    '',
    `${h}# Compatible changes`,
    '',
    ...compatibleTable,
    '',
  ].join('\n');
}
