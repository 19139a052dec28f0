/**
 * The specs the docs portal shows: each with the slug of its page (`/docs/<slug>`), its root
 * file in the repository's spec folder, and whether the sandbox hub answers its operations.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** One spec the portal shows. */
export interface DocsSpec {
  /** Page address under the docs root: `v2.2`, `lfi/v2.2`, `directory`. */
  readonly slug: string;
  /** What the index calls it. */
  readonly label: string;
  /** What the spec is for, one line on the index. */
  readonly blurb: string;
  /** Root file, relative to the repository's spec folder. */
  readonly file: string;
  /** Who answers its operations when the sandbox runs: the hub (try-it works), the LFI, or nobody. */
  readonly servedBy: 'hub' | 'lfi' | 'none';
}

export const DOCS_SPECS: readonly DocsSpec[] = [
  { slug: 'v2.2', label: 'Account Information v2.2', blurb: 'The TPP-facing API, current version; answered by the sandbox hub.', file: 'v2.2/account-information.yaml', servedBy: 'hub' },
  { slug: 'v2.1', label: 'Account Information v2.1', blurb: 'The TPP-facing API, previous version; answered by the sandbox hub.', file: 'v2.1/account-information.yaml', servedBy: 'hub' },
  { slug: 'lfi/v2.2', label: 'Hub-to-LFI contract v2.2', blurb: 'What the hub calls on an LFI (page-based); the sandbox LFI implements it.', file: 'v2.2/lfi-paging.yaml', servedBy: 'lfi' },
  { slug: 'lfi/v2.1', label: 'Hub-to-LFI contract v2.1', blurb: 'The hub-to-LFI contract of v2.1; the sandbox LFI implements it.', file: 'v2.1/lfi-paging.yaml', servedBy: 'lfi' },
  { slug: 'directory', label: 'Directory (subset)', blurb: 'The participant directory operations the toolkit reads; not served by the sandbox.', file: 'directory/directory.yaml', servedBy: 'none' },
];

/** The version pairs with a "what changed" page: `<from>..<to>`, both TPP-facing slugs. */
export const DOCS_CHANGES: readonly { readonly from: string; readonly to: string }[] = [{ from: 'v2.1', to: 'v2.2' }];

/** The changes page slug of a pair: `changes/v2.1..v2.2`. */
export function changesSlug(pair: { readonly from: string; readonly to: string }): string {
  return `changes/${pair.from}..${pair.to}`;
}

/**
 * The repository's spec folder. The sandbox runs from the repository (from `src` under vitest,
 * from `dist` otherwise); both sit two levels below the package, so the path is the same.
 */
export const SPEC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', 'spec');

/** The absolute root file of a spec. */
export function specFile(spec: DocsSpec): string {
  return path.join(SPEC_DIR, spec.file);
}
