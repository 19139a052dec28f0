/**
 * A short unified diff of two texts, for `--check`: enough to see what differs without
 * opening the files. Lines are compared with Myers' O(ND) algorithm after the common head and
 * tail are set aside; when the texts differ in too many places to compare cheaply, the rest
 * of the middle is shown as removed and added.
 */

type Edit = { kind: ' ' | '-' | '+'; line: string };

/** Myers' greedy shortest edit script between `a` and `b`; undefined beyond `maxD` edits. */
function myers(a: string[], b: string[], maxD: number): Edit[] | undefined {
  const n = a.length;
  const m = b.length;
  const offset = maxD + 1;
  const v = new Int32Array(2 * offset + 1);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= maxD; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, offset, d);
    }
  }
  return undefined;
}

function backtrack(a: string[], b: string[], trace: Int32Array[], offset: number, dFound: number): Edit[] {
  const edits: Edit[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = dFound; d > 0; d--) {
    // trace[d] holds the furthest points after d - 1 edits.
    const v = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      edits.push({ kind: ' ', line: a[x]! });
    }
    if (x === prevX) {
      y--;
      edits.push({ kind: '+', line: b[y]! });
    } else {
      x--;
      edits.push({ kind: '-', line: a[x]! });
    }
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    edits.push({ kind: ' ', line: a[x]! });
  }
  return edits.reverse();
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * A unified diff (`--- a`, `+++ b`, `@@` hunks with `context` lines around each change),
 * cut after `maxLines` lines with a note saying so. Empty when the texts are equal.
 */
export function unifiedDiff(options: { before: string; after: string; fromName: string; toName: string; context?: number; maxLines?: number }): string {
  const { before, after } = options;
  if (before === after) return '';
  const context = options.context ?? 3;
  const maxLines = options.maxLines ?? 40;
  const a = splitLines(before);
  const b = splitLines(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const middle = myers(midA, midB, 2000) ?? [...midA.map((line) => ({ kind: '-' as const, line })), ...midB.map((line) => ({ kind: '+' as const, line }))];
  const edits: Edit[] = [
    ...a.slice(Math.max(0, head - context), head).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(a.length - tail, a.length - tail + context).map((line) => ({ kind: ' ' as const, line })),
  ];
  // Line numbers of the first edit in each text.
  let lineA = Math.max(0, head - context) + 1;
  let lineB = lineA;

  const out = [`--- ${options.fromName}`, `+++ ${options.toName}`];
  let i = 0;
  let truncated = false;
  while (i < edits.length) {
    // Skip unchanged lines up to `context` before the next change.
    let next = i;
    while (next < edits.length && edits[next]!.kind === ' ') next++;
    if (next === edits.length) break;
    const start = Math.max(i, next - context);
    for (let j = i; j < start; j++) lineA++, lineB++;
    // The hunk runs until `2 * context` unchanged lines in a row, or the end.
    let end = next;
    let quiet = 0;
    while (end < edits.length && quiet < 2 * context) {
      quiet = edits[end]!.kind === ' ' ? quiet + 1 : 0;
      end++;
    }
    if (quiet > context) end -= quiet - context;
    const hunk = edits.slice(start, end);
    const countA = hunk.filter((e) => e.kind !== '+').length;
    const countB = hunk.filter((e) => e.kind !== '-').length;
    out.push(`@@ -${countA === 0 ? lineA - 1 : lineA},${countA} +${countB === 0 ? lineB - 1 : lineB},${countB} @@`);
    for (const edit of hunk) {
      if (out.length >= maxLines) {
        truncated = true;
        break;
      }
      out.push(`${edit.kind}${edit.line}`);
    }
    if (truncated) break;
    lineA += countA;
    lineB += countB;
    i = end;
  }
  if (truncated) out.push(`... (diff cut at ${maxLines} lines)`);
  return `${out.join('\n')}\n`;
}
