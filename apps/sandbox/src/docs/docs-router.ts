/**
 * `/docs` on the sandbox hub: the index, a reference page per spec (`/docs/v2.2`,
 * `/docs/lfi/v2.2`, ...), the changes pages, and Scalar's bundle from node_modules.
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { changesPage, changesPairAt } from './changes-page.js';
import { indexPage } from './index-page.js';
import { servedLinks } from './links.js';
import { notFoundPage } from './not-found-page.js';
import { SCALAR_BUNDLE_NAME, scalarBundlePath } from './scalar-bundle.js';
import { specAt } from './spec-documents.js';
import { specPage } from './spec-page.js';

/** What the docs need from the running sandbox. */
export interface DocsSandbox {
  readonly hubUrl: string;
  /** The LFI the hub calls (shown as the server of the hub-to-LFI contract). */
  readonly lfiUrl: string;
  /** Base URL (hub origin + prefix) of each TPP-facing version, keyed by its page slug. */
  readonly baseUrls: Readonly<Record<string, string>>;
  readonly consentId: string;
  readonly accountIds: readonly string[];
  /** A token for the consent, valid now (the seeded one while it lasts). */
  accessToken(): string;
}

const MOUNT = '/docs';

function sendHtml(res: Response, status: number, html: string): void {
  // The page's only script is its own and Scalar's; no caching, so a restarted sandbox's new
  // token is what the page carries.
  res.status(status).set({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).send(html);
}

/** The slug a request asks for: the path under `/docs` without its outer slashes ('' when it does not decode). */
function slugOf(req: Request): string {
  try {
    return decodeURIComponent(req.path).replace(/^\/+|\/+$/g, '');
  } catch {
    return '';
  }
}

export function createDocsRouter(sandbox: DocsSandbox): Router {
  const links = servedLinks(MOUNT);
  const router = express.Router();

  router.get(`/assets/${SCALAR_BUNDLE_NAME}`, (_req, res) => {
    // `dotfiles: 'allow'`: pnpm installs packages under node_modules/.pnpm, a dot folder.
    res.type('application/javascript').sendFile(scalarBundlePath(), { dotfiles: 'allow' });
  });

  router.get('/', (_req, res) => {
    sendHtml(res, 200, indexPage({ links, sandbox: { hubUrl: sandbox.hubUrl, consentId: sandbox.consentId } }));
  });

  router.get(/^\/changes\/.+/, async (req, res, next) => {
    const pair = changesPairAt(slugOf(req));
    if (pair === undefined) {
      next();
      return;
    }
    sendHtml(res, 200, await changesPage(pair, links));
  });

  router.get(/.*/, async (req, res, next) => {
    const spec = specAt(slugOf(req));
    if (spec === undefined) {
      next();
      return;
    }
    const baseUrl = sandbox.baseUrls[spec.slug];
    const html = await specPage(spec, {
      links,
      lfiOrigin: sandbox.lfiUrl,
      ...(baseUrl === undefined
        ? {}
        : {
            sandbox: {
              values: { serverUrl: baseUrl, consentId: sandbox.consentId, accountId: sandbox.accountIds[0], interactionId: randomUUID() },
              credentials: { accessToken: sandbox.accessToken() },
            },
          }),
    });
    sendHtml(res, 200, html);
  });

  router.use((req, res) => {
    sendHtml(res, 404, notFoundPage({ path: `${MOUNT}${req.path}`, links }));
  });
  return router;
}
