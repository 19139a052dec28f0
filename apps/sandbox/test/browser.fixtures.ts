/**
 * Headless Chromium for the docs tests: the browser shipped inside @sparticuz/chromium,
 * driven by puppeteer-core. Every page refuses requests that would leave the loopback and
 * records them, with page errors and console errors, for the test to assert on.
 */
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

export interface GuardedPage {
  readonly page: Page;
  /** URLs the page tried to reach outside the loopback (refused). */
  readonly offLoopback: string[];
  /** Uncaught page errors and console errors. */
  readonly errors: string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether a request stays on this machine: loopback HTTP, or data the page already holds. */
export function staysLocal(url: string): boolean {
  const parsed = new URL(url);
  if (parsed.protocol === 'data:' || parsed.protocol === 'blob:' || parsed.protocol === 'file:') return true;
  return LOOPBACK_HOSTS.has(parsed.hostname);
}

export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: 'shell',
    protocolTimeout: 60_000,
  });
}

export async function guardedPage(browser: Browser): Promise<GuardedPage> {
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  page.setDefaultNavigationTimeout(60_000);
  await page.setViewport({ width: 1280, height: 900 });
  const offLoopback: string[] = [];
  const errors: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (request) => {
    if (staysLocal(request.url())) {
      void request.continue();
    } else {
      offLoopback.push(request.url());
      void request.abort('blockedbyclient');
    }
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console error: ${message.text()}`);
  });
  return { page, offLoopback, errors };
}
