// Formatting figures for the table: value, spread and how they were taken.

const UNIT_DIGITS = { s: 3, MB: 0, 'µs': 0, 'ops/s': 0, 'req/s': 0, 'rec/s': 0, '×': 2, ms: 1, '%': 0 };
const GROUPED = new Set(['ops/s', 'req/s', 'rec/s']);

export function fmt(value, unit) {
  if (value === undefined || value === null || Number.isNaN(value)) return '–';
  if (GROUPED.has(unit)) return Math.round(value).toLocaleString('en-US');
  const digits = UNIT_DIGITS[unit] ?? 2;
  return value.toFixed(digits);
}

export function withUnit(value, unit) {
  const text = fmt(value, unit);
  if (text === '–') return text;
  return unit === '×' || unit === '%' ? `${text}${unit}` : `${text} ${unit}`;
}

/** "min–max (IQR q1–q3)" in the row's unit; IQR only with 5 samples or more. */
export function spread(stats, unit) {
  if (!stats || stats.n < 2) return '';
  const range = `${fmt(stats.min, unit)}–${fmt(stats.max, unit)}`;
  return stats.n >= 5 ? `${range} (IQR ${fmt(stats.q1, unit)}–${fmt(stats.q3, unit)})` : range;
}

export function goalText(row) {
  if (!row.goal) return '';
  return `${row.goal.text}: ${row.goal.met ? 'met' : 'NOT met'}`;
}

/** Pads a table of strings into aligned columns. */
export function table(header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells) => cells.map((c, i) => (c ?? '').padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
