/**
 * The docs portal in a real browser (headless Chromium): the reference page shows every
 * operation of the spec, "try it" reads the seeded accounts from this sandbox, and nothing
 * the pages load leaves the loopback.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'puppeteer-core';
import { diffSpecFiles } from '@bank-data-sharing/codegen';
import { specFile } from '../src/docs/catalog.js';
import { startSandbox, type Sandbox } from '../src/sandbox/start-sandbox.js';
import { specAt, specDocument } from '../src/docs/spec-documents.js';
import { writeStaticSite } from '../src/docs/static-site.js';
import { guardedPage, launchBrowser, type GuardedPage } from './browser.fixtures.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every operation summary a spec declares, read from the bundled document. */
async function operationSummaries(slug: string): Promise<string[]> {
  const spec = specAt(slug);
  if (spec === undefined) throw new Error(`no spec ${slug}`);
  const paths = (await specDocument(spec))['paths'] as Record<string, Record<string, { summary?: string }>>;
  return Object.values(paths).flatMap((item) => METHODS.flatMap((method) => (item[method]?.summary === undefined ? [] : [item[method]!.summary!])));
}

/** `METHOD /path` of each operation of a spec, by operationId. */
async function operationLabels(slug: string): Promise<Map<string, string>> {
  const paths = (await specDocument(specAt(slug)!))['paths'] as Record<string, Record<string, { operationId?: string }>>;
  const labels = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const id = item[method]?.operationId;
      if (id !== undefined) labels.set(id, `${method.toUpperCase()} ${path}`);
    }
  }
  return labels;
}

/**
 * The value of `"name": "..."` in the answer Scalar's console shows, read as a person does:
 * scroll the answer to its end (the viewer only draws the lines in view) and read the line.
 */
async function readShownLink(page: Page, name: string): Promise<string> {
  const line = await page.waitForFunction(
    (key) => {
      const content = document.querySelector('.cm-content');
      for (let box = content?.parentElement; box; box = box.parentElement) {
        if (box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY)) box.scrollTop = box.scrollHeight;
      }
      const lines = Array.from(document.querySelectorAll('.cm-line'), (element) => (element as HTMLElement).innerText);
      return lines.find((text) => text.trimStart().startsWith(`"${key}": "`));
    },
    {},
    name,
  );
  const match = /"[^"]+": "([^"]+)"/.exec((await line.jsonValue()) as string);
  if (match === null) throw new Error(`no ${name} link shown`);
  return match[1]!;
}

let sandbox: Sandbox;
let browser: Browser;
let current: GuardedPage | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ hubPort: 0, lfiPort: 0 });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
});

async function open(address: string): Promise<GuardedPage> {
  current = await guardedPage(browser);
  await current.page.goto(address.startsWith('/') ? `${sandbox.hubUrl}${address}` : address, { waitUntil: 'networkidle0' });
  return current;
}

// Whatever a test did on its page: no request left the loopback and nothing failed.
afterEach(async () => {
  if (current === undefined) return;
  const { page, offLoopback, errors } = current;
  current = undefined;
  await page.close();
  expect(offLoopback).toEqual([]);
  expect(errors).toEqual([]);
});

