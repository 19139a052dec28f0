/**
 * Page links (section 4.7 rule 5). They are opaque to clients: the hub writes its own page
 * parameter into the URL the TPP called, so following a link brings the same path and the
 * same filters back to the hub with a different page.
 */

export type PageLinks = {
  Self: string;
  First?: string;
  Prev?: string;
  Next?: string;
  Last?: string;
};

/**
 * `url` with the page parameter set to `page` (other parameters kept, in order).
 *
 * @example
 * withPage('https://hub/x/transactions?fromBookingDateTime=2025-01-01T00%3A00%3A00Z', 'page', 2)
 * // → 'https://hub/x/transactions?fromBookingDateTime=2025-01-01T00%3A00%3A00Z&page=2'
 */
export function withPage(url: string, pageParam: string, page: number): string {
  const u = new URL(url);
  u.searchParams.set(pageParam, String(page));
  return u.toString();
}

/**
 * `url` with its query written out as the other links write theirs (`application/x-www-form-urlencoded`,
 * as `URLSearchParams` serialises it), parameters and their order unchanged: `Self` is encoded
 * as `First` and `Next` are, so a client comparing links sees the same spelling.
 *
 * @example
 * selfLink('https://hub/x?from=2025-01-01T00:00:00Z&q=a b') // → 'https://hub/x?from=2025-01-01T00%3A00%3A00Z&q=a+b'
 */
export function selfLink(url: string): string {
  const u = new URL(url);
  if (u.search !== '') u.search = u.searchParams.toString();
  return u.toString();
}

/**
 * Links of page `page` of `totalPages` (≥ 1) for the request `selfUrl`.
 *
 * @example
 * pageLinks('https://hub/a?page=2', 'page', 2, 3)
 * // → { Self: 'https://hub/a?page=2', First: '…page=1', Prev: '…page=1', Next: '…page=3', Last: '…page=3' }
 */
export function pageLinks(selfUrl: string, pageParam: string, page: number, totalPages: number): PageLinks {
  // One parse for the four page links: setting the parameter again on the same URL gives
  // the text a fresh URL would (set() keeps the first position and drops repeats).
  const u = new URL(selfUrl);
  const at = (n: number): string => {
    u.searchParams.set(pageParam, String(n));
    return u.toString();
  };
  const links: PageLinks = { Self: selfLink(selfUrl), First: at(1) };
  if (page > 1) links.Prev = at(page - 1);
  if (page < totalPages) links.Next = at(page + 1);
  links.Last = at(totalPages);
  return links;
}

/** The largest page number a link may carry; anything longer is not a page the hub wrote. */
const MAX_PAGE = 1_000_000_000;

/**
 * The page a TPP URL asks for: 1 without the parameter; otherwise a positive integer.
 * Returns an error message for anything else (`abc`, `0`, `1.5`, repeated parameter).
 *
 * @example
 * requestedPage('https://hub/a?page=3', 'page') // → { page: 3 }
 * requestedPage('https://hub/a?page=x', 'page') // → { error: 'page must be a positive integer, got "x"' }
 */
export function requestedPage(url: string, pageParam: string): { page: number } | { error: string } {
  return pageIn(new URL(url).searchParams, pageParam);
}

/** `requestedPage` of a query already parsed. */
export function pageIn(params: URLSearchParams, pageParam: string): { page: number } | { error: string } {
  const values = params.getAll(pageParam);
  if (values.length === 0) return { page: 1 };
  if (values.length > 1) return { error: `${pageParam} is given ${values.length} times` };
  const text = values[0]!;
  if (!/^[1-9]\d*$/.test(text) || Number(text) > MAX_PAGE) return { error: `${pageParam} must be a positive integer, got ${JSON.stringify(text.slice(0, 40))}` };
  return { page: Number(text) };
}
