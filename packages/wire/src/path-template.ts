/**
 * Matching one segment of a request path against one segment of a path template
 * (`{id}.{format}`, `report-{year}.json`), in time linear in the segment.
 *
 * The plain way, a regular expression of the template (`^([^/]+?)\.([^/]+?)\.json$`), is
 * quadratic in V8's backtracking engine when a segment with two parameters and a literal after
 * them fails to match (12 s for a 256 KiB segment of `a.a.a...`). Here each literal between
 * parameters is found with one `indexOf` (or `lastIndexOf`) from where the last one ended.
 * That gives the regular expression's own captures: a parameter can hold any text of the
 * segment, so placing each literal at its first (or, for longest captures, last) possible
 * place never stops the rest from matching when any placement would not.
 */

/** A segment template: the literal text around its parameters (`literals.length === names.length + 1`). */
export interface SegmentTemplate {
  readonly literals: readonly string[];
  readonly names: readonly string[];
}

/**
 * The literals and parameter names of a template segment. A parameter is `{name}`; with
 * `emptyNames`, `{}` is one too (a parameter named ``), else it is literal text.
 *
 * @example
 * segmentTemplate('{id}.{format}', true) // → { literals: ['', '.', ''], names: ['id', 'format'] }
 */
export function segmentTemplate(segment: string, emptyNames: boolean): SegmentTemplate {
  const literals: string[] = [];
  const names: string[] = [];
  let literal = '';
  let at = 0;
  while (at < segment.length) {
    const open = segment.indexOf('{', at);
    const close = open < 0 ? -1 : segment.indexOf('}', open + 1);
    if (open < 0 || close < 0) break;
    if (close === open + 1 && !emptyNames) {
      literal += segment.slice(at, close + 1);
      at = close + 1;
      continue;
    }
    literals.push(literal + segment.slice(at, open));
    names.push(segment.slice(open + 1, close));
    literal = '';
    at = close + 1;
  }
  literals.push(literal + segment.slice(at));
  return { literals, names };
}

/**
 * The parameters' text in `text` (one path segment, no `/`), or undefined when it does not
 * match. Each parameter holds one character at least. `shortest` gives each parameter the
 * shortest text that lets the rest match (the captures of `([^/]+?)`), `longest` the longest
 * (those of `([^/]+)`).
 *
 * @example
 * matchSegment(segmentTemplate('{a}.{b}', true), 'x.y.z', 'shortest') // → ['x', 'y.z']
 * matchSegment(segmentTemplate('{a}.{b}', true), 'x.y.z', 'longest') // → ['x.y', 'z']
 */
export function matchSegment(template: SegmentTemplate, text: string, prefer: 'shortest' | 'longest'): string[] | undefined {
  const { literals, names } = template;
  const first = literals[0]!;
  const last = literals[literals.length - 1]!;
  if (names.length === 0) return text === first ? [] : undefined;
  if (!text.startsWith(first) || !text.endsWith(last)) return undefined;
  // The parameters' text lies in text[from, to): after the first literal, before the last.
  const from = first.length;
  const to = text.length - last.length;
  if (to - from < names.length) return undefined;
  const values: string[] = new Array<string>(names.length);
  if (prefer === 'shortest') {
    let start = from;
    for (let i = 1; i < names.length; i++) {
      const literal = literals[i]!;
      const at = text.indexOf(literal, start + 1);
      // The literal must end with one character at least left for each parameter after it.
      if (at < 0 || at + literal.length > to - (names.length - i)) return undefined;
      values[i - 1] = text.slice(start, at);
      start = at + literal.length;
    }
    values[names.length - 1] = text.slice(start, to);
    return values;
  }
  let end = to;
  for (let i = names.length - 1; i > 0; i--) {
    const literal = literals[i]!;
    const at = text.lastIndexOf(literal, end - 1 - literal.length);
    // The literal must start with one character at least left for each parameter before it.
    if (at < 0 || at < from + i) return undefined;
    values[i] = text.slice(at + literal.length, end);
    end = at;
  }
  values[0] = text.slice(from, end);
  return values;
}
