/**
 * The portal as a static folder: the index, a reference page per spec and the changes
 * pages, each `<slug>/index.html` with relative links, and Scalar's bundle copied from the
 * installed package into `assets/`. Works opened from disk or from any static host.
 */
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { changesSlug, DOCS_CHANGES, DOCS_SPECS } from './catalog.js';
import { changesPage } from './changes-page.js';
import { indexPage } from './index-page.js';
import { staticLinks } from './links.js';
import { SCALAR_BUNDLE_NAME, scalarBundlePath } from './scalar-bundle.js';
import { specPage } from './spec-page.js';

/** A page of the static folder: its slug ('' for the index) and its HTML. */
export interface StaticPage {
  readonly slug: string;
  readonly html: string;
}

/** The pages of the static site, in a stable order. */
export async function staticPages(): Promise<StaticPage[]> {
  const pages: StaticPage[] = [{ slug: '', html: indexPage({ links: staticLinks('') }) }];
  for (const spec of DOCS_SPECS) pages.push({ slug: spec.slug, html: await specPage(spec, { links: staticLinks(spec.slug) }) });
  for (const pair of DOCS_CHANGES) pages.push({ slug: changesSlug(pair), html: await changesPage(pair, staticLinks(changesSlug(pair))) });
  return pages;
}

/** Writes the site into `outDir` (created when missing; files of the same names are replaced). */
export async function writeStaticSite(outDir: string): Promise<{ files: string[] }> {
  const files: string[] = [];
  for (const page of await staticPages()) {
    const file = path.join(outDir, page.slug, 'index.html');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, page.html);
    files.push(file);
  }
  const bundle = path.join(outDir, 'assets', SCALAR_BUNDLE_NAME);
  await mkdir(path.dirname(bundle), { recursive: true });
  await copyFile(scalarBundlePath(), bundle);
  files.push(bundle);
  return { files };
}
