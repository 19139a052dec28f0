// Runs the suite's keyword files through the generator and answers every test.
import { documentFor, schemaName } from './document.mjs';
import { createWorkspace, generateModule } from './generated-module.mjs';
import { offline } from './offline.mjs';
import { listSuiteFiles } from './suite.mjs';

/**
 * The answers of one test: the zod schema's, and the check function's when the schema has
 * one. A validator that throws answers neither yes nor no.
 */
function answersOf(module, name, data) {
  const answers = {};
  const ask = (key, question) => {
    try {
      answers[key] = question();
    } catch (error) {
      answers[key] = `threw: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  const schema = module.schemas[name];
  ask('zod', () => (schema ? schema.safeParse(data).success : 'no schema exported'));
  const check = module.checks[name];
  if (typeof check === 'function') ask('check', () => check(data));
  return answers;
}

/** Outcomes of every test of group `index` against what the generator made of it. */
function answerGroup({ module, index, group }) {
  return group.tests.map((test, testIndex) => {
    const base = { group: index, test: testIndex, description: test.description, valid: test.valid };
    if (module.refused) return { ...base, outcome: 'refused', codes: module.refused.codes };
    if (module.broken) return { ...base, outcome: 'wrong', answers: { load: module.broken } };
    const answers = answersOf(module, schemaName(index), test.data);
    const outcome = Object.values(answers).every((a) => a === test.valid) ? 'pass' : 'wrong';
    return outcome === 'pass' ? { ...base, outcome } : { ...base, outcome, answers };
  });
}

/**
 * One keyword file: one document with all its groups, for speed; when the generator refuses
 * it (or writes code that does not load), one document per group, so that one group's
 * refusal does not refuse the others.
 */
async function runFile({ api, workspace, entry }) {
  const groups = entry.groups.map((group, index) => ({ index, schema: group.schema }));
  const { formats } = entry;
  const whole = await generateModule({ api, workspace, formats, document: documentFor({ openapi: entry.openapi, groups }) });
  const modules = whole.refused || whole.broken
    ? await Promise.all(groups.map((g) => generateModule({ api, workspace, formats, document: documentFor({ openapi: entry.openapi, groups: [g] }) })))
    : groups.map(() => whole);
  const refusedGroups = [];
  const tests = [];
  entry.groups.forEach((group, index) => {
    const module = modules[index];
    if (module.refused) refusedGroups.push({ group: index, ...module.refused });
    tests.push(...answerGroup({ module, index, group }));
  });
  const descriptions = entry.groups.map((group) => group.description);
  return { draft: entry.draft, file: entry.file, openapi: entry.openapi, allowedRefusal: entry.allowedRefusal, descriptions, refusedGroups, tests };
}

/**
 * Runs the selected drafts and files. `api` is the codegen package's programmatic API (its
 * source in tests, its built `dist` in the CLI). `onProgress` hears of each file as it
 * starts. Returns one result per file, in suite order.
 */
export async function runConformance({ api, suiteDir, drafts, file, onProgress = () => {} }) {
  const entries = await listSuiteFiles({ suiteDir, drafts, file });
  const workspace = await createWorkspace();
  try {
    return await offline(async () => {
      const results = [];
      for (const [i, entry] of entries.entries()) {
        onProgress({ done: i, total: entries.length, draft: entry.draft, file: entry.file });
        results.push(await runFile({ api, workspace, entry }));
      }
      return results;
    });
  } finally {
    await workspace.remove();
  }
}
