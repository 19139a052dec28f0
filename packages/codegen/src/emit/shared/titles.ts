/**
 * Spec text as generated comments quote it on one line: the API's title, and the first line of
 * an operation's or webhook's summary.
 */
import type { ApiIR } from '../../ir/types.js';

/** The API's title with its white space collapsed: how headers and doc comments name the API. */
export function apiTitle(api: Pick<ApiIR, 'title'>): string {
  return api.title.replace(/\s+/g, ' ').trim();
}

/** ` — <first line of the summary>` after a title, or nothing without a summary. */
export function summarySuffix(summary: string | undefined): string {
  return summary ? ` — ${summary.trim().split(/\r?\n/)[0]}` : '';
}
