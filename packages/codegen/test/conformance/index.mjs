// The conformance harness, for the vitest test and the `pnpm conformance` command alike.
export { runConformance } from './run.mjs';
export { DRAFTS, defaultSuiteDir } from './suite.mjs';
export { formatReport, formatTotals, jsonReport, totals, wrongTests } from './report.mjs';
export { compareWithKnown, formatKnown, knownFrom } from './known.mjs';
export { documentFor, rebaseRefs } from './document.mjs';
