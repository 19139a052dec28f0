// Counts and prints the results: a table per draft, totals, and the wrong tests.

/** Counts of one file: tests, pass, refused, wrong, and how many groups each error code refused. */
export function summarize(result) {
  const counts = { tests: result.tests.length, pass: 0, refused: 0, wrong: 0 };
  for (const test of result.tests) counts[test.outcome] += 1;
  const refusedBy = {};
  for (const group of result.refusedGroups) for (const code of group.codes) refusedBy[code] = (refusedBy[code] ?? 0) + 1;
  return { draft: result.draft, file: result.file, allowedRefusal: result.allowedRefusal, ...counts, refusedBy };
}

function add(total, summary) {
  for (const key of ['tests', 'pass', 'refused', 'wrong']) total[key] += summary[key];
  return total;
}

/**
 * Per draft, in the order run: the files' summaries and their totals, the files the
 * generator may refuse (remote references, dynamic scopes, vocabularies) counted apart.
 */
export function totals(results) {
  const drafts = new Map();
  for (const result of results) {
    const summary = summarize(result);
    if (!drafts.has(result.draft)) drafts.set(result.draft, {
      draft: result.draft,
      openapi: result.openapi,
      required: { files: [], total: { tests: 0, pass: 0, refused: 0, wrong: 0 } },
      allowedRefusals: { files: [], total: { tests: 0, pass: 0, refused: 0, wrong: 0 } },
    });
    const draft = drafts.get(result.draft);
    const part = result.allowedRefusal ? draft.allowedRefusals : draft.required;
    part.files.push(summary);
    add(part.total, summary);
  }
  return [...drafts.values()];
}

/** Every wrong test, with the descriptions the suite gives it (printed, never stored). */
export function wrongTests(results) {
  return results.flatMap((result) =>
    result.tests
      .filter((test) => test.outcome === 'wrong')
      .map((test) => ({
        draft: result.draft,
        file: result.file,
        group: test.group,
        test: test.test,
        groupDescription: result.descriptions[test.group],
        description: test.description,
        valid: test.valid,
        answers: test.answers,
      })),
  );
}

const COLUMNS = [
  ['file', 32, 'left'],
  ['tests', 6],
  ['pass', 6],
  ['refused', 8],
  ['wrong', 6],
];

function row(values) {
  const cells = COLUMNS.map(([, width, align], i) => (align === 'left' ? String(values[i]).padEnd(width) : String(values[i]).padStart(width)));
  return `${cells.join(' ')}  ${values[COLUMNS.length] ?? ''}`.trimEnd();
}

function codesText(refusedBy) {
  return Object.entries(refusedBy)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([code, groups]) => `${code} (${groups} group${groups === 1 ? '' : 's'})`)
    .join(', ');
}

function table({ title, part }) {
  const lines = [title, row([...COLUMNS.map(([name]) => name), 'refused by'])];
  for (const f of part.files) lines.push(row([f.file, f.tests, f.pass, f.refused, f.wrong, codesText(f.refusedBy)]));
  const t = part.total;
  lines.push(row(['total', t.tests, t.pass, t.refused, t.wrong]));
  return lines.join('\n');
}

function answerText(answers) {
  return Object.entries(answers)
    .map(([who, answer]) => `${who}: ${typeof answer === 'boolean' ? (answer ? 'valid' : 'invalid') : answer}`)
    .join(', ');
}

/** The tables, totals and wrong tests as text for a terminal. */
export function formatReport(results) {
  const sections = [];
  for (const { draft, openapi, required, allowedRefusals } of totals(results)) {
    if (required.files.length > 0) sections.push(table({ title: `JSON Schema draft ${draft}, as OpenAPI ${openapi}`, part: required }));
    if (allowedRefusals.files.length > 0) sections.push(table({ title: `draft ${draft}: allowed refusals (counted apart)`, part: allowedRefusals }));
  }
  const wrong = wrongTests(results);
  if (wrong.length > 0) {
    const lines = [`Wrong answers (${wrong.length}):`];
    for (const w of wrong) {
      lines.push(`  draft ${w.draft} ${w.file} group ${w.group} test ${w.test}: ${w.groupDescription} / ${w.description}`);
      lines.push(`    expected ${w.valid ? 'valid' : 'invalid'}; ${answerText(w.answers)}`);
    }
    sections.push(lines.join('\n'));
  }
  sections.push(formatTotals(results));
  return `${sections.join('\n\n')}\n`;
}

/** One line per draft: the figures the README quotes. */
export function formatTotals(results) {
  const lines = ['Totals (tests / pass / refused / wrong):'];
  for (const { draft, required, allowedRefusals } of totals(results)) {
    const t = required.total;
    const a = allowedRefusals.total;
    let line = `  draft ${draft}: ${t.tests} / ${t.pass} / ${t.refused} / ${t.wrong}`;
    if (allowedRefusals.files.length > 0) line += `; allowed refusals: ${a.tests} / ${a.pass} / ${a.refused} / ${a.wrong}`;
    lines.push(line);
  }
  return lines.join('\n');
}

/** Every refused group, with the generator's error codes and messages. */
export function refusedGroups(results) {
  return results.flatMap((result) =>
    result.refusedGroups.map((g) => ({ draft: result.draft, file: result.file, group: g.group, groupDescription: result.descriptions[g.group], codes: g.codes, messages: g.messages })),
  );
}

/** The same, for machines: totals per draft, each file's counts, the wrong tests, the refused groups. */
export function jsonReport(results) {
  return { drafts: totals(results), wrong: wrongTests(results), refused: refusedGroups(results) };
}
