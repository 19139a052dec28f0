/**
 * How the MSW handlers read a request path's parameters: MSW matched the route already, this
 * finds each parameter's text (still percent-encoded) as a search of the template's regular
 * expression (`/things/([^/]+)/?$`, greedy captures) would, in time linear in the path.
 */
import { matchSegment, segmentTemplate, type SegmentTemplate } from '@bank-data-sharing/wire';

/**
 * The parameters a path's end holds, still percent-encoded: the last segments of the path (one
 * trailing slash aside) against the template's, each parameter the longest text that lets the
 * rest of its segment match. Segment by segment and without a regular expression, so that a
 * long segment cannot make matching quadratic (see wire's `matchSegment`).
 */
export function pathPattern(template: string): { match: (pathname: string) => string[] | undefined; params: string[] } {
  // What comes before the template's first `/` may end any segment of the path (the match
  // may start anywhere): OpenAPI templates start with `/`, so it is nothing, or a literal.
  const [lead = '', ...rest] = template.split('/');
  const segments = rest.map((segment): SegmentTemplate => segmentTemplate(segment, false));
  const params = segments.flatMap((segment) => [...segment.names]);
  const matchFrom = (parts: readonly string[]): string[] | undefined => {
    const from = parts.length - segments.length;
    if (from < 1 || !parts[from - 1]!.endsWith(lead)) return undefined;
    const values: string[] = [];
    for (let i = 0; i < segments.length; i++) {
      const found = matchSegment(segments[i]!, parts[from + i]!, 'longest');
      if (found === undefined) return undefined;
      values.push(...found);
    }
    return values;
  };
  const match = (pathname: string): string[] | undefined => {
    const parts = pathname.split('/');
    // The template's end, then the same with the path's trailing slash left out (`/?$`); the
    // match that starts earlier in the path wins, as a search from the left would find it.
    if (parts.length > 1 && parts[parts.length - 1] === '') {
      const withoutSlash = matchFrom(parts.slice(0, -1));
      if (withoutSlash !== undefined) return withoutSlash;
    }
    return matchFrom(parts);
  };
  return { match, params };
}
