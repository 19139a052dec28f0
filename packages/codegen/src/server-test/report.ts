/**
 * The report of a run for people (text), for programs (JSON) and for CI systems (JUnit XML:
 * a test suite per operation, a failing test case per failure (one per check, as a run
 * reports each check once per operation), or one passing case, skipped when the operation
 * was not reached). Each says which operations were not reached and why, and which declared
 * statuses were seen.
 */
import { shortWhy } from './reach.js';
import { CHECKS, type Failure, type OperationSummary, type ServerTestReport } from './types.js';

/** One progress line: the operation, its requests, statuses and verdict. */
export function progressLine(summary: OperationSummary, index: number, total: number): string {
  const statuses = Object.entries(summary.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  const verdict = (summary.failures > 0 ? `FAILED (${summary.failures})` : 'ok') + (summary.reached ? '' : `, NOT REACHED (${summary.why ?? 'no success answer'})`);
  const width = String(total).length;
  return `[${String(index + 1).padStart(width)}/${total}] ${summary.method.padEnd(6)} ${summary.path}  ${summary.operation}: ${summary.requests} request(s) (${summary.positive} valid, ${summary.negative} invalid, ${summary.sequences} in sequences)${statuses ? ` ${statuses}` : ''} ${Math.round(summary.durationMs)} ms  ${verdict}${summary.notes.map((n) => `\n      note: ${n}`).join('')}`;
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

function failureText(failure: Failure, index: number): string {
  const lines = [
    `${index + 1}. ${failure.operation} (${failure.method} ${failure.path}) — ${failure.check}: ${CHECKS[failure.check]}`,
    `   ${failure.message}`,
  ];
  if (failure.pointer !== undefined || failure.rule !== undefined) lines.push(`   at ${failure.pointer || '(root)'}${failure.rule !== undefined ? `: ${failure.rule}` : ''}`);
  if (failure.mutation !== undefined) lines.push(`   request made wrong in one place: ${failure.mutation}`);
  if (failure.response) {
    const headers = Object.entries(failure.response.headers)
      .filter(([name]) => name === 'content-type' || name.startsWith('x-') || name === 'www-authenticate' || name === 'location')
      .map(([name, value]) => `${name}: ${value}`);
    lines.push(`   answer: HTTP ${failure.response.status}${headers.length ? ` (${headers.join('; ')})` : ''}`);
    if (failure.response.bodyExcerpt !== '') lines.push(indent(failure.response.bodyExcerpt.slice(0, 300), '     | '));
  }
  lines.push(`   reproduce${failure.shrinkSteps > 0 ? ` (shrunk in ${failure.shrinkSteps} step(s))` : ''}:`, `     ${failure.curl}`);
  return lines.join('\n');
}

/** The declared statuses each operation's answers covered, and those they never did. */
function coverageText(report: ServerTestReport): string[] {
  if (report.operations.length === 0) return [];
  const width = Math.min(40, Math.max(...report.operations.map((op) => op.operation.length)));
  const lines = ['Declared statuses seen, and never seen:'];
  for (const op of report.operations) {
    const { seen, never } = op.coverage;
    lines.push(`  ${op.operation.padEnd(width)}  seen ${seen.join(' ') || '-'}${never.length > 0 ? `; never ${never.join(' ')}` : ''}${op.reached ? '' : '  (not reached)'}`);
  }
  return lines;
}

/** The operations not reached, each with what every answer was and what to do. */
function unreachedText(unreached: readonly OperationSummary[]): string[] {
  if (unreached.length === 0) return [];
  return [
    `Not reached (${unreached.length}): no valid request got the success answer declared, so those answers were never checked:`,
    ...unreached.map((op) => `  ${op.operation} (${op.method} ${op.path}): ${op.why ?? 'no success answer'}`),
    '',
  ];
}

/** The whole report as text. */
export function reportText(report: ServerTestReport): string {
  const lines: string[] = [];
  if (report.failures.length > 0) {
    lines.push('', `Failures (${report.failures.length}):`, '');
    report.failures.forEach((f, i) => lines.push(failureText(f, i), ''));
  }
  lines.push('', ...coverageText(report), '');
  const unreached = report.operations.filter((op) => !op.reached);
  lines.push(...unreachedText(unreached));
  const tested = report.operations.length;
  const verdict = report.failures.length === 0 ? 'No failures' : `${report.failures.length} failure(s)`;
  const totals =
    `${tested} operation(s), ${report.requests} request(s) in ${(report.durationMs / 1000).toFixed(1)} s against ${report.baseUrl} (seed ${report.seed})` +
    (report.timedOut ? '; the time budget ran out before every operation was tested' : '');
  if (unreached.length === 0) lines.push(`${verdict}: ${totals}`);
  else lines.push(`${verdict}; ${unreached.length} operation(s) not reached: ${unreached.map((op) => `${op.operation}, ${shortWhy(op.why ?? 'no success answer')}`).join('; ')}`, totals);
  return `${lines.join('\n')}\n`;
}

/** The report as JSON (what `--json` prints). */
export function reportJson(report: ServerTestReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * Characters XML 1.0 does not allow: most control characters, U+FFFE, U+FFFF and UTF-16
 * surrogates that are not part of a pair (with the `u` flag a paired surrogate reads as one
 * astral character, so emoji are kept).
 */
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff\ud800-\udfff]/gu;

function xml(text: string): string {
  // Answers come from the server under test: a character XML has no place for becomes U+FFFD,
  // so CI tools can still read the report and the reader sees that something was there.
  return text.replace(NOT_XML_CHAR, '\ufffd').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/**
 * JUnit XML: a test suite per operation; a test case per check that failed, or one passing
 * case; an operation not reached has its case skipped, with the reason.
 */
export function reportJunit(report: ServerTestReport): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const casesOf = (op: OperationSummary) => report.failures.filter((f) => f.operation === op.operation).length + (op.reached ? 0 : 1);
  // A suite holds a test case per failure and one for reach when not reached, or one passing case.
  const tests = report.operations.reduce((n, op) => n + Math.max(1, casesOf(op)), 0);
  const skipped = report.operations.filter((op) => !op.reached).length;
  out.push(`<testsuites name="codegen test" tests="${tests}" failures="${report.failures.length}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`);
  for (const op of report.operations) {
    const failures = report.failures.filter((f) => f.operation === op.operation);
    const cases: string[] = [];
    for (const failure of failures) {
      cases.push(
        `    <testcase classname="${xml(op.operation)}" name="${xml(failure.check)}">`,
        `      <failure message="${xml(failure.message)}" type="${xml(failure.check)}">${xml(failureText(failure, 0).replace(/^1\. /, ''))}</failure>`,
        '    </testcase>',
      );
    }
    if (!op.reached) {
      cases.push(`    <testcase classname="${xml(op.operation)}" name="contract" time="${(op.durationMs / 1000).toFixed(3)}">`, `      <skipped message="${xml(`not reached: ${op.why ?? 'no success answer'}`)}"/>`, '    </testcase>');
    } else if (failures.length === 0) {
      cases.push(`    <testcase classname="${xml(op.operation)}" name="contract" time="${(op.durationMs / 1000).toFixed(3)}"/>`);
    }
    out.push(
      `  <testsuite name="${xml(`${op.method} ${op.path}`)}" tests="${Math.max(1, casesOf(op))}" failures="${failures.length}" skipped="${op.reached ? 0 : 1}" time="${(op.durationMs / 1000).toFixed(3)}">`,
      ...cases,
      '  </testsuite>',
    );
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
