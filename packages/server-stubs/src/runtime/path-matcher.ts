/**
 * Matches request paths against the spec's path templates (`/accounts/{AccountId}`), so the
 * router can tell an unknown path (404) from a known path with another method (405).
 * Literal segments win over parameters (`/accounts/special` before `/accounts/{id}`), as
 * OpenAPI prescribes.
 */

import { matchSegment, segmentTemplate, type SegmentTemplate } from '@bank-data-sharing/wire';

interface Segment {
  readonly literal?: string;
  /** A segment with parameters (`{AccountId}`, `{id}.{format}`), matched in linear time. */
  readonly template?: SegmentTemplate;
}

export interface CompiledPath {
  readonly template: string;
  readonly segments: readonly Segment[];
}

export type PathMatch =
  | {
      readonly template: string;
      readonly params: Record<string, string>;
      /** The same parameters as sent (still percent-encoded), for styles with delimiters. */
      readonly raw: Record<string, string>;
    }
  | { readonly malformed: string };

/**
 * @example
 * compilePath('/accounts/{AccountId}/transactions')
 */
export function compilePath(template: string): CompiledPath {
  const segments = template
    .split('/')
    .filter((s) => s !== '')
    .map((segment): Segment => {
      if (!segment.includes('{')) return { literal: segment };
      // Each parameter takes the shortest text that lets the rest of the segment match.
      return { template: segmentTemplate(segment, true) };
    });
  return { template, segments };
}

function score(path: CompiledPath): number[] {
  return path.segments.map((s) => (s.literal !== undefined ? 2 : 1));
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (b[i] ?? 0) - (a[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * Compiled templates in match order (most literal first).
 *
 * @example
 * const paths = compilePaths(['/accounts', '/accounts/{AccountId}']);
 * matchPath(paths, '/accounts/a1') // → { template: '/accounts/{AccountId}', params: { AccountId: 'a1' } }
 */
export function compilePaths(templates: Iterable<string>): CompiledPath[] {
  return [...new Set(templates)].map(compilePath).sort((a, b) => compareScores(score(a), score(b)));
}

/**
 * The template a (raw, still percent-encoded) request path matches, with its parameters
 * decoded; `{ malformed }` when a parameter is not valid percent-encoding; undefined when
 * no template matches. A single trailing slash is ignored.
 */
export function matchPath(paths: readonly CompiledPath[], rawPath: string): PathMatch | undefined {
  const trimmed = rawPath.length > 1 && rawPath.endsWith('/') ? rawPath.slice(0, -1) : rawPath;
  const parts = trimmed.split('/').filter((s, i) => i > 0 || s !== '');
  if (parts.length > 0 && parts[0] === '') parts.shift();
  for (const path of paths) {
    // The literal segments first: most templates of the same length fail there, and nothing
    // has been allocated for their parameters yet.
    if (path.segments.length !== parts.length || !literalsMatch(path.segments, parts)) continue;
    const params: Record<string, string> = {};
    const raw: Record<string, string> = {};
    let ok = true;
    let malformed: string | undefined;
    for (let i = 0; i < parts.length && ok; i++) {
      const template = path.segments[i]!.template;
      if (template === undefined) continue;
      const values = matchSegment(template, parts[i]!, 'shortest');
      if (!values) {
        ok = false;
        continue;
      }
      for (let k = 0; k < template.names.length; k++) {
        const name = template.names[k]!;
        raw[name] = values[k]!;
        const decoded = safeDecode(values[k]!);
        if (decoded === undefined) malformed = name;
        else params[name] = decoded;
      }
    }
    if (!ok) continue;
    if (malformed !== undefined) return { malformed };
    return { template: path.template, params, raw };
  }
  return undefined;
}

function literalsMatch(segments: readonly Segment[], parts: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const literal = segments[i]!.literal;
    if (literal !== undefined && literal !== parts[i] && safeDecode(parts[i]!) !== literal) return false;
  }
  return true;
}

function safeDecode(text: string): string | undefined {
  // Without an escape there is nothing to decode (and nothing that could be malformed).
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
