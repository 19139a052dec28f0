#!/usr/bin/env node
// The README's picture of the sandbox's API docs: a sandbox on free loopback ports, the v2.2
// reference in headless Chromium (the one inside @sparticuz/chromium), "try it" on
// GET /accounts sent, and the page captured once the answer is shown.
// Run from the repository after a build: node apps/sandbox/scripts/screenshot-docs.mjs [out.png]
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';
import { startSandbox } from '../dist/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] ?? path.join(here, '..', '..', '..', 'docs', 'images', 'sandbox-docs.png'));

const sandbox = await startSandbox({ hubPort: 0, lfiPort: 0 });
const browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: 'shell' });
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  await page.setViewport({ width: 1200, height: 760 });
  await page.goto(`${sandbox.hubUrl}/docs/v2.2#tag/accounts/GET/accounts`, { waitUntil: 'networkidle0', timeout: 60_000 });
  await (await page.waitForSelector('button::-p-text((get /accounts))')).click();
  await (await page.waitForSelector('button::-p-text(Send get request to)')).click();
  await page.waitForSelector(`::-p-text("${sandbox.seeded.consent.accountIds[0]}")`);
  await page.screenshot({ path: out });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await browser.close();
  await sandbox.close();
}
