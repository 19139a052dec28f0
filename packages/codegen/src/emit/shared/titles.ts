/**
 * Spec text as generated comments quote it on one line: the API's title, and the first line of
 * an operation's or webhook's summary.
 */
import type { ApiIR } from '../../ir/types.js';

/**
 * Spec text on one line: white space (line breaks, and U+2028 and U+2029, which end a line in
 * JavaScript too) collapsed. In a `//` comment, a line break would end the comment and put the
 * rest of the text in the generated code.
 */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The API's title with its white space collapsed: how headers and doc comments name the API. */
export function apiTitle(api: Pick<ApiIR, 'title'>): string {
  return oneLine(api.title);
}

/** The API's version (`info.version`, free text) on one line, as headers and doc comments quote it. */
export function apiVersion(api: Pick<ApiIR, 'version'>): string {
  return oneLine(api.version);
}

/** ` — <first line of the summary>` after a title, or nothing without a summary. */
export function summarySuffix(summary: string | undefined): string {
  return summary ? ` — ${summary.trim().split(/\r?\n/)[0]}` : '';
}