describe('the docs portal in a browser', () => {
  it.each(['v2.2', 'v2.1', 'lfi/v2.2', 'directory'])('the %s reference page shows every operation of the spec by its summary', async (slug) => {
    const summaries = await operationSummaries(slug);
    expect(summaries.length).toBeGreaterThan(0);
    const { page } = await open(`/docs/${slug}`);
    await page.waitForSelector(`::-p-text(${summaries[0]})`);
    const text = await page.evaluate(() => document.body.innerText);
    expect(summaries.filter((summary) => !text.includes(summary))).toEqual([]);
  });

  it('"try it" on GET /accounts answers 200 with the seeded accounts, and its paging links lead back to this hub', async () => {
    const { page } = await open('/docs/v2.2#tag/accounts/GET/accounts');
    await (await page.waitForSelector('button::-p-text((get /accounts))'))!.click();
    const sent = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/v2.2/accounts'));
    await (await page.waitForSelector('button::-p-text(Send get request to)'))!.click();
    const response = await sent;
    expect(response.status()).toBe(200);

    // What a person reads in the console: the status and the account ids of the seeded consent.
    await page.waitForSelector('::-p-text(200 OK)');
    for (const accountId of sandbox.seeded.consent.accountIds) await page.waitForSelector(`::-p-text("${accountId}")`);

    const body = (await response.json()) as { Links: Record<string, string> };
    expect(body.Links['Self']!.startsWith(`${sandbox.baseUrls['v2.2']}/accounts`)).toBe(true);
    // The page can follow the link it was given, with the token it was given.
    const token = sandbox.seeded.token.accessToken;
    const followed = await page.evaluate(async (url, bearer) => (await fetch(url, { headers: { authorization: `Bearer ${bearer}` } })).status, body.Links['Self']!, token);
    expect(followed).toBe(200);
  });

  it('"try it" on the transactions of the first account shows Links.Next, and the page follows it to page 2 with the console\'s token', async () => {
    const base = sandbox.baseUrls['v2.2']!;
    const accountId = sandbox.seeded.consent.accountIds[0]!;
    const { page } = await open('/docs/v2.2#tag/transactions/GET/accounts/{AccountId}/transactions');
    await (await page.waitForSelector('button::-p-text((get /accounts/{AccountId}/transactions))'))!.click();
    const sent = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/transactions'));
    await (await page.waitForSelector('button::-p-text(Send get request to)'))!.click();
    const first = await sent;
    // The console starts from the served copy's example: the first account of the seeded consent.
    expect(first.url()).toBe(`${base}/accounts/${accountId}/transactions`);
    expect(first.status()).toBe(200);
    await page.waitForSelector('::-p-text(200 OK)');

    // What a person reads at the end of the answer: the next page's address, on this hub.
    const next = await readShownLink(page, 'Next');
    expect(next.startsWith(`${base}/accounts/${accountId}/transactions`)).toBe(true);
    expect(next).not.toBe(first.url());
    const firstPageIds = new Set(((await first.json()) as { Data: { Transaction: { TransactionId: string }[] } }).Data.Transaction.map((t) => t.TransactionId));

    // The panel under the console offers that same address as "Next"; a click sends it.
    const link = (await page.waitForSelector('#follow-links a::-p-text(Next)'))!;
    expect(await link.evaluate((anchor) => (anchor as HTMLAnchorElement).href)).toBe(next);
    const followed = page.waitForResponse((response) => response.url() === next);
    await link.click();
    const second = await followed;
    expect(second.status()).toBe(200);
    // The console's own token went with it (the hub answers 401 without one).
    expect(second.request().headers()['authorization']).toBe(`Bearer ${sandbox.seeded.token.accessToken}`);

    // What the panel shows: the status, page 2's answer, and a Prev link to follow back.
    await page.waitForSelector(`#follow-links ::-p-text(GET ${next}: 200)`);
    await page.waitForSelector('#follow-links a::-p-text(Prev)');
    const shown = JSON.parse(await page.$eval('#follow-links pre', (pre) => (pre as HTMLElement).innerText)) as {
      Data: { Transaction: { TransactionId: string }[] };
      Links: Record<string, string>;
    };
    expect(shown.Links['Prev']).toBeDefined();
    expect(shown.Data.Transaction.length).toBeGreaterThan(0);
    expect(shown.Data.Transaction.filter((transaction) => firstPageIds.has(transaction.TransactionId))).toEqual([]);
  });

  it('the index links every reference page and the changes page', async () => {
    const { page } = await open('/docs');
    const hrefs = await page.$$eval('a', (anchors) => anchors.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(expect.arrayContaining(['/docs/v2.2', '/docs/v2.1', '/docs/lfi/v2.2', '/docs/lfi/v2.1', '/docs/directory', '/docs/changes/v2.1..v2.2']));
  });

  it('the changes page lists every operation the diff finds added in v2.2', async () => {
    const diff = await diffSpecFiles(specFile(specAt('v2.1')!), specFile(specAt('v2.2')!));
    const added = diff.changes.filter((change) => change.kind === 'operation-added').map((change) => change.location.replace(/^operation /, ''));
    expect(added.length).toBeGreaterThan(0);
    const labels = await operationLabels('v2.2');

    const { page } = await open('/docs/changes/v2.1..v2.2');
    const section = await page.$eval('#operations-added', (element) => (element as HTMLElement).innerText);
    for (const operationId of added) {
      expect(section).toContain(operationId);
      expect(section).toContain(labels.get(operationId));
    }
    // The way back to the portal.
    await Promise.all([page.waitForNavigation(), page.click('a::-p-text(API docs)')]);
    expect(new URL(page.url()).pathname).toBe('/docs/');
  });
});

describe('the static build', () => {
  let site: string;
  beforeAll(async () => {
    site = await mkdtemp(path.join(tmpdir(), 'docs-site-'));
    await writeStaticSite(site);
  });
  afterAll(async () => {
    if (site !== undefined) await rm(site, { recursive: true, force: true });
  });

  it('opened from disk, its index leads to a reference page that shows every operation', async () => {
    const { page } = await open(pathToFileURL(path.join(site, 'index.html')).href);
    const targets = await page.$$eval('a', (anchors) => anchors.map((a) => a.href));
    expect(targets.length).toBeGreaterThan(0);
    // Every link of the index is a file of the folder.
    expect(targets.filter((target) => !existsSync(new URL(target)))).toEqual([]);

    const summaries = await operationSummaries('v2.2');
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('a[href="./v2.2/index.html"]')]);
    await page.waitForSelector(`::-p-text(${summaries[0]})`);
    const text = await page.evaluate(() => document.body.innerText);
    expect(summaries.filter((summary) => !text.includes(summary))).toEqual([]);

    // The way back to the index, without the browser's back button.
    await Promise.all([page.waitForNavigation({ waitUntil: 'networkidle0' }), page.click('a::-p-text(API docs)')]);
    expect(page.url()).toBe(pathToFileURL(path.join(site, 'index.html')).href);
  });
});
