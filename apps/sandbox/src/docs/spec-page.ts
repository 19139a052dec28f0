/** A spec's reference page, for the sandbox (try-it against its hub) or for a static folder. */
import type { DocsSpec } from './catalog.js';
import type { DocsLinks } from './links.js';
import { referencePage } from './reference-page.js';
import { sandboxDocument, type SandboxValues } from './sandbox-document.js';
import { scalarConfig, type TryItCredentials } from './scalar-config.js';
import { specDocument } from './spec-documents.js';

/** What the sandbox gives a page of a spec its hub answers. */
export interface SandboxTryIt {
  readonly values: SandboxValues;
  readonly credentials: TryItCredentials;
}

export async function specPage(spec: DocsSpec, input: { links: DocsLinks; sandbox?: SandboxTryIt }): Promise<string> {
  const bundled = await specDocument(spec);
  const info = bundled['info'] as { title?: string; version?: string } | undefined;
  const title = `${info?.title ?? spec.label} ${info?.version ?? ''}`.trim();
  const tryIt = spec.servedBy === 'hub' && input.sandbox !== undefined;
  const document = tryIt ? sandboxDocument(bundled, input.sandbox!.values) : bundled;
  const config = scalarConfig({ document, title, tryIt, ...(tryIt ? { credentials: input.sandbox!.credentials } : {}) });
  return referencePage({ title, config, links: input.links });
}
