// The expectations file: which groups the generator refuses today and which tests it answers
// wrongly, by draft, file, group index and test index (never by the suite's text). It may
// only shrink: anything new fails, and so does an entry that no longer holds.

const NOTE =
  'Groups the generator refuses and tests it answers wrongly today, by group and test index. ' +
  'Written by CONFORMANCE_UPDATE=1; remove entries as they pass, never add them by hand.';

/** The expectations that describe `results` exactly. */
export function knownFrom(results) {
  const known = {};
  for (const result of results) {
    const refused = result.refusedGroups.map((g) => g.group);
    const wrong = result.tests.filter((t) => t.outcome === 'wrong').map((t) => [t.group, t.test]);
    if (refused.length === 0 && wrong.length === 0) continue;
    (known[result.draft] ??= {})[result.file] = { refused, wrong };
  }
  return known;
}

/** The file's text: one line per keyword file, keys sorted, so updates diff line by line. */
export function formatKnown(known) {
  const drafts = Object.keys(known).sort();
  const blocks = drafts.map((draft) => {
    const files = Object.keys(known[draft]).sort();
    const lines = files.map((file) => `    ${JSON.stringify(file)}: ${JSON.stringify(known[draft][file])}`);
    return `  ${JSON.stringify(draft)}: {\n${lines.join(',\n')}\n  }`;
  });
  return `{\n  "$comment": ${JSON.stringify(NOTE)},\n${blocks.join(',\n')}\n}\n`;
}

const at = (draft, file) => `draft ${draft} ${file}`;

/**
 * What differs between `results` and `known`, as messages: tests newly wrong, groups newly
 * refused, and entries that no longer hold (to remove). Only the files in `results` count,
 * so a filtered run compares what it ran.
 */
export function compareWithKnown({ results, known }) {
  const problems = [];
  for (const result of results) {
    const expected = known[result.draft]?.[result.file] ?? { refused: [], wrong: [] };
    const listedRefused = new Set(expected.refused ?? []);
    const listedWrong = new Set((expected.wrong ?? []).map(([g, t]) => `${g}/${t}`));
    const refused = new Map(result.refusedGroups.map((g) => [g.group, g]));
    for (const [group, refusal] of refused) {
      if (!listedRefused.has(group)) problems.push(`${at(result.draft, result.file)} group ${group}: newly refused (${refusal.codes.join(', ')}): ${refusal.messages[0] ?? ''}`);
    }
    for (const group of listedRefused) {
      if (!refused.has(group)) problems.push(`${at(result.draft, result.file)} group ${group}: listed as refused but the generator now accepts it: remove it from known.json`);
    }
    const outcomes = new Map(result.tests.map((t) => [`${t.group}/${t.test}`, t]));
    for (const test of result.tests) {
      if (test.outcome === 'wrong' && !listedWrong.has(`${test.group}/${test.test}`)) {
        problems.push(`${at(result.draft, result.file)} group ${test.group} test ${test.test}: newly wrong (expected ${test.valid ? 'valid' : 'invalid'}; ${JSON.stringify(test.answers)})`);
      }
    }
    for (const key of listedWrong) {
      const test = outcomes.get(key);
      const [group, index] = key.split('/');
      // A listed test now refused is reported once, as its group newly refused.
      if (test?.outcome === 'refused') continue;
      if (test === undefined) problems.push(`${at(result.draft, result.file)} group ${group} test ${index}: listed as wrong but the suite has no such test: remove it from known.json`);
      else if (test.outcome === 'pass') problems.push(`${at(result.draft, result.file)} group ${group} test ${index}: listed as wrong but now passes: remove it from known.json`);
    }
  }
  return problems;
}
