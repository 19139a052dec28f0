// Text edits applied to COPIES of generated validators (never to the generator) to measure how
// a different printing of the same schema changes zod's speed. Each returns { text, count }.
// `equivalent` says whether the edit keeps exactly the same accepted/rejected inputs.

const REGEX_ARG = String.raw`(?:/(?:[^/\\\n]|\\.)+/u|new RegExp\("(?:[^"\\]|\\.)*", 'u'\))`;

function replaceAll(text, re, fn) {
  let count = 0;
  const out = text.replace(re, (...m) => {
    const r = fn(...m);
    if (r !== m[0]) count++;
    return r;
  });
  return { text: out, count };
}

/** `z.enum(["a", "b"])` → `z.literal(["a", "b"])`: same values, same semantics. */
export function enumAsLiteral(text) {
  return replaceAll(text, /z\.enum\(\[((?:"(?:[^"\\]|\\.)*"(?:, )?)*)\]\)/g, (_m, values) => `z.literal([${values}])`);
}

/**
 * `.regex(/p/u)` → `.regex(/p/)` where the `u` flag cannot change what matches: ASCII-only
 * pattern with no `.`, negated class, \S \W \D, \p{..} or \u{..} (those see a surrogate pair as
 * one character only under `u`).
 */
export function regexWithoutUnicodeFlag(text) {
  return replaceAll(text, /\.regex\(\/((?:[^/\\\n]|\\.)+)\/u\)/g, (m, pattern) => {
    // eslint-disable-next-line no-control-regex
    if (/[^\x00-\x7f]/.test(pattern) || /\\[pPSWDu]|\[\^|(^|[^\\])\./.test(pattern)) return m;
    try {
      new RegExp(pattern);
    } catch {
      return m;
    }
    return `.regex(/${pattern}/)`;
  });
}

/**
 * `z.string().min(1).refine(rt.isDateTime, rt.formatError["date-time"])` →
 * `z.stringFormat("date-time", rt.isDateTime, rt.formatError["date-time"]).min(1)`: the same
 * predicate as a string format instead of a refinement (issue code invalid_format, not custom).
 */
export function formatAsStringFormat(text) {
  const re = new RegExp(String.raw`z\.string\(\)((?:\.(?:min|max)\(\d+\)|\.regex\(${REGEX_ARG}\))*)\.refine\((rt\.is\w+), rt\.formatError\[("[\w-]+")\]\)`, 'g');
  return replaceAll(text, re, (_m, chain, fn, name) => `z.stringFormat(${name}, ${fn}, rt.formatError[${name}])${chain}`);
}

/** `z.strictObject(` → `z.object(`: unknown members are stripped instead of rejected (NOT the same semantics). */
export function strictAsStrip(text) {
  return replaceAll(text, /z\.strictObject\(/g, () => 'z.object(');
}

/** `z.strictObject(` → `z.looseObject(`: unknown members are kept instead of rejected (NOT the same semantics). */
export function strictAsLoose(text) {
  return replaceAll(text, /z\.strictObject\(/g, () => 'z.looseObject(');
}

const FAST_DATE_TIME = `function twoDigits(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/** RFC 3339 \`date-time\` (an offset is required). Any \`pattern\` on the field applies on top. */
export function isDateTime(value: string): boolean {
  const n = value.length;
  if (n < 20) return false;
  const century = twoDigits(value, 0);
  const yy = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const hour = twoDigits(value, 11);
  const minute = twoDigits(value, 14);
  const second = twoDigits(value, 17);
  if ((century | yy | month | day | hour | minute | second) < 0) return false;
  if (value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45 || value.charCodeAt(13) !== 58 || value.charCodeAt(16) !== 58) return false;
  const t = value.charCodeAt(10);
  if (t !== 84 && t !== 116) return false;
  let i = 19;
  if (value.charCodeAt(i) === 46) {
    const start = ++i;
    while (i < n && value.charCodeAt(i) >= 48 && value.charCodeAt(i) <= 57) i++;
    if (i === start) return false;
  }
  const zone = value.charCodeAt(i);
  let sign: string | undefined;
  let offsetHour = 0;
  let offsetMinute = 0;
  if (zone === 90 || zone === 122) {
    if (i + 1 !== n) return false;
  } else if (zone === 43 || zone === 45) {
    if (i + 6 !== n || value.charCodeAt(i + 3) !== 58) return false;
    offsetHour = twoDigits(value, i + 1);
    offsetMinute = twoDigits(value, i + 4);
    if (offsetHour < 0 || offsetMinute < 0) return false;
    sign = zone === 45 ? '-' : '+';
  } else return false;
  return isCalendarDate(century * 100 + yy, month, day) && isClockTime(hour, minute, second, sign, offsetHour, offsetMinute);
}
`;

/** runtime.gen.ts: `isDateTime` as a character scan instead of a capturing regex (same semantics, checked by the suite). */
export function fastDateTime(text) {
  // The generated runtime scans characters itself now (this variant's finding, adopted): nothing to edit.
  if (/function twoDigits\(/.test(text)) return { text, count: 0 };
  const re = /(?:\/\*\*[^\n]*\*\/\n)?export function isDateTime\(value: string\): boolean \{\n[\s\S]*?\n\}\n/;
  if (!re.test(text)) return { text, count: 0 };
  return { text: text.replace(re, FAST_DATE_TIME), count: 1 };
}

/** Deterministic strings near RFC 3339 date-times, to check two date-time predicates agree. */
export function dateTimeCorpus(size, seed = 12345) {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const alphabet = '0123456789-:.TtZz+ x\n٣';
  const seeds = [
    '2025-03-01T10:11:12+04:00', '2024-02-29T23:59:59Z', '2023-02-29T00:00:00Z', '1990-12-31T23:59:60Z', '1990-12-31T19:59:60-04:00',
    '2025-01-01t00:00:00.123456z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59.9+23:59', '2025-04-31T00:00:00Z', '2025-13-01T00:00:00Z',
    '2025-03-01T24:00:00Z', '2025-03-01T10:60:00Z', '2025-03-01T10:00:00+24:00', '2025-03-01T10:00:00.Z', '2025-03-01 10:00:00Z', '2025-03-01T10:00:00',
  ];
  const out = [...seeds];
  while (out.length < size) {
    let v = pick(seeds);
    const edits = 1 + Math.floor(rand() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(rand() * (v.length + 1));
      const op = rand();
      if (op < 0.5) v = v.slice(0, at) + pick(alphabet) + v.slice(at + 1);
      else if (op < 0.75) v = v.slice(0, at) + pick(alphabet) + v.slice(at);
      else v = v.slice(0, at) + v.slice(at + 1);
    }
    out.push(v);
  }
  return out;
}
