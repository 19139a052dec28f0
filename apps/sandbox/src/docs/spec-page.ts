/** A spec's reference page, for the sandbox (try-it against its hub) or for a static folder. */
import type { DocsSpec } from './catalog.js';
import type { DocsLinks } from './links.js';
import { referencePage } from './reference-page.js';
import { sandboxDocument, type SandboxValues } from './sandbox-document.js';
import { scalarConfig, type TryItCredentials } from './scalar-config.js';
import { specDocument, type OpenApiDocument } from './spec-documents.js';

/** What the sandbox gives a page of a spec its hub answers. */
export interface SandboxTryIt {
  readonly values: SandboxValues;
  readonly credentials: TryItCredentials;
}

/**
 * The hub-to-LFI contract's server, on the sandbox: the sandbox LFI's origin before the
 * contract's own prefix. Its credential stays off the page (only the hub calls the LFI).
 */
function onSandboxLfi(document: OpenApiDocument, lfiOrigin: string): void {
  const servers = (document['servers'] ?? []) as { url?: string }[];
  const prefix = servers[0]?.url ?? '';
  if (!prefix.startsWith('/')) return;
  document['servers'] = [{ url: `${lfiOrigin}${prefix}`, description: 'The sandbox LFI (it answers the hub only)' }];
}

export async function specPage(spec: DocsSpec, input: { links: DocsLinks; sandbox?: SandboxTryIt; lfiOrigin?: string }): Promise<string> {
  const bundled = await specDocument(spec);
  if (spec.servedBy === 'lfi' && input.lfiOrigin !== undefined) onSandboxLfi(bundled, input.lfiOrigin);
  const info = bundled['info'] as { title?: string; version?: string } | undefined;
  const title = `${info?.title ?? spec.label} ${info?.version ?? ''}`.trim();
  const tryIt = spec.servedBy === 'hub' && input.sandbox !== undefined;
  const document = tryIt ? sandboxDocument(bundled, input.sandbox!.values) : bundled;
  const config = scalarConfig({ document, title, tryIt, ...(tryIt ? { credentials: input.sandbox!.credentials } : {}) });
  // Where the console sends, the panel offers the answers' paging links to follow.
  return referencePage({ title, config, links: input.links, ...(tryIt ? { followLinks: { apiBase: input.sandbox!.values.serverUrl } } : {}) });
}
