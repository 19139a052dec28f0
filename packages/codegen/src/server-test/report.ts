/**
 * The report of a run for people (text), for programs (JSON) and for CI systems (JUnit XML:
 * a test suite per operation, a failing test case per failure (one per check, as a run
 * reports each check once per operation), or one passing case).
 */
import { CHECKS, type Failure, type OperationSummary, type ServerTestReport } from './types.js';

/** One progress line: the operation, its requests, statuses and verdict. */
export function progressLine(summary: OperationSummary, index: number, total: number): string {
  const statuses = Object.entries(summary.statuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(' ');
  const verdict = summary.failures > 0 ? `FAILED (${summary.failures})` : 'ok';
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

/** The whole report as text. */
export function reportText(report: ServerTestReport): string {
  const lines: string[] = [];
  if (report.failures.length > 0) {
    lines.push('', `Failures (${report.failures.length}):`, '');
    report.failures.forEach((f, i) => lines.push(failureText(f, i), ''));
  }
  const tested = report.operations.length;
  lines.push(
    `${report.failures.length === 0 ? 'No failures' : `${report.failures.length} failure(s)`}: ${tested} operation(s), ${report.requests} request(s) in ${(report.durationMs / 1000).toFixed(1)} s against ${report.baseUrl} (seed ${report.seed})` +
      (report.timedOut ? '; the time budget ran out before every operation was tested' : ''),
  );
  return `${lines.join('\n')}\n`;
}

/** The report as JSON (what `--json` prints). */
export function reportJson(report: ServerTestReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function xml(text: string): string {
  // XML 1.0 has no place for most control characters: they are dropped.
  return text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '').replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** JUnit XML: a test suite per operation; a test case per check that ran, failed or not. */
export function reportJunit(report: ServerTestReport): string {
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  // A suite holds a test case per failure, or one passing case: at least one each.
  const tests = report.operations.reduce((n, op) => n + Math.max(1, report.failures.filter((f) => f.operation === op.operation).length), 0);
  out.push(`<testsuites name="codegen test" tests="${tests}" failures="${report.failures.length}" time="${(report.durationMs / 1000).toFixed(3)}">`);
  for (const op of report.operations) {
    const failures = report.failures.filter((f) => f.operation === op.operation);
    const failedChecks = new Set(failures.map((f) => f.check));
    const cases: string[] = [];
    for (const failure of failures) {
      cases.push(
        `    <testcase classname="${xml(op.operation)}" name="${xml(failure.check)}">`,
        `      <failure message="${xml(failure.message)}" type="${xml(failure.check)}">${xml(failureText(failure, 0).replace(/^1\. /, ''))}</failure>`,
        '    </testcase>',
      );
    }
    if (failedChecks.size === 0) cases.push(`    <testcase classname="${xml(op.operation)}" name="contract" time="${(op.durationMs / 1000).toFixed(3)}"/>`);
    out.push(`  <testsuite name="${xml(`${op.method} ${op.path}`)}" tests="${Math.max(1, failures.length)}" failures="${failures.length}" time="${(op.durationMs / 1000).toFixed(3)}">`, ...cases, '  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
