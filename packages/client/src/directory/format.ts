/**
 * Prints the TPP report as an aligned table, CSV (RFC 4180) or JSON. Directory data is
 * untrusted text: the table strips control characters (no terminal escapes get through) and
 * CSV neutralises cells a spreadsheet would run as formulas.
 */
import type { ReportRow, TppReport } from './report.js';

export const FORMATS = ['table', 'csv', 'json'] as const;
export type ReportFormat = (typeof FORMATS)[number];

const COLUMNS: Array<{ title: string; cell: (row: ReportRow) => string }> = [
  { title: 'OrganisationId', cell: (r) => r.OrganisationId },
  { title: 'OrganisationName', cell: (r) => r.OrganisationName },
  { title: 'SoftwareStatementId', cell: (r) => r.SoftwareStatementId },
  { title: 'SoftwareClientName', cell: (r) => r.SoftwareClientName },
  { title: 'Status', cell: (r) => r.Status },
  { title: 'SoftwareRoles', cell: (r) => r.SoftwareRoles.join(' ') },
];

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function printable(text: string): string {
  return text.replace(CONTROL, '\uFFFD');
}

/** An aligned text table, one line per software statement. */
export function formatTable(report: TppReport): string {
  const cells = report.rows.map((row) => COLUMNS.map((c) => printable(c.cell(row))));
  const widths = COLUMNS.map((c, i) => Math.max(c.title.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]): string =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  const out = [line(COLUMNS.map((c) => c.title)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)];
  return `${out.join('\n')}\n`;
}

function csvCell(text: string): string {
  // A leading = + - @ (or tab/CR) makes spreadsheets evaluate the cell: prefix a quote.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** CSV with a header line and CRLF line ends (RFC 4180). */
export function formatCsv(report: TppReport): string {
  const lines = [COLUMNS.map((c) => c.title), ...report.rows.map((row) => COLUMNS.map((c) => c.cell(row)))];
  return lines.map((cells) => cells.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The whole report (rows, problems, failures) as JSON. */
export function formatJson(report: TppReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * @example
 * process.stdout.write(formatReport(report, 'csv'));
 */
export function formatReport(report: TppReport, format: ReportFormat): string {
  if (format === 'csv') return formatCsv(report);
  if (format === 'json') return formatJson(report);
  return formatTable(report);
}
